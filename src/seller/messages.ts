import { pick } from './hash.js';
import { formatCredits } from './money.js';

/** What the seller means to say; the words are chosen per session from the variants below. */
export type Intent =
  | 'greet'
  | 'counter_small'
  | 'counter_big'
  | 'counter_freeze'
  | 'insult_warning'
  | 'closing_split'
  | 'final_offer'
  | 'accept'
  | 'reject_insult'
  | 'reject_bad_faith'
  | 'expired';

type Persona = 'friendly' | 'gruff' | 'formal';
const PERSONAS: readonly Persona[] = ['friendly', 'gruff', 'formal'];

export const MAX_MESSAGE_LENGTH = 240;

/** The facts a message may state. The floor is deliberately not among them. */
export interface MessageFacts {
  round: number;
  offerCents: number | null;
  /** The price this reply stands for: the counter, the deal or the opening ask. */
  priceCents: number | null;
  moved: boolean;
  roundsLeft: number;
}

interface Context {
  sessionId: string;
  productName: string;
  marketCents: number;
}

const OPENERS: Record<Persona, readonly string[]> = {
  friendly: [
    'Thanks for the offer!',
    'Ah, good to hear from you.',
    'Alright, let me see.',
    'Hmm, okay.',
    'Nice try!',
  ],
  gruff: ['Look.', 'Right.', 'Listen.', 'Hm.', 'Well.'],
  formal: [
    'Thank you for your offer.',
    'I have considered your proposal.',
    'Noted.',
    'Thank you.',
    'I see.',
  ],
};

const CLOSERS: Record<Persona, readonly string[]> = {
  friendly: [
    'What do you say?',
    'Your move!',
    'Shall we?',
    'I think that is fair.',
    'Let me know.',
  ],
  gruff: [
    'Take it or leave it.',
    'Your call.',
    'That is how it is.',
    'Think it over.',
    'Up to you.',
  ],
  formal: [
    'I look forward to your reply.',
    'Please let me know.',
    'I trust that is acceptable.',
    'The choice is yours.',
    'Kind regards.',
  ],
};

/** Reaction to the offer, by how it compares to the market price. */
const REACTIONS: Record<'way_low' | 'low' | 'getting_there' | 'close', readonly string[]> = {
  way_low: [
    'That is far too low.',
    'That is a long way off.',
    'I cannot go anywhere near that.',
    'That barely covers my costs.',
    'We are far apart.',
  ],
  low: [
    'Still too low.',
    'That is below what I can do.',
    'Not quite enough.',
    'I need more than that.',
    'That is on the low side.',
  ],
  getting_there: [
    'Now we are getting somewhere.',
    'That is closer.',
    'We are not far apart now.',
    'Better.',
    'That is a reasonable offer.',
  ],
  close: [
    'We are very close.',
    'Almost there.',
    'That is nearly it.',
    'So close.',
    'Just a little more.',
  ],
};

const MOVEMENT: Record<'moved' | 'stalled', readonly string[]> = {
  moved: [
    'I appreciate you moving.',
    'Thanks for coming up.',
    'Good, you are moving.',
    'That is progress.',
    'I see you are serious.',
  ],
  stalled: [
    'You have not moved.',
    'That is the same offer again.',
    'Repeating yourself will not help.',
    'Waiting will not lower my price.',
    'Give me something new.',
  ],
};

const REASONS: readonly string[] = [
  'There is real demand for this one.',
  'It is worth every credit.',
  'Quality like this is hard to find.',
  'I have little margin on it.',
  'Others have asked about it.',
];

/** The part that carries the price; {price} is the structured field's value. */
const STATEMENTS: Record<Intent, readonly string[]> = {
  greet: [
    'Welcome! {product} sells for {market} on the market; I am asking {price}.',
    'Hello. {product}: market price {market}, my asking price {price}.',
    'Good day. {product} goes for {market} on the market. I will start at {price}.',
    'Interested in {product}? Market price is {market}; you can have it for {price}.',
    '{product}, then. It is worth {market} on the market, and my price is {price}.',
  ],
  counter_small: [
    'I can come down to {price}.',
    'I can do {price}.',
    'How about {price}?',
    'Let us say {price}.',
    'My price is now {price}.',
    '{price} is what I can offer.',
    'I will go to {price}.',
  ],
  counter_big: [
    'For you, {price}.',
    'I will make a real move: {price}.',
    'I can drop to {price}.',
    'Fine, {price}.',
    'I will come down to {price}, a good step.',
    'Let us try {price}.',
    'You can have it for {price}.',
  ],
  counter_freeze: [
    'My price stays at {price}.',
    'I am holding at {price}.',
    'It is still {price}.',
    '{price} stands.',
    'I will not go below {price} for that.',
    'The price remains {price}.',
    'Still {price}.',
  ],
  insult_warning: [
    'You offered {offer}; that is insulting. My price is {price}. Once more and I walk away.',
    'An offer of {offer} is an insult. I stay at {price}, and another like it ends this.',
    '{offer}? Be serious. It is {price}, and one more offer like that and we are done.',
    'I will ignore {offer} once. My price is {price}; do that again and I stop.',
    'That is not an offer, that is an insult. {price}, and no more of those.',
  ],
  closing_split: [
    'Let us meet in the middle: {price}.',
    'Split the difference? {price}.',
    'Meet me halfway at {price}.',
    'I will meet you partway: {price}.',
    'Let us settle near the middle: {price}.',
  ],
  final_offer: [
    '{price} is my final offer.',
    'My last offer: {price}.',
    'Final price: {price}. I will not go lower.',
    'This is my final offer: {price}.',
    '{price}, and that is final.',
  ],
  accept: [
    'Deal at {price}! Enjoy it.',
    'Agreed: {price}. It is yours.',
    'You have a deal at {price}.',
    '{price} it is. Pleasure doing business.',
    'Accepted at {price}. Thank you for your business.',
  ],
  reject_insult: [
    'Two insulting offers. I am done here.',
    'I warned you. This negotiation is over.',
    'Another insult. Goodbye.',
    'That is it. I will not sell to you at these prices.',
    'Enough. We are finished.',
  ],
  reject_bad_faith: [
    'You keep going backwards. This negotiation is over.',
    'Lowering your offer again? I am done.',
    'That is bad faith. Goodbye.',
    'Twice you went back on your offer. We are finished.',
    'I cannot negotiate with someone who keeps retreating. Good day.',
  ],
  expired: [
    'That was the last round and we did not agree. Maybe next time.',
    'Out of rounds, and no deal. Good luck.',
    'We ran out of time. The negotiation has ended.',
    'No deal in ten rounds. Goodbye for now.',
    'That was your last offer, and it is not enough. This one is over.',
  ],
};

const FINAL_CUES: readonly string[] = [
  'This is my final offer.',
  'That is my last word.',
  'I will not go lower after this.',
  'Last chance.',
  'This is final.',
];

const COUNTERS = new Set<Intent>([
  'counter_small',
  'counter_big',
  'counter_freeze',
  'insult_warning',
  'closing_split',
  'final_offer',
]);
const ENDINGS = new Set<Intent>(['accept', 'reject_insult', 'reject_bad_faith', 'expired']);

/**
 * Chooses a variant for a slot. Within one session, a slot's variants are walked with a
 * session-specific start and stride, so consecutive rounds do not repeat a phrase.
 */
function variant(
  options: readonly string[],
  sessionId: string,
  slot: string,
  round: number,
): string {
  const n = options.length;
  const start = pick(n, sessionId, slot, 'start');
  const stride = 1 + pick(n - 1, sessionId, slot, 'stride');
  return options[(start + round * stride) % n] ?? options[0] ?? '';
}

function reactionBucket(offer: number, market: number): keyof typeof REACTIONS {
  const percent = (offer * 100) / market;
  if (percent < 60) return 'way_low';
  if (percent < 75) return 'low';
  if (percent < 90) return 'getting_there';
  return 'close';
}

function shortName(name: string): string {
  return name.length <= 60 ? name : `${name.slice(0, 59)}…`;
}

function fill(template: string, ctx: Context, facts: MessageFacts): string {
  return template
    .replaceAll('{product}', shortName(ctx.productName))
    .replaceAll('{market}', formatCredits(ctx.marketCents))
    .replaceAll('{price}', facts.priceCents === null ? '' : formatCredits(facts.priceCents))
    .replaceAll('{offer}', facts.offerCents === null ? '' : formatCredits(facts.offerCents));
}

/**
 * Builds the seller's words from slots: opener, reaction, price statement, reason, round cue
 * and closer. Optional slots are dropped, last first, until the message fits 240 characters.
 * Every price in it is formatted from the same cents as the structured fields.
 */
export function sellerMessage(ctx: Context, intent: Intent, facts: MessageFacts): string {
  const persona = PERSONAS[pick(PERSONAS.length, ctx.sessionId, 'persona')] ?? 'friendly';
  const at = (options: readonly string[], slot: string) =>
    variant(options, ctx.sessionId, slot, facts.round);
  const statement = at(STATEMENTS[intent], intent);
  const isCounter = COUNTERS.has(intent);
  const finalRound = isCounter && facts.round === 9;

  const required: string[] = [statement];
  if (finalRound && intent !== 'final_offer') required.push(at(FINAL_CUES, 'final'));
  const optional: { text: string; before: boolean }[] = [];
  if (intent !== 'greet' && !ENDINGS.has(intent)) {
    optional.push({ text: at(OPENERS[persona], 'opener'), before: true });
  }
  if (isCounter && intent !== 'insult_warning' && facts.offerCents !== null) {
    optional.push({
      text: at(REACTIONS[reactionBucket(facts.offerCents, ctx.marketCents)], 'reaction'),
      before: true,
    });
    if (facts.round > 1) {
      optional.push({
        text: at(MOVEMENT[facts.moved ? 'moved' : 'stalled'], 'movement'),
        before: true,
      });
    }
  }
  if (isCounter && pick(2, ctx.sessionId, 'reason?', String(facts.round)) === 0) {
    optional.push({ text: at(REASONS, 'reason'), before: false });
  }
  if (!ENDINGS.has(intent) && intent !== 'greet' && !finalRound && facts.roundsLeft <= 3) {
    optional.push({
      text: facts.roundsLeft === 1 ? 'One round left.' : `${facts.roundsLeft} rounds left.`,
      before: false,
    });
  }
  // A closer invites a reply, so a message that ends the negotiation has none.
  if (!ENDINGS.has(intent)) {
    optional.push({ text: at(CLOSERS[persona], 'closer'), before: false });
  }

  const compose = (parts: typeof optional) =>
    [
      ...parts.filter((part) => part.before).map((part) => part.text),
      ...required,
      ...parts.filter((part) => !part.before).map((part) => part.text),
    ]
      .map((text) => fill(text, ctx, facts))
      .join(' ');
  const kept = [...optional];
  let message = compose(kept);
  while (message.length > MAX_MESSAGE_LENGTH && kept.length > 0) {
    kept.pop();
    message = compose(kept);
  }
  return message.length <= MAX_MESSAGE_LENGTH
    ? message
    : `${message.slice(0, MAX_MESSAGE_LENGTH - 1)}…`;
}

/** The greeting: names the market price and the seller's opening ask. */
export function greetingMessage(ctx: Context & { openingAskCents: number }): string {
  return sellerMessage(ctx, 'greet', {
    round: 0,
    offerCents: null,
    priceCents: ctx.openingAskCents,
    moved: false,
    roundsLeft: 10,
  });
}
