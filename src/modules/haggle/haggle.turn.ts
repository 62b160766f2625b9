import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
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
  lockOwnSession,
  lockOwnSessionWithMessages,
  moveSession,
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
export async function expireIdle(
  trx: Transaction<Database>,
  deps: HaggleDeps,
  session: SessionRow,
): Promise<void> {
  const endedAt = idleDeadline(session, deps.idleMinutes);
  const expired: SessionRow = { ...session, status: 'expired', ended_at: endedAt };
  const { query, values } = moveSession(session, expired);
  await query(trx, values as never);
}

/**
 * Runs `act` on the player's active session, locked (404 or 409 otherwise). A session idle past
 * the limit is expired instead: that is written and committed, then 409 `session_not_active`.
 * The caller's `keyHash` is that of the key the request was authenticated with: a rotation
 * committed since then (it waits for the lock, or this read waits for it) makes the turn 401,
 * so no turn is taken with a key already replaced. `answered`, when given, may answer from
 * what is stored, whatever the session's status, before any of that: a retried turn.
 */
async function onActiveSession<T, Locked extends LockedSession>(
  deps: HaggleDeps,
  { playerId, keyHash }: Caller,
  sessionId: string,
  lock: (
    trx: Transaction<Database>,
    ids: { sessionId: string; playerId: string },
  ) => Promise<Locked | undefined>,
  act: (trx: Transaction<Database>, locked: Locked, at: string) => Promise<T>,
  answered?: (trx: Transaction<Database>, locked: Locked) => Promise<T | undefined>,
): Promise<T> {
  const result = await deps.store.db.transaction().execute(async (trx) => {
    const locked = await lock(trx, { sessionId, playerId });
    if (locked === undefined) throw notFound('Session');
    if (locked.keyHash !== keyHash) throw keyReplaced();
    const again = await answered?.(trx, locked);
    if (again !== undefined) return { expired: false, value: again } as const;
    if (locked.session.status !== 'active') throw sessionNotActive(locked.session.status);
    const at = now();
    if (isIdle(locked.session, at, deps.idleMinutes)) {
      await expireIdle(trx, deps, locked.session);
      return { expired: true } as const;
    }
    return { expired: false, value: await act(trx, locked, at) } as const;
  });
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
  trx: Transaction<Database>,
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
      decision.outcome === 'accepted' ? await findSessionDeal(trx, session.id) : undefined;
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
    lockOwnSessionWithMessages,
    async (trx, locked, at) => {
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
          const countered = await recordTurn(trx, session, next, turn);
          return { session: countered, reply, product, creditsCents, transaction: null };
        }
        case 'accepted': {
          const deal = await closeDeal(trx, {
            session,
            product,
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
          const ended = await recordTurn(trx, session, next, turn);
          return { session: ended, reply, product, creditsCents, transaction: null };
        }
      }
    },
    (trx, locked) => answeredOffer(deps, trx, locked, input.round, offerCents),
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
  return onActiveSession(deps, caller, sessionId, lockOwnSession, async (trx, locked, at) => {
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
    const deal = await closeDeal(trx, { session, product, totals, priceCents, at, turn });
    const transaction = withProduct(deal.transaction, product);
    return { session: deal.session, transaction, creditsCents: deal.creditsCents };
  });
}

export async function abandonSession(
  deps: HaggleDeps,
  caller: Caller,
  sessionId: string,
): Promise<{ session: SessionRow }> {
  return onActiveSession(deps, caller, sessionId, lockOwnSession, async (trx, { session }, at) => {
    const next: SessionRow = { ...session, status: 'abandoned', ended_at: at };
    const abandoned = await recordTurn(trx, session, next, [
      playerNote(session, playerWords.walkAway, null, at),
    ]);
    return { session: abandoned };
  });
}
