import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Store } from '../../db/database.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { Database } from '../../db/schema.js';
import { AppError, notFound } from '../../http/errors.js';
import { parseCents } from '../../http/money.js';
import { pastRounds } from '../../seller/history.js';
import {
  formatCredits,
  MAX_ROUNDS,
  openingMessage,
  respondToOffer,
  sellerTerms,
  type SellerContext,
  type SellerReply,
} from '../../seller/index.js';
import { findPlayer } from '../players/players.repository.js';
import { findProduct } from '../products/products.repository.js';
import type { ProductRow } from '../products/products.tables.js';
import {
  findTransactionWithProduct,
  type TransactionWithProduct,
} from '../transactions/transactions.repository.js';
import { insufficientCredits, outOfStock, sessionNotActive } from './haggle.errors.js';
import { newMessage, playerWords } from './haggle.messages.js';
import {
  appendMessages,
  findActiveSession,
  findOwnSession,
  insertSession,
  listMessages,
  lockOwnSession,
  nextMessagePosition,
} from './haggle.repository.js';
import { advance, closeDeal } from './haggle.settlement.js';
import type { MessageRow, SessionRow } from './haggle.tables.js';

/** What the haggle service needs besides the request: the database and the seller's secret. */
export interface HaggleDeps {
  store: Store;
  sellerSecret: string;
}

const now = (): string => new Date().toISOString();

export interface StartOutcome {
  created: boolean;
  session: SessionRow;
  product: ProductRow;
  greeting: string;
}

export async function startSession(
  deps: HaggleDeps,
  playerId: string,
  input: { player_id: string; product_id: string },
): Promise<StartOutcome> {
  if (input.player_id !== playerId) {
    throw new AppError(
      'forbidden',
      'player_id must be your own id: you can only negotiate for yourself.',
    );
  }
  const { db } = deps.store;
  try {
    return await db.transaction().execute(async (trx) => {
      const product = await findProduct(trx, input.product_id);
      if (product === undefined) throw notFound('Product');
      const player = await findPlayer(trx, playerId);
      if (player === undefined) throw notFound('Player');
      if (player.credits_cents <= 0) throw insufficientCredits();
      if (product.stock_quantity <= 0) throw outOfStock();
      const existing = await findActiveSession(trx, { playerId, productId: product.id });
      if (existing !== undefined) return started(trx, false, existing, product);
      const session = await openSession(trx, deps.sellerSecret, playerId, product);
      return started(trx, true, session, product);
    });
  } catch (error) {
    // Another request for the same pair committed first: the unique index kept it to one session.
    if (!isUniqueViolation(error)) throw error;
    const existing = await findActiveSession(db, { playerId, productId: input.product_id });
    const product = await findProduct(db, input.product_id);
    if (existing === undefined || product === undefined) throw error;
    return started(db, false, existing, product);
  }
}

async function openSession(
  trx: Transaction<Database>,
  sellerSecret: string,
  playerId: string,
  product: ProductRow,
): Promise<SessionRow> {
  const terms = sellerTerms(
    {
      productId: product.id,
      category: product.category,
      marketCents: product.market_cents,
      stock: product.stock_quantity,
    },
    sellerSecret,
  );
  const at = now();
  const session: SessionRow = {
    id: randomUUID(),
    player_id: playerId,
    product_id: product.id,
    status: 'active',
    current_offer_cents: null,
    counter_offer_cents: null,
    rounds_count: 0,
    max_rounds: MAX_ROUNDS,
    final_price_cents: null,
    floor_cents: terms.floorCents,
    opening_ask_cents: terms.openingAskCents,
    started_at: at,
    ended_at: null,
  };
  await insertSession(trx, session);
  const text = openingMessage(sellerContext(session, product));
  await appendMessages(trx, [
    newMessage({
      sessionId: session.id,
      position: 0,
      sender: 'seller',
      text,
      offerCents: terms.openingAskCents,
      round: 0,
      at,
    }),
  ]);
  return session;
}

async function started(
  db: Kysely<Database>,
  created: boolean,
  session: SessionRow,
  product: ProductRow,
): Promise<StartOutcome> {
  const [greeting] = await listMessages(db, session.id);
  return { created, session, product, greeting: greeting?.message ?? '' };
}

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
    const session = await activeOwnSession(trx, playerId, input.session_id);
    const player = await findPlayer(trx, playerId);
    if (player === undefined) throw notFound('Player');
    if (offerCents > player.credits_cents) {
      throw new AppError(
        'insufficient_credits',
        `You have ${formatCredits(player.credits_cents)} credits; you cannot offer more.`,
      );
    }
    const product = await productOf(trx, session);
    const messages = await listMessages(trx, session.id);
    const reply = respondToOffer(sellerContext(session, product), pastRounds(messages), offerCents);
    const at = now();
    const turn = { sessionId: session.id, round: reply.round, at };
    await appendMessages(trx, [
      newMessage({
        ...turn,
        position: messages.length,
        sender: 'player',
        text: playerWords.offer(offerCents, input.message),
        offerCents,
      }),
      newMessage({
        ...turn,
        position: messages.length + 1,
        sender: 'seller',
        text: reply.message,
        offerCents: reply.counterCents ?? reply.dealCents,
      }),
    ]);

    const changes = { current_offer_cents: offerCents, rounds_count: reply.round };
    let updated: SessionRow;
    switch (reply.outcome) {
      case 'countered':
        updated = await advance(trx, session, {
          ...changes,
          counter_offer_cents: reply.counterCents,
        });
        break;
      case 'accepted':
        updated = (await closeDeal(trx, { session, product, priceCents: offerCents, at, changes }))
          .session;
        break;
      case 'rejected':
      case 'expired':
        updated = await advance(trx, session, { ...changes, status: reply.outcome, ended_at: at });
        break;
    }
    // Read again: a deal took one unit of stock.
    return { session: updated, reply, product: await productOf(trx, session) };
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
    const session = await activeOwnSession(trx, playerId, sessionId);
    const priceCents = session.counter_offer_cents;
    if (priceCents === null) {
      throw new AppError(
        'no_counter_offer',
        'The seller has not made a counter-offer yet: make an offer first.',
      );
    }
    const player = await findPlayer(trx, playerId);
    if (player === undefined) throw notFound('Player');
    if (player.credits_cents < priceCents) throw insufficientCredits();
    const product = await productOf(trx, session);
    const at = now();
    await appendPlayerNote(trx, session, playerWords.accept(priceCents), priceCents, at);
    const deal = await closeDeal(trx, { session, product, priceCents, at });
    const transaction = await findTransactionWithProduct(trx, deal.transactionId);
    if (transaction === undefined)
      throw new Error('transaction vanished inside its own database transaction');
    return { session: deal.session, transaction, creditsCents: deal.creditsCents };
  });
}

export async function abandonSession(
  deps: HaggleDeps,
  playerId: string,
  sessionId: string,
): Promise<{ session: SessionRow }> {
  return deps.store.db.transaction().execute(async (trx) => {
    const session = await activeOwnSession(trx, playerId, sessionId);
    const at = now();
    await appendPlayerNote(trx, session, playerWords.walkAway, null, at);
    return { session: await advance(trx, session, { status: 'abandoned', ended_at: at }) };
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

async function activeOwnSession(
  trx: Transaction<Database>,
  playerId: string,
  sessionId: string,
): Promise<SessionRow> {
  const session = await lockOwnSession(trx, { sessionId, playerId });
  if (session === undefined) throw notFound('Session');
  if (session.status !== 'active') throw sessionNotActive(session.status);
  return session;
}

async function productOf(db: Kysely<Database>, session: SessionRow): Promise<ProductRow> {
  const product = await findProduct(db, session.product_id);
  if (product === undefined) throw notFound('Product');
  return product;
}

function sellerContext(session: SessionRow, product: ProductRow): SellerContext {
  return {
    sessionId: session.id,
    productName: product.name,
    marketCents: product.market_cents,
    floorCents: session.floor_cents,
    openingAskCents: session.opening_ask_cents,
  };
}

/** Records what the player did outside an offer (accepting, walking away) after the last message. */
async function appendPlayerNote(
  trx: Transaction<Database>,
  session: SessionRow,
  text: string,
  offerCents: number | null,
  at: string,
): Promise<void> {
  const position = await nextMessagePosition(trx, session.id);
  await appendMessages(trx, [
    newMessage({
      sessionId: session.id,
      position,
      sender: 'player',
      text,
      offerCents,
      round: session.rounds_count,
      at,
    }),
  ]);
}
