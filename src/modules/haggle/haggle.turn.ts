import { PostgresAdapter } from 'kysely';
import { isChangedMeanwhile } from '../../db/errors.js';
import type { Db } from '../../db/schema.js';
import { AppError, notFound, validationHeadline } from '../../http/errors.js';
import { parseCents } from '../../http/money.js';
import { pastRounds, type RecordedMessage } from '../../seller/history.js';
import {
  formatCredits,
  playerWords,
  respondToOffer,
  type SellerReply,
} from '../../seller/index.js';
import type { ProductRow } from '../products/products.tables.js';
import {
  findSessionDeal,
  type TransactionWithProduct,
} from '../transactions/transactions.repository.js';
import type { TransactionRow } from '../transactions/transactions.tables.js';
import {
  asOf,
  idleDeadline,
  isIdle,
  newMessage,
  now,
  playerNote,
  positionAfter,
  sellerContext,
  type HaggleDeps,
} from './haggle.context.js';
import { closeDeal, recordTurn, type Turn } from './haggle.deal.js';
import {
  insufficientCredits,
  keyReplaced,
  sessionExpired,
  sessionNotActive,
  soldOutMeanwhile,
} from './haggle.errors.js';
import {
  moveSession,
  readOwnSession,
  readOwnSessionWithMessages,
  type LockedSession,
} from './haggle.repository.js';
import type { SessionRow } from './haggle.tables.js';

/** A turn of a negotiation: an offer, accepting the counter-offer, or walking away. */

/** Who takes a turn: the player, and the hash of the API key the request was authenticated with. */
export interface Caller {
  playerId: string;
  keyHash: string;
}

/**
 * Writes the expiry of an idle session: ended at its deadline (its cool-down runs from then).
 * Conditional on the state read, so when two processes notice it at once, one writes it.
 */
export async function expireIdle(db: Db, deps: HaggleDeps, session: SessionRow): Promise<void> {
  const endedAt = idleDeadline(session, deps.idleMinutes);
  const expired: SessionRow = { ...session, status: 'expired', ended_at: endedAt };
  const { query, values } = moveSession(session, expired);
  await query(db, values as never);
}

/**
 * Runs `act` on the player's active session (404 or 409 otherwise). A session idle past the
 * limit is expired instead: that is written and committed, then 409 `session_not_active`. The
 * caller's `keyHash` is that of the key the request was authenticated with: a rotation committed
 * since then makes the turn 401, so no turn is taken with a key already replaced. `answered`,
 * when given, may answer from what is stored, whatever the session's status, before any of
 * that: a retried turn.
 *
 * On PostgreSQL the turn is first decided on the rows as they stand, without a transaction, and
 * written in one statement that fails whole if they changed meanwhile (`haggle.deal.ts`); then,
 * or when an idle session must be expired, it is decided again in a transaction that locks the
 * session and the player. Uncontended, that spares a turn two round trips (`begin`, `commit`);
 * either way a turn sees and changes what it would under the locks. SQLite always locks.
 */
async function onActiveSession<T, Read extends LockedSession>(
  deps: HaggleDeps,
  { playerId, keyHash }: Caller,
  sessionId: string,
  read: (db: Db, ids: { sessionId: string; playerId: string }) => Promise<Read | undefined>,
  act: (db: Db, read: Read, at: string) => Promise<T>,
  answered?: (db: Db, read: Read) => Promise<T | undefined>,
): Promise<T> {
  /** The turn's outcome, or undefined when it must be decided again in a transaction. */
  const decide = async (db: Db) => {
    const found = await read(db, { sessionId, playerId });
    if (found === undefined) throw notFound('Session');
    if (found.keyHash !== keyHash) throw keyReplaced();
    const again = await answered?.(db, found);
    if (again !== undefined) return { expired: false, value: again } as const;
    if (found.session.status !== 'active') throw sessionNotActive(found.session.status);
    const at = now();
    if (isIdle(found.session, at, deps.idleMinutes)) {
      if (!db.isTransaction) return undefined;
      await expireIdle(db, deps, found.session);
      return { expired: true } as const;
    }
    return { expired: false, value: await act(db, found, at) } as const;
  };
  const database = deps.store.db;
  let result;
  if (database.getExecutor().adapter instanceof PostgresAdapter) {
    try {
      result = await decide(database);
    } catch (error) {
      if (!isChangedMeanwhile(error)) throw error;
    }
  }
  result ??= await database.transaction().execute(decide);
  if (result === undefined) throw new Error('a turn decided in a transaction has an outcome');
  if (result.expired) throw sessionExpired(deps.idleMinutes);
  return result.value;
}

/** What a deal wrote, with the product's details: nothing to read back. */
const withProduct = (transaction: TransactionRow, product: ProductRow): TransactionWithProduct => ({
  ...transaction,
  name: product.name,
  description: product.description,
  category: product.category,
});

export interface OfferOutcome {
  session: SessionRow;
  reply: SellerReply;
  product: ProductRow;
  /** The player's credits after the offer: less the price when it made the deal. */
  creditsCents: number;
  /** The deal the offer made, or null. */
  transaction: TransactionWithProduct | null;
}

/**
 * An offer that names its `round` and finds that round already played with the same amount is
 * a retry: it is answered again as it was (the seller's decision is replayed from the stored
 * history, its words are those stored), with the session and product as they stand, and
 * nothing is written. Any other round than the next is refused while the session is active;
 * on a finished or idle session it is `session_not_active`, as an offer without a round is.
 */
async function answeredOffer(
  deps: HaggleDeps,
  db: Db,
  locked: LockedSession & { messages: RecordedMessage[] },
  round: number | undefined,
  offerCents: number,
): Promise<OfferOutcome | undefined> {
  const { session, product, messages, creditsCents } = locked;
  const played = session.rounds_count;
  if (round === undefined || round === played + 1) return undefined;
  const history = pastRounds(messages);
  const said = messages.find((row) => row.sender === 'seller' && row.round === round);
  if (round === played && history[round - 1]?.offerCents === offerCents && said !== undefined) {
    const decision = respondToOffer(
      sellerContext(session, product, deps.sellerSecret),
      history.slice(0, round - 1),
      offerCents,
    );
    const asItStands = asOf(session, now(), deps.idleMinutes);
    const reply = { ...decision, message: said.message };
    const deal =
      decision.outcome === 'accepted' ? await findSessionDeal(db, session.id) : undefined;
    return { session: asItStands, reply, product, creditsCents, transaction: deal ?? null };
  }
  // A finished or idle session answers as it does to an offer without a round (409).
  if (session.status !== 'active' || isIdle(session, now(), deps.idleMinutes)) return undefined;
  const next = `your next offer is round ${played + 1}`;
  const playedWith = round === played ? history[round - 1]?.offerCents : undefined;
  const message =
    playedWith === undefined
      ? `${round} is not this negotiation's next round: ${played} played, ${next}`
      : `${round} was played with an offer of ${formatCredits(playedWith)} credits, not ${formatCredits(offerCents)}: ${next}`;
  const details = [{ field: 'round', message }];
  throw new AppError('validation_error', validationHeadline(details), { details });
}

export async function makeOffer(
  deps: HaggleDeps,
  caller: Caller,
  input: {
    session_id: string;
    offer_amount: number | string;
    message?: string | undefined;
    round?: number | undefined;
  },
): Promise<OfferOutcome> {
  const offerCents = parseCents(input.offer_amount, 'offer_amount');
  return onActiveSession(
    deps,
    caller,
    input.session_id,
    readOwnSessionWithMessages,
    async (db, locked, at) => {
      const { session, creditsCents, totals, product, messages } = locked;
      if (offerCents > creditsCents) {
        throw new AppError(
          'insufficient_credits',
          `You have ${formatCredits(creditsCents)} credits; you cannot offer more.`,
        );
      }
      // No round is played for what cannot be sold (a deal would find no stock either).
      if (product.stock_quantity <= 0) throw soldOutMeanwhile();
      const reply = respondToOffer(
        sellerContext(session, product, deps.sellerSecret),
        pastRounds(messages),
        offerCents,
        input.message ?? null,
      );
      const position = positionAfter(session);
      const common = { sessionId: session.id, round: reply.round, at };
      const turn: Turn = [
        newMessage({
          ...common,
          position,
          sender: 'player',
          text: playerWords.offer(offerCents, input.message),
          offerCents,
        }),
        newMessage({
          ...common,
          position: position + 1,
          sender: 'seller',
          text: reply.message,
          offerCents: reply.counterCents ?? reply.dealCents,
        }),
      ];
      const moved = {
        ...session,
        current_offer_cents: offerCents,
        rounds_count: reply.round,
        last_move_at: at,
      };
      switch (reply.outcome) {
        case 'countered': {
          const next = { ...moved, counter_offer_cents: reply.counterCents };
          const countered = await recordTurn(db, locked, next, turn);
          return { session: countered, reply, product, creditsCents, transaction: null };
        }
        case 'accepted': {
          const deal = await closeDeal(db, {
            session,
            product,
            keyHash: locked.keyHash,
            totals,
            priceCents: offerCents,
            at,
            turn,
            changes: moved,
          });
          // A deal took one unit of stock: the product as the deal left it, not read again.
          return {
            session: deal.session,
            reply,
            product: deal.product,
            creditsCents: deal.creditsCents,
            transaction: withProduct(deal.transaction, product),
          };
        }
        case 'rejected':
        case 'expired': {
          const next = { ...moved, status: reply.outcome, ended_at: at };
          const ended = await recordTurn(db, locked, next, turn);
          return { session: ended, reply, product, creditsCents, transaction: null };
        }
      }
    },
    (db, locked) => answeredOffer(deps, db, locked, input.round, offerCents),
  );
}

export interface AcceptOutcome {
  session: SessionRow;
  transaction: TransactionWithProduct;
  creditsCents: number;
}

export async function acceptCounter(
  deps: HaggleDeps,
  caller: Caller,
  sessionId: string,
): Promise<AcceptOutcome> {
  return onActiveSession(deps, caller, sessionId, readOwnSession, async (db, locked, at) => {
    const { session, creditsCents, totals, product } = locked;
    const priceCents = session.counter_offer_cents;
    if (priceCents === null) {
      throw new AppError(
        'no_counter_offer',
        'The seller has not made a counter-offer yet: make an offer first.',
      );
    }
    if (creditsCents < priceCents) {
      throw insufficientCredits(
        `The seller’s counter-offer is ${formatCredits(priceCents)} credits and you have ${formatCredits(creditsCents)}: you cannot pay it. Offer what you can instead, or walk away.`,
      );
    }
    if (product.stock_quantity <= 0) throw soldOutMeanwhile();
    const turn: Turn = [playerNote(session, playerWords.accept(priceCents), priceCents, at)];
    const { keyHash } = locked;
    const deal = await closeDeal(db, { session, product, keyHash, totals, priceCents, at, turn });
    const transaction = withProduct(deal.transaction, product);
    return { session: deal.session, transaction, creditsCents: deal.creditsCents };
  });
}

export async function abandonSession(
  deps: HaggleDeps,
  caller: Caller,
  sessionId: string,
): Promise<{ session: SessionRow }> {
  return onActiveSession(deps, caller, sessionId, readOwnSession, async (db, locked, at) => {
    const { session } = locked;
    const next: SessionRow = { ...session, status: 'abandoned', ended_at: at };
    const abandoned = await recordTurn(db, locked, next, [
      playerNote(session, playerWords.walkAway, null, at),
    ]);
    return { session: abandoned };
  });
}
