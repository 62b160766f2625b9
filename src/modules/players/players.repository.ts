import { sql, type ExpressionBuilder } from 'kysely';
import { compiledOnce } from '../../db/prepared.js';
import type { Database, Db } from '../../db/schema.js';
import type { NewPlayerRow, PlayerRow, PlayersTable } from './players.tables.js';

const playerIdByKeyHash = compiledOnce((db, values: { keyHash: string }) =>
  db.selectFrom('players').select('id').where('api_key_hash', '=', values.keyHash),
);

export async function findPlayerIdByKeyHash(db: Db, keyHash: string): Promise<string | undefined> {
  const { rows } = await playerIdByKeyHash(db, { keyHash });
  return rows[0]?.id;
}

export function findPlayer(db: Db, id: string): Promise<PlayerRow | undefined> {
  return db.selectFrom('players').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The players holding this username or this e-mail (keys are lower-cased): zero, one or two. */
export function findByIdentity(
  db: Db,
  usernameKey: string,
  emailKey: string,
): Promise<PlayerRow[]> {
  return db
    .selectFrom('players')
    .selectAll()
    .where((where) =>
      where.or([where('username_key', '=', usernameKey), where('email_key', '=', emailKey)]),
    )
    .execute();
}

/** Where a page of players ends: the last player's registration time and id. */
export interface PlayerPosition {
  createdAt: string;
  id: string;
}

export interface PlayerFilter {
  usernameKey?: string | undefined;
  emailKey?: string | undefined;
  after?: PlayerPosition | undefined;
  limit: number;
}

export function listPlayers(db: Db, filter: PlayerFilter): Promise<PlayerRow[]> {
  return db
    .selectFrom('players')
    .selectAll()
    .$if(filter.usernameKey !== undefined, (query) =>
      query.where('username_key', '=', filter.usernameKey ?? ''),
    )
    .$if(filter.emailKey !== undefined, (query) =>
      query.where('email_key', '=', filter.emailKey ?? ''),
    )
    .$if(filter.after !== undefined, (query) =>
      query.where(
        sql<boolean>`(created_at, id) > (${filter.after?.createdAt}, ${filter.after?.id})`,
      ),
    )
    .orderBy('created_at')
    .orderBy('id')
    .limit(filter.limit)
    .execute();
}

/**
 * A player with everything their statistics need, in one statement (one round trip, one
 * snapshot): rank from the per-score counts, session counts by the (player, status) index, and
 * the market value and price of their best deal (the lowest price per market value).
 */
const playerStats = compiledOnce((db, values: { id: string; idleCutoff: string }) => {
  const bestDeal = (
    eb: ExpressionBuilder<Database & { p: PlayersTable }, 'p'>,
    column: 'market_cents' | 'final_price_cents',
  ) =>
    eb
      .selectFrom('transactions as t')
      .select(`t.${column}`)
      .whereRef('t.player_id', '=', 'p.id')
      .orderBy(sql`t.final_price_cents * 1.0 / t.market_cents`)
      .limit(1);
  return db
    .selectFrom('players as p')
    .where('p.id', '=', values.id)
    .select([
      'p.id',
      'p.username',
      'p.credits_cents',
      'p.total_market_cents',
      'p.total_spent_cents',
      'p.score_hundredths',
      'p.deals_count',
      (eb) =>
        eb
          .selectFrom('leaderboard_scores as s')
          .select(sql<number>`coalesce(sum(s.players), 0)`.as('n'))
          .whereRef('s.score_hundredths', '>', 'p.score_hundredths')
          .as('better_players'),
      (eb) =>
        eb
          .selectFrom('haggle_sessions as h')
          .select(eb.fn.countAll<number>().as('n'))
          .whereRef('h.player_id', '=', 'p.id')
          .where('h.status', '=', 'active')
          .where('h.last_move_at', '>', values.idleCutoff)
          .as('active_sessions'),
      (eb) =>
        eb
          .selectFrom('haggle_sessions as h')
          .select(eb.fn.countAll<number>().as('n'))
          .whereRef('h.player_id', '=', 'p.id')
          // An active session idle past the limit has ended (expired), written yet or not.
          .where((w) =>
            w.or([w('h.status', '<>', 'active'), w('h.last_move_at', '<=', values.idleCutoff)]),
          )
          .as('finished_sessions'),
      (eb) => bestDeal(eb, 'market_cents').as('best_market_cents'),
      (eb) => bestDeal(eb, 'final_price_cents').as('best_price_cents'),
    ]);
});

/** `idleCutoff`: an active session whose last move is not after it counts as ended. */
export async function findPlayerStats(db: Db, id: string, idleCutoff: string) {
  return (await playerStats(db, { id, idleCutoff })).rows[0];
}

export async function insertPlayer(db: Db, player: NewPlayerRow): Promise<void> {
  await db.insertInto('players').values(player).execute();
}

/**
 * Replaces the player's key hash, only if it is still `from`: of two rotations made with one key
 * at once, one finds it replaced (false) instead of handing out a key the other overwrote.
 */
export async function replaceKeyHash(
  db: Db,
  change: { id: string; from: string; to: string; now: string },
): Promise<boolean> {
  const result = await db
    .updateTable('players')
    .set({ api_key_hash: change.to, updated_at: change.now })
    .where('id', '=', change.id)
    .where('api_key_hash', '=', change.from)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

// A type, not an interface: compiledOnce takes its values as a record.
type DealCharge = {
  playerId: string;
  /** The key and totals the deal was decided with: no charge once another request changed them. */
  keyHash: string;
  fromMarketCents: number;
  fromSpentCents: number;
  priceCents: number;
  marketCents: number;
  now: string;
};

const charge = compiledOnce((db, deal: DealCharge) => {
  // Integer casts: SQLite receives JS numbers as REAL and would otherwise divide exactly.
  const spent = sql<number>`cast(total_spent_cents + ${deal.priceCents} as bigint)`;
  const market = sql<number>`cast(total_market_cents + ${deal.marketCents} as bigint)`;
  return db
    .updateTable('players')
    .set((eb) => ({
      credits_cents: eb('credits_cents', '-', deal.priceCents),
      total_spent_cents: spent,
      total_market_cents: market,
      score_hundredths: sql<number>`(${market} * 200 + ${spent}) / (${spent} * 2)`,
      deals_count: eb('deals_count', '+', 1),
      // The earliest deal, whichever of two concurrent ones commits first.
      first_deal_at: sql<string>`case when first_deal_at is null or first_deal_at > ${deal.now} then ${deal.now} else first_deal_at end`,
      updated_at: deal.now,
    }))
    .where('id', '=', deal.playerId)
    .where('api_key_hash', '=', deal.keyHash)
    .where('total_market_cents', '=', deal.fromMarketCents)
    .where('total_spent_cents', '=', deal.fromSpentCents)
    .where('credits_cents', '>=', deal.priceCents)
    .returning(['credits_cents', 'total_spent_cents', 'total_market_cents', 'score_hundredths']);
});

/**
 * Pays for a deal: credits go down and totals up only if the player can still afford it, in the
 * same statement, so two deals racing for the last credits cannot both pass. Its row (none when
 * the player could not be charged) holds the balance this update produced, so each deal reports
 * its own, and the ranking columns it set (the deal moves the per-score counts in the same
 * statement: `scoreMoves`).
 */
export function chargeForDeal(deal: DealCharge) {
  return charge.with(deal);
}
