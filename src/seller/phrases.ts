import { MAX_ROUNDS } from './rules.js';

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
  | 'final' // this counter is round 9's, the last; or the reply ends the negotiation
  | 'spoke' // the buyer wrote something with this offer
  | 'in_demand' // the product's demand is high (its public signal)
  | 'selling_fast'; // demand is high, or only a few are left in stock

/**
 * Every phrase the seller can say, in one registry: the composer takes its slots from here and
 * the tests and the frequency report walk it (`allPhrases`), so no table can escape them. Pure
 * data. A phrase names the claims it makes; it is used only when they hold (`claimHolds`).
 * `{price}`, `{offer}`, `{market}`, `{product}`, `{n}` are filled in.
 */
export type Phrase = readonly [text: string, ...claims: Claim[]];

type Phrases = readonly Phrase[];

export const PHRASES = {
  hello: {
    friendly: [['Hi there!'], ['Welcome in!'], ['Hello, friend.'], ['Good to see you.'], ['Hey!']],
    gruff: [['Yes?'], ['Right.'], ['Morning.'], ['Come in, then.'], ['Go on then.']],
    formal: [
      ['Good day.'],
      ['Welcome.'],
      ['Good afternoon.'],
      ['Thank you for stopping by.'],
      ['Greetings.'],
    ],
  },
  greet: [
    ['{product} sells for {market} on the market; I am asking {price}.'],
    ['{product}: market price {market}, my asking price {price}.'],
    ['{product} goes for {market} on the market. I will start at {price}.'],
    ['You are looking at {product}. Market price is {market}; mine is {price}.'],
    ['{product}, then. It is worth {market} on the market, and I ask {price}.'],
    ['{product} lists at {market} on the market; I want {price}.'],
  ],
  invite: [
    ['Make me an offer.'],
    ['What would you pay?'],
    ['Your offer?'],
    ['Name your price.'],
    ['What did you have in mind?'],
    ['Tell me what you are thinking.'],
    ['Go ahead, make an offer.'],
  ],
  opener: {
    friendly: [
      ['Thanks for the offer.'],
      ['Alright, let me think.'],
      ['Okay, I hear you.'],
      ['Let me see here.'],
      ['Fair enough.'],
      ['I like that you are talking.', 'spoke'],
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
  },
  /** The reaction to how far apart the two prices are; each bucket's claim is its condition. */
  reaction: {
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
      ['Now that is an offer.'],
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
  },
  moved: [
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
  ],
  stalled: [
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
  ],
  retreat: [
    ['That is lower than your last offer.', 'retreat'],
    ['You went backwards.', 'retreat'],
    ['Going down is not how this works.', 'retreat'],
    ['Your offer dropped.', 'retreat'],
    ['That is less than you offered before.', 'retreat'],
    ['Backwards? Really?', 'retreat'],
  ],
  insult: [
    ['{offer} is an insult.', 'insult'],
    ['{offer}? That is insulting.', 'insult'],
    ['An offer of {offer} is not serious; it is an insult.', 'insult'],
    ['{offer} for this? That is an insult.', 'insult'],
    ['I take {offer} as an insult.', 'insult'],
    ['You offer {offer}? Insulting.', 'insult'],
  ],
  strike: [
    ['Once more and I end this.', 'one_more_ends'],
    ['Do that again and we are done.', 'one_more_ends'],
    ['One more like that and I walk away.', 'one_more_ends'],
    ['Another like it ends the talk.', 'one_more_ends'],
    ['Next time I stop talking.', 'one_more_ends'],
    ['That was your one warning.', 'one_more_ends'],
  ],
  reason: [
    ['There is real demand for this one.', 'in_demand'],
    ['It is worth every credit.'],
    ['Others have been buying it lately.', 'in_demand'],
    ['It will not sit on the shelf long.', 'selling_fast'],
    ['You will not regret it.'],
    ['It is a good piece.'],
    ['I stand behind what I sell.'],
    ['It is in fine shape.'],
    ['People keep coming back for these.', 'in_demand'],
    ['It sells well these days.', 'in_demand'],
    ['I know what it is worth.'],
    ['It is one of my better items.'],
  ],
  /** Price statements: they carry the number of the structured field. */
  statement: {
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
  },
  /** Counter statements that claim nothing about the move: any counter may use them. */
  neutral: [
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
  ],
  ending: {
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
  },
  cue: [
    ['Rounds left: {n}.'],
    ['We have {n} rounds left.'],
    ['Only {n} rounds to go.'],
    ['{n} more rounds after this.'],
    ['Mind the clock: {n} rounds left.'],
    ['Just {n} rounds remain.'],
  ],
  closer: {
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
  },
  /** Acknowledgements of what the player wrote, by topic; none of them promises a price. */
  ack: {
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
  },
} as const satisfies Record<string, Phrases | Record<string, Phrases>>;

/** Every phrase with its slot (`greet`, `hello/friendly`, `ack/question`, …). */
export function allPhrases(): { slot: string; text: string; claims: Claim[]; price: boolean }[] {
  const rows: { slot: string; text: string; claims: Claim[]; price: boolean }[] = [];
  const add = (slot: string, phrases: Phrases) => {
    for (const [text, ...claims] of phrases)
      rows.push({ slot, text, claims, price: /\{(price|market|offer)\}/.test(text) });
  };
  for (const [slot, table] of Object.entries(PHRASES)) {
    if (Array.isArray(table)) add(slot, table as Phrases);
    else
      for (const [sub, phrases] of Object.entries(table as Record<string, Phrases>))
        add(`${slot}/${sub}`, phrases);
  }
  return rows;
}
