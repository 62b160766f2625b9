import {
  MAX_ROUNDS,
  openingMessage,
  respondToOffer,
  type PastRound,
  type SellerContext,
} from '../../src/seller/index.js';

/** What a buyer sees when a negotiation opens. */
export interface Opening {
  marketCents: number;
  openingAskCents: number;
}

export interface Reply {
  action: 'accept' | 'counter' | 'reject';
  counterCents: number | null;
  round: number;
  /** The negotiation is over (deal, rejection or expiry). */
  ended: boolean;
}

/** One negotiation as a buyer plays it, in-process or over HTTP. */
export interface Game {
  readonly opening: Opening;
  offer(cents: number): Promise<Reply>;
  /** Takes the seller's latest counter; false if there is none or the game is over. */
  accept(): Promise<boolean>;
}

/** How a game ended, recorded by the game itself so that buyers cannot misreport. */
export interface Outcome {
  priceCents: number | null;
  rounds: number;
}

/** The seller called directly: what `npm run tournament` uses unless given `--url`. */
export class LocalGame implements Game {
  readonly opening: Opening;
  readonly #history: PastRound[] = [];
  #over = false;
  #price: number | null = null;

  constructor(readonly context: SellerContext) {
    this.opening = { marketCents: context.marketCents, openingAskCents: context.openingAskCents };
    openingMessage(context);
  }

  offer(cents: number): Promise<Reply> {
    if (this.#over || this.#history.length >= MAX_ROUNDS) throw new Error('the game is over');
    const reply = respondToOffer(this.context, this.#history, cents);
    this.#history.push({ offerCents: cents, counterCents: reply.counterCents });
    this.#over = reply.action !== 'counter';
    if (reply.action === 'accept') this.#price = cents;
    return Promise.resolve({
      action: reply.action,
      counterCents: reply.counterCents,
      round: reply.round,
      ended: this.#over,
    });
  }

  accept(): Promise<boolean> {
    const counter = this.#history.at(-1)?.counterCents ?? null;
    if (this.#over || counter === null) return Promise.resolve(false);
    this.#over = true;
    this.#price = counter;
    return Promise.resolve(true);
  }

  outcome(): Outcome {
    return { priceCents: this.#price, rounds: this.#history.length };
  }
}
