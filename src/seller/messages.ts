import { pick } from './hash.js';
import { formatCredits } from './money.js';
import {
  atLeastPercent,
  BIG_STEP_PERCENT,
  gapWord,
  MAX_ROUNDS,
  type GapWord,
  type Intent,
  type Objection,
} from './rules.js';

export type { Intent } from './rules.js';
import { topicOf, type Topic } from './topics.js';

export type Persona = 'friendly' | 'gruff' | 'formal';
export const PERSONAS: readonly Persona[] = ['friendly', 'gruff', 'formal'];

export const MAX_MESSAGE_LENGTH = 240;

/**
 * Claims a phrase makes about the numbers. A phrase with a claim is used only when the claim
 * holds (see `claimHolds`), so no message says something its own numbers contradict.
 */
export type Claim =
  | 'far' // the counter is far above the offer (`gapWord`)
  | 'close' // the counter is close above the offer (`gapWord`)
  | 'moved' // the offer raised the buyer's best by the counted step
  | 'stalled' // the offer earned nothing: no raise, below the fair line
  | 'retreat' // the offer is below the buyer's previous one
  | 'insult' // the offer is below the insult line
  | 'one_more_ends' // one more insult or retreat ends the negotiation
  | 'lower' // the counter is below the previous ask
  | 'big_step' // the counter is `BIG_STEP_PERCENT` of market or more below the previous ask
  | 'hold' // the counter equals the previous ask
  | 'final'; // this counter is round 9's, the last; or the reply ends the negotiation

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
  marketCents: number;
}

/** Whether a claim is true of a reply to `offerCents`. */
export function claimHolds(
  claim: Claim,
  facts: ReplyFacts,
  offerCents: number,
  marketCents: number,
): boolean {
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
  }
}

/** A phrase and the claims it makes; `{price}`, `{offer}`, `{market}`, `{product}`, `{n}` are filled in. */
type Phrase = readonly [text: string, ...claims: Claim[]];

const HELLOS: Record<Persona, readonly Phrase[]> = {
  friendly: [['Hi there!'], ['Welcome in!'], ['Hello, friend.'], ['Good to see you.'], ['Hey!']],
  gruff: [['Yes?'], ['Right.'], ['Morning.'], ['Come in, then.'], ['Go on then.']],
  formal: [
    ['Good day.'],
    ['Welcome.'],
    ['Good afternoon.'],
    ['Thank you for stopping by.'],
    ['Greetings.'],
  ],
};

const GREETINGS: readonly Phrase[] = [
  ['{product} sells for {market} on the market; I am asking {price}.'],
  ['{product}: market price {market}, my asking price {price}.'],
  ['{product} goes for {market} on the market. I will start at {price}.'],
  ['You are looking at {product}. Market price is {market}; mine is {price}.'],
  ['{product}, then. It is worth {market} on the market, and I ask {price}.'],
  ['{product} lists at {market} on the market; I want {price}.'],
];

const INVITES: readonly Phrase[] = [
  ['Make me an offer.'],
  ['What would you pay?'],
  ['Your offer?'],
  ['Name your price.'],
  ['What did you have in mind?'],
  ['Tell me what you are thinking.'],
  ['Go ahead, make an offer.'],
];

const OPENERS: Record<Persona, readonly Phrase[]> = {
  friendly: [
    ['Thanks for the offer.'],
    ['Alright, let me think.'],
    ['Okay, I hear you.'],
    ['Let me see here.'],
    ['Fair enough.'],
    ['I like that you are talking.'],
    ['Ah, you drive a bargain.'],
    ['Mm, let me see.'],
  ],
  gruff: [
    ['Look.'],
    ['Listen.'],
    ['Hm.'],
    ['Well.'],
    ['So.'],
    ['Right then.'],
    ['Fine.'],
    ['Okay.'],
  ],
  formal: [
    ['Thank you for your offer.'],
    ['I have considered your proposal.'],
    ['Noted.'],
    ['I see.'],
    ['Understood.'],
    ['Let me respond.'],
    ['Very well.'],
    ['I appreciate the offer.'],
  ],
};

/** The reaction to how far apart the two prices are; each bucket's claim is its condition. */
const REACTIONS: Record<GapWord, readonly Phrase[]> = {
  far: [
    ['We are far apart.', 'far'],
    ['That is a long way from my price.', 'far'],
    ['I cannot go anywhere near that.', 'far'],
    ['There is a big gap between us.', 'far'],
    ['You are far below what I can do.', 'far'],
    ['That is miles off.', 'far'],
    ['We are worlds apart.', 'far'],
    ['There is a wide gap between us.', 'far'],
    ['That is miles below my price.', 'far'],
    ['We are a long way apart.', 'far'],
    ['That offer is far from my price.', 'far'],
    ['You are a long way short.', 'far'],
  ],
  apart: [
    ['Still too low.'],
    ['That is below what I can do.'],
    ['I need more than that.'],
    ['Not enough, I am afraid.'],
    ['That will not do yet.'],
    ['You will have to do better.'],
  ],
  nearer: [
    ['That is a serious offer.'],
    ['Now we are talking.'],
    ['I can work with that.'],
    ['That is more like it.'],
    ['We are getting somewhere.'],
    ['That is a proper offer.'],
  ],
  close: [
    ['We are close.', 'close'],
    ['Almost there.', 'close'],
    ['Only a little between us now.', 'close'],
    ['So close.', 'close'],
    ['We are nearly there.', 'close'],
    ['Just a small gap left.', 'close'],
  ],
};

const MOVED: readonly Phrase[] = [
  ['I see you moving.', 'moved'],
  ['Thanks for coming up.', 'moved'],
  ['That is progress.', 'moved'],
  ['Good, you raised your offer.', 'moved'],
  ['You came up, so I will too.', 'moved', 'lower'],
  ['A step up from you.', 'moved'],
  ['Moving in the right direction.', 'moved'],
  ['You are raising; I notice.', 'moved'],
  ['That is a better offer than before.', 'moved'],
  ['Progress on your side.', 'moved'],
];

const STALLED: readonly Phrase[] = [
  ['You have not moved.', 'stalled'],
  ['That is no higher than before.', 'stalled'],
  ['Repeating yourself will not help.', 'stalled'],
  ['Waiting will not lower my price.', 'stalled'],
  ['Offering the same again gets you nowhere.', 'stalled'],
  ['The same offer gets the same answer.', 'stalled'],
  ['Standing still earns nothing here.', 'stalled'],
  ['No raise, no discount.', 'stalled'],
  ['You are not moving, so neither am I.', 'stalled'],
  ['Holding still will not move me.', 'stalled'],
];

const RETREAT_WARNINGS: readonly Phrase[] = [
  ['That is lower than your last offer.', 'retreat'],
  ['You went backwards.', 'retreat'],
  ['Going down is not how this works.', 'retreat'],
  ['Your offer dropped.', 'retreat'],
  ['That is less than you offered before.', 'retreat'],
  ['Backwards? Really?', 'retreat'],
];

const INSULT_WARNINGS: readonly Phrase[] = [
  ['{offer} is an insult.', 'insult'],
  ['{offer}? That is insulting.', 'insult'],
  ['An offer of {offer} is not serious; it is an insult.', 'insult'],
  ['{offer} for this? That is an insult.', 'insult'],
  ['I take {offer} as an insult.', 'insult'],
  ['You offer {offer}? Insulting.', 'insult'],
];

const LAST_STRIKE: readonly Phrase[] = [
  ['Once more and I end this.', 'one_more_ends'],
  ['Do that again and we are done.', 'one_more_ends'],
  ['One more like that and I walk away.', 'one_more_ends'],
  ['Another like it ends the talk.', 'one_more_ends'],
  ['Next time I stop talking.', 'one_more_ends'],
  ['That was your one warning.', 'one_more_ends'],
];

const REASONS: readonly Phrase[] = [
  ['There is real demand for this one.'],
  ['It is worth every credit.'],
  ['Others have asked about it.'],
  ['It will not sit on the shelf long.'],
  ['You will not regret it.'],
  ['It is a good piece.'],
  ['I stand behind what I sell.'],
  ['It is in fine shape.'],
  ['People come back for these.'],
  ['It sells well.'],
  ['I know what it is worth.'],
  ['It is one of my better items.'],
];

/** Price statements: they carry the number of the structured field. */
const STATEMENTS: Record<
  Exclude<Intent, 'greet' | 'reject_insult' | 'reject_bad_faith' | 'expired'>,
  readonly Phrase[]
> = {
  counter_small: [
    ['I can come down to {price}.', 'lower'],
    ['I can lower it to {price}.', 'lower'],
    ['I will go down to {price}.', 'lower'],
    ['Down to {price}, then.', 'lower'],
    ['A little lower: {price}.', 'lower'],
    ['I will drop to {price}.', 'lower'],
    ['I can shave it to {price}.', 'lower'],
    ['Let me come down to {price}.', 'lower'],
  ],
  counter_big: [
    ['I will make a real move: {price}.', 'lower', 'big_step'],
    ['A big step down for you: {price}.', 'lower', 'big_step'],
    ['I will come down a good way, to {price}.', 'lower', 'big_step'],
    ['That earns a real drop: {price}.', 'lower', 'big_step'],
    ['I will cut it right down to {price}.', 'lower', 'big_step'],
    ['A proper drop: {price}.', 'lower', 'big_step'],
  ],
  counter_hold: [
    ['My price stays at {price}.', 'hold'],
    ['I am holding at {price}.', 'hold'],
    ['It remains {price}.', 'hold'],
    ['{price} stands.', 'hold'],
    ['The price is unchanged: {price}.', 'hold'],
    ['I stay at {price}.', 'hold'],
    ['Still at {price}.', 'hold'],
    ['{price}, same as before.', 'hold'],
  ],
  insult_warning: [
    ['My price stays {price}.', 'hold'],
    ['I am still at {price}.', 'hold'],
    ['The price is still {price}.', 'hold'],
    ['It is {price}, as before.', 'hold'],
    ['Unchanged: {price}.', 'hold'],
    ['My ask is still {price}.', 'hold'],
  ],
  final_offer: [
    ['{price} is my final offer.', 'final'],
    ['My last offer: {price}.', 'final'],
    ['Final price: {price}. I will not go lower.', 'final'],
    ['This is my final offer: {price}.', 'final'],
    ['{price}, and that is final.', 'final'],
    ['Last word: {price}. Take it or leave it.', 'final'],
    ['{price}. That is final; next round I take only that or more.', 'final'],
  ],
  accept: [
    ['Deal at {price}! Enjoy it.'],
    ['Agreed: {price}. It is yours.'],
    ['You have a deal at {price}.'],
    ['{price} it is. Pleasure doing business.'],
    ['Accepted at {price}. Thank you for your business.'],
    ['Sold, for {price}.'],
    ['{price}, done. Enjoy.'],
    ['Done at {price}. Good doing business with you.'],
  ],
};

/** Counter statements that claim nothing about the move: any counter may use them. */
const NEUTRAL_COUNTERS: readonly Phrase[] = [
  ['My price: {price}.'],
  ['{price} is what I ask now.'],
  ['I can do {price}.'],
  ['How about {price}?'],
  ['Let us say {price}.'],
  ['{price} is my price now.'],
  ['For you: {price}.'],
  ['The price is {price} now.'],
  ['You can have it for {price}.'],
  ['Call it {price}.'],
];

const ENDINGS: Record<'reject_insult' | 'reject_bad_faith' | 'expired', readonly Phrase[]> = {
  reject_insult: [
    ['Two insulting offers. I am done here.', 'insult'],
    ['I warned you. This negotiation is over.', 'final'],
    ['Another insult. Goodbye.', 'insult'],
    ['That is it. I will not sell to you at these prices.', 'final'],
    ['Enough. We are finished.', 'final'],
    ['Insulted twice. Goodbye to you.', 'insult'],
  ],
  reject_bad_faith: [
    ['You keep going backwards. This negotiation is over.', 'retreat'],
    ['Lowering your offer again? I am done.', 'retreat'],
    ['That is bad faith. Goodbye.', 'final'],
    ['Twice you went back on your offer. We are finished.', 'retreat'],
    ['I cannot deal with someone who keeps retreating. Farewell.', 'retreat'],
    ['Backwards again. We are done.', 'retreat'],
  ],
  expired: [
    ['That was the last round and we did not agree. Maybe next time.', 'final'],
    ['Out of rounds, and no deal. Good luck.', 'final'],
    ['We ran out of rounds. The negotiation has ended.', 'final'],
    [`No deal in ${MAX_ROUNDS} rounds. Goodbye for now.`, 'final'],
    ['That was your last offer, and it is not enough. This one is over.', 'final'],
    ['Time is up and we did not meet. Farewell.', 'final'],
  ],
};

const ROUND_CUES: readonly Phrase[] = [
  ['Rounds left: {n}.'],
  ['We have {n} rounds left.'],
  ['Only {n} rounds to go.'],
  ['{n} more rounds after this.'],
  ['Mind the clock: {n} rounds left.'],
  ['Just {n} rounds remain.'],
];

const CLOSERS: Record<Persona, readonly Phrase[]> = {
  friendly: [
    ['What do you say?'],
    ['Your move!'],
    ['Shall we?'],
    ['Let me know.'],
    ['How does that sound?'],
    ['Over to you.'],
    ['Think about it.'],
    ['Tempted?'],
  ],
  gruff: [
    ['Your call.'],
    ['Think it over.'],
    ['Up to you.'],
    ['Well?'],
    ['Decide.'],
    ['Go on.'],
    ['Your turn.'],
    ['Make up your mind.'],
  ],
  formal: [
    ['I look forward to your reply.'],
    ['Please let me know.'],
    ['The choice is yours.'],
    ['I await your answer.'],
    ['Do consider it.'],
    ['I trust you will consider it.'],
    ['Your reply, please.'],
    ['At your convenience.'],
  ],
};

/** Acknowledgements of what the player wrote, by topic; none of them promises a price. */
const ACKNOWLEDGEMENTS: Record<Topic, readonly Phrase[]> = {
  walk_away: [
    ['Walk if you must; talking is free.'],
    ['Leaving is your right.'],
    ['If you go, you go.'],
    ['Walking away will not change my numbers.'],
    ['The door is there if you want it.'],
  ],
  limit: [
    ['You say that is your limit.'],
    ['Everyone has a limit; offers move me, words do not.'],
    ['I hear that is as high as you go.'],
    ['Your limit, you say.'],
    ['That is your ceiling, then.'],
  ],
  budget: [
    ['I hear you on the budget.'],
    ['Money is tight for everyone.'],
    ['I know budgets are small.'],
    ['Your budget is your business; my price is mine.'],
    ['A tight budget, I understand.'],
  ],
  student: [
    ['A student, you say.'],
    ['Studying is not cheap, I know.'],
    ['Good luck with your studies.'],
    ['Students get my respect, if not a special price.'],
    ['I was a student once too.'],
  ],
  complaint: [
    ['You think it is expensive.'],
    ['Too dear for you, I hear.'],
    ['Quality has its price.'],
    ['I know it is not cheap.'],
    ['Pricey, you say.'],
  ],
  compliment: [
    ['Kind of you to say.'],
    ['Thank you, I think so too.'],
    ['Glad you like it.'],
    ['You have a good eye.'],
    ['Flattery is welcome, though it pays nothing.'],
  ],
  question: [
    ['Good question; my answer is in the numbers.'],
    ['You ask; my price answers.'],
    ['Fair question.'],
    ['Let my price answer that.'],
    ['Questions are welcome; the rules are public.'],
  ],
};

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
 * Builds one message from slots. `used` holds every phrase this session has already chosen; a
 * phrase is never chosen twice, and a phrase whose claims do not hold is never chosen. Optional
 * slots are dropped, last first, until the message fits 240 characters.
 */
class Composer {
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
    const fresh = phrases.filter(
      ([text, ...claims]) => !this.used.has(text) && claims.every((claim) => this.holds(claim)),
    );
    if (fresh.length === 0) return false;
    const [text] = fresh[pick(fresh.length, this.ctx.sessionId, slot, String(this.round))] ??
      fresh[0] ?? [''];
    this.used.add(text);
    this.slots.push({ text, required });
    return true;
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

/** The greeting: names the market price and the seller's opening ask. */
export function greetingMessage(
  ctx: WordsContext & { openingAskCents: number },
  used: Set<string>,
): string {
  const composer = new Composer(ctx, 0, used, () => true);
  if (composer.speaks('hello', 70)) composer.add('hello', HELLOS[persona(ctx.sessionId)], false);
  composer.add('greet', GREETINGS, true);
  if (composer.speaks('invite', 60)) composer.add('invite', INVITES, false);
  return composer.text(filler(ctx, ctx.openingAskCents, null, MAX_ROUNDS));
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
  const composer = new Composer(ctx, facts.round, used, (claim) =>
    claimHolds(claim, facts, offerCents, ctx.marketCents),
  );
  const style = persona(ctx.sessionId);
  const topic = topicOf(playerMessage);
  if (topic !== null) composer.add('ack', ACKNOWLEDGEMENTS[topic], false);

  const price = facts.counterCents ?? facts.dealCents;
  const fill = filler(ctx, price, offerCents, facts.roundsLeft);
  const intent = facts.intent;
  if (intent === 'greet') throw new Error('the greeting is built by greetingMessage');
  if (intent === 'accept') {
    composer.add('accept', STATEMENTS.accept, true);
    return composer.text(fill);
  }
  if (intent === 'reject_insult' || intent === 'reject_bad_faith' || intent === 'expired') {
    composer.add(intent, ENDINGS[intent], true);
    return composer.text(fill);
  }

  const counter = facts.counterCents ?? 0;
  if (facts.objection === 'insult') {
    composer.add('insult', INSULT_WARNINGS, true);
    composer.add('strike', LAST_STRIKE, true);
  } else if (facts.objection === 'retreat') {
    composer.add('retreat', RETREAT_WARNINGS, true);
    composer.add('strike', LAST_STRIKE, true);
  } else {
    if (composer.speaks('opener', 45)) composer.add('opener', OPENERS[style], false);
    if (composer.speaks('reaction', 50)) {
      composer.add('reaction', REACTIONS[gapWord(counter - offerCents, ctx.marketCents)], false);
    }
    if (facts.round > 1 && composer.speaks('movement', 50)) {
      composer.add('movement', facts.objection === 'stall' ? STALLED : MOVED, false);
    }
  }
  const statements = STATEMENTS[intent];
  composer.add(
    'statement',
    intent === 'final_offer' ? statements : [...statements, ...NEUTRAL_COUNTERS],
    true,
  );
  if (composer.speaks('reason', 30)) composer.add('reason', REASONS, false);
  if (!facts.final && facts.roundsLeft <= 3 && composer.speaks('cue', 60)) {
    composer.add('cue', ROUND_CUES, false);
  }
  if (!facts.final && composer.speaks('closer', 45)) composer.add('closer', CLOSERS[style], false);
  return composer.text(fill);
}

/** Every phrase the seller can say, with its slot, for the frequency report and the tests. */
export function allPhrases(): { slot: string; text: string; claims: Claim[]; price: boolean }[] {
  const rows: { slot: string; text: string; claims: Claim[]; price: boolean }[] = [];
  const add = (slot: string, phrases: readonly Phrase[]) => {
    for (const [text, ...claims] of phrases)
      rows.push({ slot, text, claims, price: /\{(price|market|offer)\}/.test(text) });
  };
  for (const style of PERSONAS) {
    add(`hello/${style}`, HELLOS[style]);
    add(`opener/${style}`, OPENERS[style]);
    add(`closer/${style}`, CLOSERS[style]);
  }
  add('greet', GREETINGS);
  add('invite', INVITES);
  for (const [bucket, phrases] of Object.entries(REACTIONS)) add(`reaction/${bucket}`, phrases);
  add('moved', MOVED);
  add('stalled', STALLED);
  add('retreat', RETREAT_WARNINGS);
  add('insult', INSULT_WARNINGS);
  add('strike', LAST_STRIKE);
  add('reason', REASONS);
  for (const [intent, phrases] of Object.entries(STATEMENTS)) add(intent, phrases);
  add('neutral', NEUTRAL_COUNTERS);
  for (const [intent, phrases] of Object.entries(ENDINGS)) add(intent, phrases);
  add('cue', ROUND_CUES);
  for (const [topic, phrases] of Object.entries(ACKNOWLEDGEMENTS)) add(`ack/${topic}`, phrases);
  return rows;
}
