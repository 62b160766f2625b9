import { MAX_ROUNDS, Negotiation, type SellerContext } from '../../src/seller/index.js';

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

/**
 * The seller called directly: what `npm run tournament` uses unless given `--url`. It plays the
 * seller's decisions only; the words are checked by the seller's own tests.
 */
export class LocalGame implements Game {
  readonly opening: Opening;
  readonly #negotiation: Negotiation;
  #counter: number | null = null;
  #over = false;
  #price: number | null = null;

  constructor(readonly context: SellerContext) {
    this.opening = { marketCents: context.marketCents, openingAskCents: context.openingAskCents };
    this.#negotiation = new Negotiation(context);
  }

  /** The same as `offer`, without a promise: the search buyers play millions of rounds. */
  offerNow(cents: number): Reply {
    if (this.#over || this.#negotiation.round >= MAX_ROUNDS) throw new Error('the game is over');
    const reply = this.#negotiation.offer(cents);
    this.#counter = reply.counterCents;
    this.#over = reply.action !== 'counter';
    if (reply.action === 'accept') this.#price = cents;
    return {
      action: reply.action,
      counterCents: reply.counterCents,
      round: reply.round,
      ended: this.#over,
    };
  }

  offer(cents: number): Promise<Reply> {
    return Promise.resolve(this.offerNow(cents));
  }

  acceptNow(): boolean {
    if (this.#over || this.#counter === null) return false;
    this.#over = true;
    this.#price = this.#counter;
    return true;
  }

  accept(): Promise<boolean> {
    return Promise.resolve(this.acceptNow());
  }

  outcome(): Outcome {
    return { priceCents: this.#price, rounds: this.#negotiation.round };
  }
}
