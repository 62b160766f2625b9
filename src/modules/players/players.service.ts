import { randomUUID } from 'node:crypto';
import type { Store } from '../../db/database.js';
import { isUniqueViolation } from '../../db/errors.js';
import { decodeCreatedPosition, pageOf } from '../../http/cursor.js';
import { AppError, notFound } from '../../http/errors.js';
import { newApiKey } from '../../http/secrets.js';
import {
  findByIdentity,
  findPlayer,
  findPlayerStats,
  insertPlayer,
  listPlayers,
  replaceKeyHash,
} from './players.repository.js';
import type { Static } from 'typebox';
import { playerView, statsView, type PlayerStats, type PlayerView } from './players.schemas.js';

/** 100.00 credits, once: the balance is never topped up. */
export const STARTING_CREDITS_CENTS = 10_000;

export type Registration =
  | { created: true; player: PlayerView & { api_key: string } }
  | { created: false; player: PlayerView };

/**
 * Registers a new player, or finds the existing one. An existing player's key is never
 * returned (anyone who knows a username could otherwise take the account), and their e-mail is
 * shown only when the request named it.
 */
export async function register(
  store: Store,
  input: { username: string; email: string },
): Promise<Registration> {
  const usernameKey = input.username.toLowerCase();
  const emailKey = input.email.toLowerCase();
  const existing = async (): Promise<Registration | undefined> => {
    const rows = await findByIdentity(store.db, usernameKey, emailKey);
    const byName = rows.find((row) => row.username_key === usernameKey);
    const byEmail = rows.find((row) => row.email_key === emailKey);
    if (byName !== undefined && byEmail !== undefined && byName.id !== byEmail.id) {
      throw new AppError(
        'identity_conflict',
        'That username and that e-mail belong to two different players.',
      );
    }
    const found = byName ?? byEmail;
    return found === undefined
      ? undefined
      : { created: false, player: playerView(found, found.email_key === emailKey) };
  };

  const found = await existing();
  if (found !== undefined) return found;
  const { key, hash } = newApiKey();
  const at = new Date().toISOString();
  const row = {
    id: randomUUID(),
    username: input.username,
    username_key: usernameKey,
    email: input.email,
    email_key: emailKey,
    api_key_hash: hash,
    credits_cents: STARTING_CREDITS_CENTS,
    total_market_cents: 0,
    total_spent_cents: 0,
    created_at: at,
    updated_at: at,
  };
  try {
    await insertPlayer(store.db, row);
  } catch (error) {
    // Someone registered the same name or e-mail a moment ago: answer as for an existing player.
    const raced = isUniqueViolation(error) ? await existing() : undefined;
    if (raced === undefined) throw error;
    return raced;
  }
  return { created: true, player: { ...playerView(row, true), api_key: key } };
}

/** Oldest first, `limit` a page (1000 unless asked for fewer), after the cursor's player. */
export async function findPlayers(
  store: Store,
  viewerId: string,
  query: {
    username?: string | undefined;
    email?: string | undefined;
    limit?: number | undefined;
    cursor?: string | undefined;
  },
): Promise<{ items: PlayerView[]; nextCursor: string | null }> {
  const limit = query.limit ?? 1000;
  const usernameKey = query.username?.toLowerCase();
  const emailKey = query.email?.toLowerCase();
  // A cursor continues the list of the filters it was issued for, not another.
  const list = JSON.stringify([usernameKey ?? null, emailKey ?? null]);
  const rows = await listPlayers(store.db, {
    usernameKey,
    emailKey,
    after: query.cursor === undefined ? undefined : decodeCreatedPosition(query.cursor, list),
    limit: limit + 1,
  });
  const { items, nextCursor } = pageOf(
    rows,
    limit,
    (last) => ({ s: last.created_at, i: last.id }),
    list,
  );
  return { items: items.map((row) => playerView(row, row.id === viewerId)), nextCursor };
}

export async function getPlayer(store: Store, viewerId: string, id: string): Promise<PlayerView> {
  const row = await findPlayer(store.db, id);
  if (row === undefined) throw notFound('Player');
  return playerView(row, row.id === viewerId);
}

/**
 * A new key for the viewer, who authenticated with the key whose hash is `viewerKeyHash`. If that
 * key was replaced meanwhile (another rotation with it, made at the same moment), it no longer
 * authenticates anything: 401, and the key the other rotation returned stays the valid one.
 */
export async function rotateKey(
  store: Store,
  viewer: { id: string; keyHash: string },
  id: string,
): Promise<PlayerView & { api_key: string }> {
  if (id !== viewer.id) throw new AppError('forbidden', 'You can only rotate your own API key.');
  const { key, hash } = newApiKey();
  const now = new Date().toISOString();
  if (!(await replaceKeyHash(store.db, { id, from: viewer.keyHash, to: hash, now }))) {
    throw new AppError(
      'unauthorized',
      'This API key was replaced by another rotation made with it meanwhile: use the key that rotation returned.',
    );
  }
  const row = await findPlayer(store.db, id);
  // Players are never deleted: the one whose key was just replaced is there.
  if (row === undefined) throw new Error('The player whose key was replaced is gone.');
  return { ...playerView(row, true), api_key: key };
}

export async function getStats(
  store: Store,
  id: string,
  idleMinutes: number,
): Promise<Static<typeof PlayerStats>> {
  const cutoff = new Date(Date.now() - idleMinutes * 60_000).toISOString();
  const row = await findPlayerStats(store.db, id, cutoff);
  if (row === undefined) throw notFound('Player');
  return statsView({
    player: row,
    // Equal scores share a rank: 1 + the players on higher scores.
    standing:
      row.score_hundredths === null
        ? null
        : { rank: (row.better_players ?? 0) + 1, scoreHundredths: row.score_hundredths },
    deals: row.deals_count,
    sessions: { active: row.active_sessions ?? 0, finished: row.finished_sessions ?? 0 },
    bestDealHundredths: bestDiscountHundredths(row.best_market_cents, row.best_price_cents),
  });
}

/**
 * The discount of the best deal as a percentage of market price, to 2 decimals rounded half up,
 * in integer hundredths (negative when every deal was above market); 0 with no deals.
 */
function bestDiscountHundredths(market: number | null, price: number | null): number {
  if (market === null || price === null) return 0;
  return Math.floor(((market - price) * 20_000 + market) / (2 * market));
}
