import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Store } from '../../db/database.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { Database } from '../../db/schema.js';
import { AppError, notFound } from '../../http/errors.js';
import { centsToCredits, parseCents } from '../../http/money.js';
import {
  formatCredits,
  MAX_ROUNDS,
  openingMessage,
  respondToOffer,
  sellerTerms,
  type PastRound,
  type SellerContext,
  type SellerReply,
} from '../../seller/index.js';
import { chargeForDeal, findPlayer } from '../players/players.repository.js';
import { findProduct, takeOneFromStock } from '../products/products.repository.js';
import { productView, type ProductView } from '../products/products.schemas.js';
import type { ProductRow } from '../products/products.tables.js';
import {
  findTransactionWithProduct,
  insertTransaction,
} from '../transactions/transactions.repository.js';
import { transactionView, type TransactionView } from '../transactions/transactions.schemas.js';
import {
  advanceSession,
  appendMessages,
  findActiveSession,
  findOwnSession,
  insertSession,
  listMessages,
  nextMessagePosition,
} from './haggle.repository.js';
import { messageView, sessionView, type MessageView, type SessionView } from './haggle.schemas.js';
import type { MessageRow, SessionRow } from './haggle.tables.js';

type Db = Kysely<Database>;

/** What the haggle service needs besides the request: the database and the seller's secret. */
export interface HaggleDeps {
  store: Store;
  sellerSecret: string;
  baseUrl: string;
}

const sessionNotActive = (status: string) =>
  new AppError('session_not_active', `This negotiation is ${status}; it takes no more offers.`);
const insufficientCredits = () =>
  new AppError('insufficient_credits', 'You do not have enough credits for that.');
const outOfStock = () => new AppError('out_of_stock', 'That product is out of stock.');

const now = (): string => new Date().toISOString();

export interface StartResult {
  created: boolean;
  data: SessionView & { product: ProductView; initial_message: string };
}

export async function startSession(
  deps: HaggleDeps,
  playerId: string,
  input: { player_id: string; product_id: string },
): Promise<StartResult> {
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
      if (existing !== undefined)
        return { created: false, data: await startedView(trx, deps, existing, product) };
      const session = await openSession(trx, deps, playerId, product);
      return { created: true, data: await startedView(trx, deps, session, product) };
    });
  } catch (error) {
    // Another request for the same pair committed first: the unique index kept it to one session.
    if (!isUniqueViolation(error)) throw error;
    const existing = await findActiveSession(db, { playerId, productId: input.product_id });
    const product = await findProduct(db, input.product_id);
    if (existing === undefined || product === undefined) throw error;
    return { created: false, data: await startedView(db, deps, existing, product) };
  }
}

async function openSession(
  trx: Db,
  deps: HaggleDeps,
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
    deps.sellerSecret,
  );
  const startedAt = now();
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
    started_at: startedAt,
    ended_at: null,
  };
  await insertSession(trx, session);
  await appendMessages(trx, [
    {
      id: randomUUID(),
      session_id: session.id,
      position: 0,
      sender: 'seller',
      message: openingMessage(sellerContext(session, product)),
      offer_cents: terms.openingAskCents,
      round: 0,
      created_at: startedAt,
    },
  ]);
  return session;
}

async function startedView(
  db: Db,
  deps: HaggleDeps,
  session: SessionRow,
  product: ProductRow,
): Promise<StartResult['data']> {
  const [greeting] = await listMessages(db, session.id);
  return {
    ...sessionView(session),
    product: productView(product, deps.baseUrl),
    initial_message: greeting?.message ?? '',
  };
}

export interface OfferResult {
  session: SessionView;
  seller_response: {
    action: SellerReply['action'];
    counter_offer: number | null;
    message: string;
    round: number;
    rounds_left: number;
    final: boolean;
  };
  product: ProductView;
}

export async function makeOffer(
  deps: HaggleDeps,
  playerId: string,
  input: { session_id: string; offer_amount: number | string; message?: string | undefined },
): Promise<OfferResult> {
  const offerCents = parseCents(input.offer_amount, 'offer_amount');
  return deps.store.db.transaction().execute(async (trx) => {
    const session = await activeOwnSession(trx, deps, playerId, input.session_id);
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
    const position = messages.length;
    const playerText = input.message?.trim();
    await appendMessages(trx, [
      message(
        session.id,
        position,
        'player',
        playerText === undefined || playerText === ''
          ? `I offer ${formatCredits(offerCents)}.`
          : playerText,
        offerCents,
        reply.round,
        at,
      ),
      message(
        session.id,
        position + 1,
        'seller',
        reply.message,
        reply.counterCents ?? reply.dealCents,
        reply.round,
        at,
      ),
    ]);

    const base = { current_offer_cents: offerCents, rounds_count: reply.round };
    let updated: SessionRow;
    switch (reply.outcome) {
      case 'countered':
        updated = await advance(trx, session, { ...base, counter_offer_cents: reply.counterCents });
        break;
      case 'accepted':
        updated = (await closeDeal(trx, session, product, offerCents, at, base)).session;
        break;
      case 'rejected':
      case 'expired':
        updated = await advance(trx, session, { ...base, status: reply.outcome, ended_at: at });
        break;
    }
    return {
      session: sessionView(updated),
      seller_response: {
        action: reply.action,
        counter_offer: reply.counterCents === null ? null : centsToCredits(reply.counterCents),
        message: reply.message,
        round: reply.round,
        rounds_left: reply.roundsLeft,
        final: reply.final,
      },
      product: productView(await productOf(trx, session), deps.baseUrl),
    };
  });
}

export interface AcceptResult {
  session: SessionView;
  transaction: TransactionView;
  new_credits: number;
  savings: number;
}

export async function acceptCounter(
  deps: HaggleDeps,
  playerId: string,
  sessionId: string,
): Promise<AcceptResult> {
  return deps.store.db.transaction().execute(async (trx) => {
    const session = await activeOwnSession(trx, deps, playerId, sessionId);
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
    await appendPlayerNote(
      trx,
      session,
      `I accept your offer of ${formatCredits(priceCents)}.`,
      priceCents,
      at,
    );
    const deal = await closeDeal(trx, session, product, priceCents, at, {});
    const transaction = await findTransactionWithProduct(trx, deal.transactionId);
    if (transaction === undefined)
      throw new Error('transaction vanished inside its own database transaction');
    return {
      session: sessionView(deal.session),
      transaction: transactionView(transaction, deps.baseUrl),
      new_credits: centsToCredits(player.credits_cents - priceCents),
      savings: centsToCredits(product.market_cents - priceCents),
    };
  });
}

export async function abandonSession(
  deps: HaggleDeps,
  playerId: string,
  sessionId: string,
): Promise<{ session: SessionView }> {
  return deps.store.db.transaction().execute(async (trx) => {
    const session = await activeOwnSession(trx, deps, playerId, sessionId);
    const at = now();
    await appendPlayerNote(trx, session, 'I am walking away from this negotiation.', null, at);
    const updated = await advance(trx, session, { status: 'abandoned', ended_at: at });
    return { session: sessionView(updated) };
  });
}

export async function readSession(
  deps: HaggleDeps,
  playerId: string,
  sessionId: string,
): Promise<{ session: SessionView; product: ProductView; messages: MessageView[] }> {
  const { db } = deps.store;
  const session = await findOwnSession(db, { sessionId, playerId });
  if (session === undefined) throw notFound('Session');
  const [product, messages] = await Promise.all([
    productOf(db, session),
    listMessages(db, session.id),
  ]);
  return {
    session: sessionView(session),
    product: productView(product, deps.baseUrl),
    messages: messages.map(messageView),
  };
}

/**
 * Makes the deal at `priceCents`: closes the session, takes one unit of stock, charges the
 * player and records the transaction. Each step is a conditional update; any that finds the
 * state changed under it throws, and the caller's database transaction undoes the others.
 */
async function closeDeal(
  trx: Db,
  session: SessionRow,
  product: ProductRow,
  priceCents: number,
  at: string,
  changes: Partial<SessionRow>,
): Promise<{ session: SessionRow; transactionId: string }> {
  const closed = await advance(trx, session, {
    ...changes,
    status: 'accepted',
    final_price_cents: priceCents,
    ended_at: at,
  });
  if (!(await takeOneFromStock(trx, product.id, at))) throw outOfStock();
  const charged = await chargeForDeal(trx, {
    playerId: session.player_id,
    priceCents,
    marketCents: product.market_cents,
    now: at,
  });
  if (!charged) throw insufficientCredits();
  const transactionId = randomUUID();
  await insertTransaction(trx, {
    id: transactionId,
    player_id: session.player_id,
    product_id: product.id,
    session_id: session.id,
    quantity: 1,
    market_cents: product.market_cents,
    final_price_cents: priceCents,
    status: 'completed',
    created_at: at,
  });
  return { session: closed, transactionId };
}

async function advance(
  trx: Db,
  session: SessionRow,
  changes: Partial<SessionRow>,
): Promise<SessionRow> {
  const moved = await advanceSession(
    trx,
    { id: session.id, roundsCount: session.rounds_count },
    changes,
  );
  // Only a concurrent request on the same session can have moved it since we read it.
  if (!moved) throw sessionNotActive('already being changed by another request');
  return { ...session, ...changes };
}

async function activeOwnSession(
  trx: Db,
  deps: HaggleDeps,
  playerId: string,
  sessionId: string,
): Promise<SessionRow> {
  const session = await findOwnSession(trx, { sessionId, playerId }, deps.store.dialect);
  if (session === undefined) throw notFound('Session');
  if (session.status !== 'active') throw sessionNotActive(session.status);
  return session;
}

async function productOf(db: Db, session: SessionRow): Promise<ProductRow> {
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

/** The rounds played so far, rebuilt from the stored messages: each offer and the counter to it. */
function pastRounds(messages: MessageRow[]): PastRound[] {
  const rounds: PastRound[] = [];
  for (const row of messages) {
    if (row.round === 0 || row.offer_cents === null) continue;
    const index = row.round - 1;
    if (row.sender === 'player' && rounds[index] === undefined) {
      rounds[index] = { offerCents: row.offer_cents, counterCents: null };
    } else if (row.sender === 'seller' && rounds[index] !== undefined) {
      rounds[index] = { ...rounds[index], counterCents: row.offer_cents };
    }
  }
  return rounds;
}

/** Records what the player did outside an offer (accepting, walking away) after the last message. */
async function appendPlayerNote(
  trx: Db,
  session: SessionRow,
  text: string,
  offerCents: number | null,
  at: string,
): Promise<void> {
  const position = await nextMessagePosition(trx, session.id);
  await appendMessages(trx, [
    message(session.id, position, 'player', text, offerCents, session.rounds_count, at),
  ]);
}

function message(
  sessionId: string,
  position: number,
  sender: 'seller' | 'player',
  text: string,
  offerCents: number | null,
  round: number,
  at: string,
): MessageRow {
  return {
    id: randomUUID(),
    session_id: sessionId,
    position,
    sender,
    message: text,
    offer_cents: offerCents,
    round,
    created_at: at,
  };
}
