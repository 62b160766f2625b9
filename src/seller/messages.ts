import { pick } from './hash.js';
import { formatCredits } from './money.js';
import {
  atLeastPercent,
  BIG_STEP_PERCENT,
  gapWord,
  MAX_ROUNDS,
  SCARCE_STOCK,
  type Intent,
  type Objection,
} from './rules.js';

export type { Intent } from './rules.js';
export type { Claim } from './phrases.js';
import { PHRASES, type Claim, type Phrase } from './phrases.js';
import { topicOf } from './topics.js';

export type Persona = 'friendly' | 'gruff' | 'formal';
export const PERSONAS: readonly Persona[] = ['friendly', 'gruff', 'formal'];

export const MAX_MESSAGE_LENGTH = 240;

/** The numbers a reply's words may speak of. The floor is deliberately not among them. */
export interface ReplyFacts {
  intent: Intent;
  round: number;
  roundsLeft: number;
  /** The price this reply stands for: the counter, the deal or the opening ask. */
  counterCents: number | null;
  dealCents: number | null;
  previousAskCents: number;
  final: boolean;
  moved: boolean;
  objection: Objection;
  strikesLeft: number | null;
}

interface WordsContext {
  sessionId: string;
  productName: string;
  productDescription?: string | undefined;
  demand?: 'low' | 'normal' | 'high' | undefined;
  stock?: number | undefined;
  marketCents: number;
}

/** Whether a claim is true of a reply to `offerCents`. */
export function claimHolds(
  claim: Claim,
  facts: ReplyFacts,
  offerCents: number,
  words: WordsContext & { spoke: boolean },
): boolean {
  const marketCents = words.marketCents;
  const counter = facts.counterCents;
  const gap = counter === null ? null : counter - offerCents;
  switch (claim) {
    case 'far':
      return gap !== null && gapWord(gap, marketCents) === 'far';
    case 'close':
      return gap !== null && gapWord(gap, marketCents) === 'close';
    case 'moved':
      return facts.moved;
    case 'stalled':
      return facts.objection === 'stall';
    case 'retreat':
      return facts.objection === 'retreat';
    case 'insult':
      return facts.objection === 'insult';
    case 'one_more_ends':
      return facts.strikesLeft === 1;
    case 'lower':
      return counter !== null && counter < facts.previousAskCents;
    case 'big_step':
      return (
        counter !== null &&
        atLeastPercent(facts.previousAskCents - counter, BIG_STEP_PERCENT, marketCents)
      );
    case 'hold':
      return counter !== null && counter === facts.previousAskCents;
    case 'final':
      return facts.final;
    case 'spoke':
      return words.spoke;
    case 'in_demand':
      return words.demand === 'high';
    case 'selling_fast':
      return words.demand === 'high' || (words.stock !== undefined && words.stock <= SCARCE_STOCK);
  }
}

const persona = (sessionId: string): Persona =>
  PERSONAS[pick(PERSONAS.length, sessionId, 'persona')] ?? 'friendly';

function shortName(name: string): string {
  return name.length <= 60 ? name : `${name.slice(0, 59)}…`;
}

interface Slot {
  text: string;
  required: boolean;
}

/**
 * Builds one message from slots, then its text with the prices filled in. `used` holds every
 * phrase this session has already chosen; a phrase is never chosen twice, and a phrase whose
 * claims do not hold is never chosen. Optional slots are dropped, last first, until the message
 * fits 240 characters.
 */
export class Composer {
  readonly slots: Slot[] = [];

  constructor(
    private readonly ctx: WordsContext,
    private readonly round: number,
    private readonly used: Set<string>,
    private readonly holds: (claim: Claim) => boolean,
  ) {}

  /** Whether an optional slot speaks this round: about `percent` of the time, by hash. */
  speaks(slot: string, percent: number): boolean {
    return pick(100, this.ctx.sessionId, slot, 'speaks', String(this.round)) < percent;
  }

  add(slot: string, phrases: readonly Phrase[], required: boolean): boolean {
    const fresh = phrases.filter((phrase) => this.#usable(phrase));
    if (fresh.length === 0) return false;
    const [text] = fresh[pick(fresh.length, this.ctx.sessionId, slot, String(this.round))] ??
      fresh[0] ?? [''];
    this.used.add(text);
    this.slots.push({ text, required });
    return true;
  }

  /** Not chosen before in this session, and every claim it makes holds. */
  #usable(phrase: Phrase): boolean {
    if (this.used.has(phrase[0])) return false;
    for (let i = 1; i < phrase.length; i++) if (!this.holds(phrase[i] as Claim)) return false;
    return true;
  }

  /** Words of the seller's own that are no phrase (an answer from the description). */
  addText(text: string, required: boolean): void {
    this.slots.push({ text, required });
  }

  text(fill: (template: string) => string): string {
    const kept = [...this.slots];
    const compose = () => kept.map((slot) => fill(slot.text)).join(' ');
    let message = compose();
    for (let i = kept.length - 1; message.length > MAX_MESSAGE_LENGTH && i >= 0; i--) {
      if (kept[i]?.required === false) {
        kept.splice(i, 1);
        message = compose();
      }
    }
    return message.length <= MAX_MESSAGE_LENGTH
      ? message
      : `${message.slice(0, MAX_MESSAGE_LENGTH - 1)}…`;
  }
}

function filler(
  ctx: WordsContext,
  priceCents: number | null,
  offerCents: number | null,
  roundsLeft: number,
) {
  return (template: string) =>
    template
      .replaceAll('{product}', shortName(ctx.productName))
      .replaceAll('{market}', formatCredits(ctx.marketCents))
      .replaceAll('{price}', priceCents === null ? '' : formatCredits(priceCents))
      .replaceAll('{offer}', offerCents === null ? '' : formatCredits(offerCents))
      .replaceAll('{n}', String(roundsLeft));
}

/**
 * The greeting's phrases, marked used in `used`. Replaying a negotiation needs only this: the
 * phrases a message used, not its text.
 */
export function greetingPhrases(ctx: WordsContext, used: Set<string>): Composer {
  const composer = new Composer(ctx, 0, used, () => true);
  if (composer.speaks('hello', 70))
    composer.add('hello', PHRASES.hello[persona(ctx.sessionId)], false);
  composer.add('greet', PHRASES.greet, true);
  if (composer.speaks('invite', 60)) composer.add('invite', PHRASES.invite, false);
  return composer;
}

/** The greeting: names the market price and the seller's opening ask. */
export function greetingMessage(
  ctx: WordsContext & { openingAskCents: number },
  used: Set<string>,
): string {
  return greetingPhrases(ctx, used).text(filler(ctx, ctx.openingAskCents, null, MAX_ROUNDS));
}

/**
 * The seller's words for one reply. Every price in it is formatted from the same cents as the
 * structured fields; the player's words choose an acknowledgement only.
 */
export function sellerMessage(
  ctx: WordsContext,
  facts: ReplyFacts,
  offerCents: number,
  playerMessage: string | null,
  used: Set<string>,
): string {
  const price = facts.counterCents ?? facts.dealCents;
  return replyPhrases(ctx, facts, offerCents, playerMessage, used).text(
    filler(ctx, price, offerCents, facts.roundsLeft),
  );
}

/** A counter's price statements: its intent's own, and (but for a final offer) the neutral ones. */
const withNeutral = (statements: readonly Phrase[]) => [...statements, ...PHRASES.neutral];
const COUNTER_STATEMENTS: Record<
  Exclude<keyof typeof PHRASES.statement, 'accept'>,
  readonly Phrase[]
> = {
  counter_small: withNeutral(PHRASES.statement.counter_small),
  counter_big: withNeutral(PHRASES.statement.counter_big),
  counter_hold: withNeutral(PHRASES.statement.counter_hold),
  insult_warning: withNeutral(PHRASES.statement.insult_warning),
  final_offer: PHRASES.statement.final_offer,
};

/** A reply's phrases (and its answer from the description), marked used in `used`. */
export function replyPhrases(
  ctx: WordsContext,
  facts: ReplyFacts,
  offerCents: number,
  playerMessage: string | null,
  used: Set<string>,
): Composer {
  const words = { ...ctx, spoke: playerMessage !== null && playerMessage.trim() !== '' };
  const composer = new Composer(ctx, facts.round, used, (claim) =>
    claimHolds(claim, facts, offerCents, words),
  );
  const style = persona(ctx.sessionId);
  const topic = topicOf(playerMessage);
  const answer =
    topic === 'question' && playerMessage !== null
      ? answerFromDescription(playerMessage, ctx.productDescription)
      : null;
  if (answer !== null) composer.addText(answer, false);
  else if (topic !== null) composer.add('ack', PHRASES.ack[topic], false);

  const intent = facts.intent;
  if (intent === 'greet') throw new Error('the greeting is built by greetingMessage');
  if (intent === 'accept') {
    composer.add('accept', PHRASES.statement.accept, true);
    return composer;
  }
  if (intent === 'reject_insult' || intent === 'reject_bad_faith' || intent === 'expired') {
    composer.add(intent, PHRASES.ending[intent], true);
    return composer;
  }

  const counter = facts.counterCents ?? 0;
  if (facts.objection === 'insult') {
    composer.add('insult', PHRASES.insult, true);
    composer.add('strike', PHRASES.strike, true);
  } else if (facts.objection === 'retreat') {
    composer.add('retreat', PHRASES.retreat, true);
    composer.add('strike', PHRASES.strike, true);
  } else {
    if (composer.speaks('opener', 45)) composer.add('opener', PHRASES.opener[style], false);
    if (composer.speaks('reaction', 50)) {
      composer.add(
        'reaction',
        PHRASES.reaction[gapWord(counter - offerCents, ctx.marketCents)],
        false,
      );
    }
    if (facts.round > 1 && composer.speaks('movement', 50)) {
      composer.add(
        'movement',
        facts.objection === 'stall' ? PHRASES.stalled : PHRASES.moved,
        false,
      );
    }
  }
  composer.add('statement', COUNTER_STATEMENTS[intent], true);
  if (composer.speaks('reason', 30)) composer.add('reason', PHRASES.reason, false);
  if (!facts.final && facts.roundsLeft <= 3 && composer.speaks('cue', 60)) {
    composer.add('cue', PHRASES.cue, false);
  }
  if (!facts.final && composer.speaks('closer', 45))
    composer.add('closer', PHRASES.closer[style], false);
  return composer;
}

const STOP_WORDS = new Set(
  "this that with have does what your about will would there their them from into made make much many when where which while these those than then they very just also been were some such only other more most like it's is are was the and for you can".split(
    ' ',
  ),
);

const wordsOf = (text: string): string[] =>
  (text.toLowerCase().match(/[a-z0-9]+/g) ?? [])
    .filter((word) => word.length >= 3 && !STOP_WORDS.has(word))
    .map((word) => (word.length > 4 ? word.replace(/s$/, '') : word));

/**
 * An answer to a question about the product from its own description: the sentence that shares
 * the most words with the question, or null when none does (then the seller only acknowledges).
 */
export function answerFromDescription(
  question: string,
  description: string | undefined,
): string | null {
  if (description === undefined) return null;
  const asked = new Set(wordsOf(question));
  let best: { sentence: string; shared: number } | null = null;
  for (const sentence of description.split(/(?<=[.!?])\s+/)) {
    const shared = new Set(wordsOf(sentence).filter((word) => asked.has(word))).size;
    if (shared > 0 && (best === null || shared > best.shared)) best = { sentence, shared };
  }
  if (best === null) return null;
  const sentence = best.sentence.replace(/[{}]/g, '').trim();
  const short = sentence.length <= 110 ? sentence : `${sentence.slice(0, 109).trimEnd()}…`;
  return `From its description: ${short}`;
}
