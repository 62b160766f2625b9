import { AppError, notFound } from '../../http/errors.js';
import { parseCents } from '../../http/money.js';
import { pastRounds } from '../../seller/history.js';
import {
  formatCredits,
  playerWords,
  respondToOffer,
  type SellerReply,
} from '../../seller/index.js';
import type { ProductRow } from '../products/products.tables.js';
import type { TransactionWithProduct } from '../transactions/transactions.repository.js';
import { insufficientCredits } from './haggle.errors.js';
import { newMessage } from './haggle.messages.js';
import { findOwnSession, listMessages } from './haggle.repository.js';
import {
  activeOwnSession,
  coolDown,
  now,
  playerNote,
  productOf,
  sellerContext,
  type HaggleDeps,
} from './haggle.session.js';
import { advance, closeDeal, type Turn } from './haggle.settlement.js';
import type { MessageRow, SessionRow } from './haggle.tables.js';

export interface OfferOutcome {
  session: SessionRow;
  reply: SellerReply;
  product: ProductRow;
}

export async function makeOffer(
  deps: HaggleDeps,
  playerId: string,
  input: { session_id: string; offer_amount: number | string; message?: string | undefined },
): Promise<OfferOutcome> {
  const offerCents = parseCents(input.offer_amount, 'offer_amount');
  return deps.store.db.transaction().execute(async (trx) => {
    const { session, creditsCents, totals, product } = await activeOwnSession(
      trx,
      playerId,
      input.session_id,
    );
    if (offerCents > creditsCents) {
      throw new AppError(
        'insufficient_credits',
        `You have ${formatCredits(creditsCents)} credits; you cannot offer more.`,
      );
    }
    const messages = await listMessages(trx, session.id);
    const reply = respondToOffer(
      sellerContext(session, product, deps.sellerSecret),
      pastRounds(messages),
      offerCents,
      input.message ?? null,
    );
    const at = now();
    const common = { sessionId: session.id, round: reply.round, at };
    const turn: Turn = [
      newMessage({
        ...common,
        position: messages.length,
        sender: 'player',
        text: playerWords.offer(offerCents, input.message),
        offerCents,
      }),
      newMessage({
        ...common,
        position: messages.length + 1,
        sender: 'seller',
        text: reply.message,
        offerCents: reply.counterCents ?? reply.dealCents,
      }),
    ];

    const changes = { current_offer_cents: offerCents, rounds_count: reply.round };
    let updated: SessionRow;
    let after = product;
    switch (reply.outcome) {
      case 'countered':
        updated = await advance(
          trx,
          session,
          { ...changes, counter_offer_cents: reply.counterCents },
          turn,
        );
        break;
      case 'accepted':
        ({ session: updated, product: after } = await closeDeal(trx, {
          session,
          product,
          totals,
          priceCents: offerCents,
          at,
          turn,
          changes,
        }));
        break;
      case 'rejected':
      case 'expired':
        updated = await advance(
          trx,
          session,
          { ...changes, status: reply.outcome, ended_at: at },
          turn,
        );
        await coolDown(trx, deps, session, at);
        break;
    }
    // A deal took one unit of stock: the product as the deal left it, not read again.
    return { session: updated, reply, product: after };
  });
}

export interface AcceptOutcome {
  session: SessionRow;
  transaction: TransactionWithProduct;
  creditsCents: number;
}

export async function acceptCounter(
  deps: HaggleDeps,
  playerId: string,
  sessionId: string,
): Promise<AcceptOutcome> {
  return deps.store.db.transaction().execute(async (trx) => {
    const { session, creditsCents, totals, product } = await activeOwnSession(
      trx,
      playerId,
      sessionId,
    );
    const priceCents = session.counter_offer_cents;
    if (priceCents === null) {
      throw new AppError(
        'no_counter_offer',
        'The seller has not made a counter-offer yet: make an offer first.',
      );
    }
    if (creditsCents < priceCents) throw insufficientCredits();
    const at = now();
    const turn: Turn = [playerNote(session, playerWords.accept(priceCents), priceCents, at)];
    const deal = await closeDeal(trx, { session, product, totals, priceCents, at, turn });
    // What the deal wrote, with the product's details: nothing to read back.
    const transaction: TransactionWithProduct = {
      ...deal.transaction,
      name: product.name,
      description: product.description,
      category: product.category,
    };
    return { session: deal.session, transaction, creditsCents: deal.creditsCents };
  });
}

export async function abandonSession(
  deps: HaggleDeps,
  playerId: string,
  sessionId: string,
): Promise<{ session: SessionRow }> {
  return deps.store.db.transaction().execute(async (trx) => {
    const { session } = await activeOwnSession(trx, playerId, sessionId);
    const at = now();
    const abandoned = await advance(trx, session, { status: 'abandoned', ended_at: at }, [
      playerNote(session, playerWords.walkAway, null, at),
    ]);
    await coolDown(trx, deps, session, at);
    return { session: abandoned };
  });
}

export interface SessionRead {
  session: SessionRow;
  product: ProductRow;
  messages: MessageRow[];
}

export async function readSession(
  deps: HaggleDeps,
  playerId: string,
  sessionId: string,
): Promise<SessionRead> {
  const { db } = deps.store;
  const session = await findOwnSession(db, { sessionId, playerId });
  if (session === undefined) throw notFound('Session');
  const [product, messages] = await Promise.all([
    productOf(db, session),
    listMessages(db, session.id),
  ]);
  return { session, product, messages };
}
