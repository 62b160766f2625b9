import { centsToCredits } from '../../http/money.js';
import { productView } from '../products/products.schemas.js';
import { transactionView } from '../transactions/transactions.schemas.js';
import type {
  AcceptResultView,
  MessageView,
  OfferResultView,
  SessionDetailView,
  SessionPageView,
  SessionView,
  StartedSessionView,
} from './haggle.schemas.js';
import { cooldownEnd, idleDeadline, type SessionClock } from './haggle.context.js';
import type { SessionList, SessionRead } from './haggle.read.js';
import type { StartOutcome } from './haggle.start.js';
import type { AcceptOutcome, OfferOutcome } from './haggle.turn.js';
import type { MessageRow, SessionRow } from './haggle.tables.js';

const money = (cents: number | null): number | null =>
  cents === null ? null : centsToCredits(cents);

/**
 * The player's view of a session: the seller's floor stays on the server. `clock` gives an
 * active session its `expires_at`, and one that ended without a deal its `cooldown_until`.
 */
export function sessionView(row: SessionRow, clock: SessionClock): SessionView {
  return {
    id: row.id,
    player_id: row.player_id,
    product_id: row.product_id,
    status: row.status,
    current_offer: money(row.current_offer_cents),
    ai_counter_offer: money(row.counter_offer_cents),
    rounds_count: row.rounds_count,
    max_rounds: row.max_rounds,
    final_price: money(row.final_price_cents),
    started_at: row.started_at,
    expires_at: row.status === 'active' ? idleDeadline(row, clock.idleMinutes) : null,
    ended_at: row.ended_at,
    cooldown_until: cooldownEnd(row, clock.cooldownMinutes),
  };
}

export function messageView(row: MessageRow): MessageView {
  return {
    id: row.id,
    sender: row.sender,
    message: row.message,
    offer_amount: money(row.offer_cents),
    round: row.round,
    created_at: row.created_at,
  };
}

export function startedView(
  started: StartOutcome,
  baseUrl: string,
  clock: SessionClock,
): StartedSessionView {
  const { session } = started;
  return {
    ...sessionView(session, clock),
    product: productView(started.product, baseUrl),
    opening_ask: centsToCredits(session.opening_ask_cents),
    current_ask: centsToCredits(session.counter_offer_cents ?? session.opening_ask_cents),
    resumed: !started.created,
    initial_message: started.sellerWords,
  };
}

export function offerView(
  outcome: OfferOutcome,
  baseUrl: string,
  clock: SessionClock,
): OfferResultView {
  const { reply } = outcome;
  return {
    session: sessionView(outcome.session, clock),
    seller_response: {
      action: reply.action,
      counter_offer: money(reply.counterCents),
      message: reply.message,
      round: reply.round,
      rounds_left: reply.roundsLeft,
      final: reply.final,
      objection: reply.objection,
      strikes_left: reply.strikesLeft,
    },
    product: productView(outcome.product, baseUrl),
    new_credits: centsToCredits(outcome.creditsCents),
    transaction: outcome.transaction && transactionView(outcome.transaction, baseUrl),
  };
}

export function acceptView(
  deal: AcceptOutcome,
  baseUrl: string,
  clock: SessionClock,
): AcceptResultView {
  return {
    session: sessionView(deal.session, clock),
    transaction: transactionView(deal.transaction, baseUrl),
    new_credits: centsToCredits(deal.creditsCents),
    savings: centsToCredits(deal.transaction.market_cents - deal.transaction.final_price_cents),
  };
}

export const sessionOnlyView = (
  outcome: { session: SessionRow },
  clock: SessionClock,
): { session: SessionView } => ({
  session: sessionView(outcome.session, clock),
});

export function sessionDetailView(read: SessionRead, baseUrl: string): SessionDetailView {
  return {
    session: sessionView(read.session, read.clock),
    product: productView(read.product, baseUrl),
    messages: read.messages.map(messageView),
  };
}

export function sessionPageView(list: SessionList): SessionPageView {
  return {
    items: list.rows.map((row) => ({
      ...sessionView(row, list.clock),
      product_name: row.product_name,
    })),
    count: list.rows.length,
    limit: list.limit,
    next_cursor: list.nextCursor,
  };
}
