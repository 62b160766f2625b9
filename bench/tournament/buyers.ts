import { MAX_ROUNDS, movingStepCents } from '../../src/seller/index.js';
import type { Game } from './game.js';

/**
 * naive / exploit: scripts the seller must not lose money to (≤ 7 % discount or no deal).
 * reasonable: the buyers a good seller should deal with (≥ 85 % deals at 8–18 % discount).
 * constant: never move their offer (no deal above 12 % discount).
 * waiting: wait-then-jump and creepers (no more than the best reasonable buyer + 1 point).
 * other: further scripted styles, held to the general bar only.
 */
export type Group = 'naive' | 'exploit' | 'reasonable' | 'constant' | 'waiting' | 'other';

export interface Buyer {
  name: string;
  group: Group;
  play(game: Game): Promise<void>;
}

type Step = { offer: number } | 'accept' | 'stop';

interface Situation {
  round: number;
  market: number;
  openingAsk: number;
  /** The seller's latest counter, or null before the first. */
  counter: number | null;
  previousCounter: number | null;
  lastOffer: number | null;
}

/** Plays rounds until the script stops, accepts or the game ends. */
async function script(game: Game, next: (situation: Situation) => Step): Promise<void> {
  const situation: Situation = {
    round: 1,
    market: game.opening.marketCents,
    openingAsk: game.opening.openingAskCents,
    counter: null,
    previousCounter: null,
    lastOffer: null,
  };
  while (situation.round <= MAX_ROUNDS) {
    const step = next(situation);
    if (step === 'stop') return;
    if (step === 'accept') {
      await game.accept();
      return;
    }
    const offer = Math.max(1, Math.round(step.offer));
    const reply = await game.offer(offer);
    if (reply.ended) return;
    situation.previousCounter = situation.counter;
    situation.counter = reply.counterCents;
    situation.lastOffer = offer;
    situation.round += 1;
  }
}

const ask = (s: Situation) => s.counter ?? s.openingAsk;

/**
 * A buyer whose offers follow lo → hi of the market price along t^exponent, who takes the
 * seller's counter as soon as it is no more than what it would offer next (AC_next), and takes
 * a final counter at or below market rather than leave empty-handed.
 */
export function polynomialBuyer(
  name: string,
  group: Group,
  lo: number,
  hi: number,
  exponent: number,
): Buyer {
  const planned = (s: Situation) => {
    const t = (s.round - 1) / (MAX_ROUNDS - 1);
    return s.market * (lo + (hi - lo) * t ** exponent);
  };
  return {
    name,
    group,
    play: (game) =>
      script(game, (s) => {
        const offer = planned(s);
        if (
          s.counter !== null &&
          (s.counter <= offer || (s.round === MAX_ROUNDS && s.counter <= s.market))
        ) {
          return 'accept';
        }
        return offer >= ask(s) ? { offer: ask(s) } : { offer };
      }),
  };
}

/** Offers `fraction` of market every round; takes a counter at or below that. */
function fixedBuyer(name: string, group: Group, fraction: number): Buyer {
  return {
    name,
    group,
    play: (game) =>
      script(game, (s) => {
        const offer = s.market * fraction;
        if (s.counter !== null && s.counter <= offer) return 'accept';
        return { offer: Math.min(offer, ask(s)) };
      }),
  };
}

/** Creeps up from a low start by 1 % of market a round and takes the counter after k offers. */
function lowCreepThenAccept(k: number): Buyer {
  return {
    name: `low-creep-accept@${k}`,
    group: 'exploit',
    play: (game) =>
      script(game, (s) => {
        if (s.round > k) return 'accept';
        return { offer: s.market * (0.45 + 0.01 * (s.round - 1)) };
      }),
  };
}

/** Whether to take the seller's final counter (round 9's, the last) rather than leave. */
const takesFinal = (s: Situation) =>
  s.round === MAX_ROUNDS && s.counter !== null && s.counter <= s.market;

/** Offers `percent` % of market in every round; takes round 9's final counter at or below market. */
function constantBuyer(percent: number): Buyer {
  return {
    name: `constant-${percent}%`,
    group: 'constant',
    play: (game) =>
      script(game, (s) => {
        if (takesFinal(s)) return 'accept';
        return { offer: Math.min((s.market * percent) / 100, ask(s)) };
      }),
  };
}

/**
 * Holds 55 % of market, then from round `round` on offers `percent` % (the jump); takes a
 * counter at or below its offer, or round 9's final counter at or below market.
 */
function waitThenJump(round: number, percent: number): Buyer {
  return {
    name: `wait-jump@${round}→${percent}%`,
    group: 'waiting',
    play: (game) =>
      script(game, (s) => {
        const offer = s.market * (s.round < round ? 0.55 : percent / 100);
        if (s.counter !== null && (s.counter <= offer || takesFinal(s))) return 'accept';
        return { offer: Math.min(offer, ask(s)) };
      }),
  };
}

/** Starts at `percent` % and raises by one cent more than the smallest step the seller counts. */
function creeper(percent: number): Buyer {
  return {
    name: `creeper-from-${percent}%`,
    group: 'waiting',
    play: (game) =>
      script(game, (s) => {
        const offer =
          s.lastOffer === null
            ? (s.market * percent) / 100
            : s.lastOffer + movingStepCents(s.market) + 1;
        if (s.counter !== null && (s.counter <= offer || takesFinal(s))) return 'accept';
        return { offer: Math.min(offer, ask(s)) };
      }),
  };
}

/** The linear buyer, but once, in round `round`, it offers 5 % of market less than before. */
function retreatOnce(round: number): Buyer {
  const linear = (r: number, market: number) => market * (0.6 + (0.3 * (r - 1)) / (MAX_ROUNDS - 1));
  return {
    name: `retreat-once@${round}`,
    group: 'other',
    play: (game) =>
      script(game, (s) => {
        const offer =
          s.round === round && s.lastOffer !== null
            ? s.lastOffer - s.market * 0.05
            : linear(s.round, s.market);
        if (s.counter !== null && (s.counter <= offer || takesFinal(s))) return 'accept';
        return { offer: Math.min(offer, ask(s)) };
      }),
  };
}

export const scriptedBuyers: readonly Buyer[] = [
  {
    name: 'accept-the-ask',
    group: 'naive',
    play: (game) => script(game, (s) => (s.round === 1 ? { offer: s.openingAsk } : 'stop')),
  },
  {
    name: 'ask-minus-a-cent',
    group: 'naive',
    play: (game) => script(game, (s) => ({ offer: ask(s) - 1 })),
  },
  fixedBuyer('lowball-and-wait', 'exploit', 0.5),
  {
    name: 'creep-from-1-credit',
    group: 'exploit',
    play: (game) => script(game, (s) => ({ offer: 100 * s.round })),
  },
  {
    name: 'split-the-difference',
    group: 'exploit',
    play: (game) =>
      script(game, (s) => {
        if (s.lastOffer === null || s.counter === null) return { offer: s.market * 0.5 };
        if (s.counter - s.lastOffer <= s.market / 100) return 'accept';
        return { offer: Math.ceil((s.lastOffer + s.counter) / 2) };
      }),
  },
  ...Array.from({ length: 10 }, (_, i) => lowCreepThenAccept(i + 1)),
  fixedBuyer('fixed-90%', 'reasonable', 0.9),
  polynomialBuyer('linear-60-90%', 'reasonable', 0.6, 0.9, 1),
  polynomialBuyer('boulware-buyer', 'reasonable', 0.6, 0.9, 3),
  polynomialBuyer('conceder-buyer', 'reasonable', 0.6, 0.9, 1 / 3),
  {
    name: 'mirror',
    group: 'other',
    play: (game) =>
      script(game, (s) => {
        if (s.lastOffer === null) return { offer: s.market * 0.6 };
        const concession = (s.previousCounter ?? s.openingAsk) - ask(s);
        const offer = s.lastOffer + Math.max(concession, s.market / 200);
        if (ask(s) <= offer || (s.round === MAX_ROUNDS && ask(s) <= s.market)) return 'accept';
        return { offer };
      }),
  },
  {
    name: 'late-jump',
    group: 'other',
    play: (game) =>
      script(game, (s) => {
        if (s.round <= 8) return { offer: s.market * 0.55 };
        if (s.counter !== null && s.counter <= s.market * 0.9) return 'accept';
        return { offer: Math.min(ask(s), s.market * (s.round === 9 ? 0.85 : 0.9)) };
      }),
  },
  ...Array.from({ length: 9 }, (_, i) => constantBuyer(55 + 5 * i)),
  ...[7, 8, 9, 10].flatMap((round) =>
    Array.from({ length: 9 }, (_, i) => waitThenJump(round, 60 + 5 * i)),
  ),
  ...[45, 55, 65, 75, 85].map(creeper),
  ...[3, 5, 7].map(retreatOnce),
];

/** The polynomial buyers the grid optimiser chooses among. */
export function gridBuyers(coarse: boolean): Buyer[] {
  const los = coarse ? [0.5, 0.6, 0.7] : [0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8];
  const his = coarse ? [0.8, 0.9, 1] : [0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 1];
  const exponents = coarse ? [0.5, 1, 3] : [1 / 3, 0.5, 1, 2, 3];
  const buyers: Buyer[] = [];
  for (const lo of los)
    for (const hi of his)
      for (const exponent of exponents)
        if (hi >= lo)
          buyers.push(
            polynomialBuyer(`grid(${lo},${hi},${exponent.toFixed(2)})`, 'other', lo, hi, exponent),
          );
  return buyers;
}
