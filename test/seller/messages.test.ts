import { beforeAll, describe, expect, it } from 'vitest';
import {
  generatedTranscripts,
  phraseFrequencies,
  phraseMatcher,
  phrasePattern,
  type Transcript,
} from '../../bench/tournament/phrases.js';
import { formatCredits, topicOf, type SellerReply } from '../../src/seller/index.js';
import { answerFromDescription } from '../../src/seller/messages.js';
import { allPhrases } from '../../src/seller/phrases.js';

/**
 * The seller's words against its numbers, over generated sessions of every buying style. Each
 * rule below is the test's own reading of the words, independent of how the seller picks them.
 */
const WORD_RULES: {
  name: string;
  words: RegExp;
  holds: (reply: SellerReply, offer: number, market: number) => boolean;
}[] = [
  {
    name: 'far apart: the counter is ≥ 20 % of market above the offer',
    words: /\bfar\b|long way|nowhere near|anywhere near|big gap|wide gap|miles|worlds apart/i,
    holds: (r, offer, market) =>
      r.counterCents !== null && (r.counterCents - offer) * 100 >= 20 * market,
  },
  {
    name: 'close: the counter is ≤ 5 % of market above the offer',
    words: /\bclose\b|almost there|nearly there|little between us|small gap/i,
    holds: (r, offer, market) =>
      r.counterCents !== null && (r.counterCents - offer) * 100 <= 5 * market,
  },
  {
    name: 'insult: the offer is below 40 % of market',
    words: /insult/i,
    holds: (_, offer, market) => offer * 100 < 40 * market,
  },
  {
    name: 'final: the reply is round 9’s counter or ends the negotiation',
    words:
      /\bfinal\b|my last (offer|price)|last word|last round|will not go lower|take it or leave it/i,
    holds: (r) => r.final && (r.action !== 'counter' || r.round === 9),
  },
  {
    name: 'costs: never claimed',
    words: /\bcosts?\b|margin|lose money|barely/i,
    holds: () => false,
  },
  {
    name: 'stalled: the offer earned nothing',
    words:
      /not moved|no higher than|same offer|repeating|standing still|holding still|no raise|not moving|waiting will/i,
    holds: (r) => r.objection === 'stall',
  },
  {
    name: 'retreat: the offer is below the previous one',
    words: /lower than your last|backwards|going down|dropped|less than you offered|retreating/i,
    holds: (r) => r.objection === 'retreat',
  },
  {
    name: 'raised: the offer beat the best by the counted step',
    words:
      /see you moving|right direction|coming up|came up|progress|raised|step up|raising|better offer than before/i,
    holds: (r) => r.moved,
  },
  {
    name: 'lower: the counter is below the previous ask',
    words:
      /come down|lower it|go down to|down to|a little lower|drop to|shave|real drop|proper drop|step down|cut it/i,
    holds: (r) => r.counterCents !== null && r.counterCents < r.previousAskCents,
  },
  {
    name: 'a big step: the counter is ≥ 3 % of market below the previous ask',
    words: /real move|big step|good way|real drop|cut it right down|proper drop/i,
    holds: (r, _, market) =>
      r.counterCents !== null && (r.previousAskCents - r.counterCents) * 100 >= 3 * market,
  },
  {
    name: 'holding: the counter equals the previous ask',
    words:
      /stays|holding at|remains|stands\.|unchanged|I stay at|still at|same as before|as before|still \d|ask is still/i,
    holds: (r) => r.counterCents !== null && r.counterCents === r.previousAskCents,
  },
  {
    name: 'last warning: one more such offer ends the negotiation',
    words: /once more|do that again|one more like|another like it|next time I stop|one warning/i,
    holds: (r) => r.strikesLeft === 1,
  },
  {
    name: 'rounds left: the number is right',
    words: /(\d+) (more )?rounds? (left|to go|remain|after this)|rounds left: (\d+)/i,
    holds: () => true,
  },
];

describe('seller messages', () => {
  let sessions: Transcript[];

  beforeAll(() => {
    sessions = generatedTranscripts(2_000);
  });

  it('should generate sessions of every kind', () => {
    const replies = sessions.flatMap((s) => s.rounds.map((r) => r.reply));
    for (const outcome of ['accepted', 'countered', 'rejected', 'expired'])
      expect(replies.some((r) => r.outcome === outcome)).toBe(true);
    for (const objection of ['none', 'insult', 'retreat', 'stall'])
      expect(replies.some((r) => r.objection === objection)).toBe(true);
    expect(replies.some((r) => r.intent === 'counter_big')).toBe(true);
  });

  it.each(WORD_RULES.map((rule) => [rule.name, rule] as const))(
    'should say it only when true — %s',
    (_, rule) => {
      let said = 0;
      for (const session of sessions) {
        for (const { offerCents, reply } of session.rounds) {
          if (!rule.words.test(reply.message)) continue;
          said += 1;
          expect(
            rule.holds(reply, offerCents, session.context.marketCents),
            `round ${reply.round}, offer ${formatCredits(offerCents)}, market ${formatCredits(session.context.marketCents)}: ${reply.message}`,
          ).toBe(true);
          const match = rule.words.exec(reply.message);
          const left = match?.[1] ?? match?.[4];
          if (rule.name.startsWith('rounds left')) expect(Number(left)).toBe(reply.roundsLeft);
        }
      }
      if (!rule.name.startsWith('costs')) expect(said).toBeGreaterThan(0);
    },
  );

  it('should say "final" on round 9’s counter', () => {
    for (const session of sessions)
      for (const { reply } of session.rounds)
        if (reply.round === 9 && reply.action === 'counter')
          expect(reply.message).toMatch(/final|last/i);
  });

  it('should never repeat a phrase within a session', () => {
    let checked = 0;
    const patterns = allPhrases().map((phrase) => ({
      ...phrase,
      matches: phraseMatcher(phrase.text),
    }));
    for (const session of sessions) {
      const messages = [session.greeting, ...session.rounds.map((r) => r.reply.message)];
      for (const phrase of patterns) {
        const uses = messages.filter(phrase.matches).length;
        if (uses > 1) expect.fail(`"${phrase.text}" ${uses} times in: ${messages.join(' | ')}`);
        checked += 1;
      }
    }
    expect(checked).toBe(sessions.length * patterns.length);
  });

  it('should keep every phrase that states no price under 5 % of messages over 1,000 sessions', () => {
    const { messages, uses } = phraseFrequencies(sessions.slice(0, 1_000));
    expect(messages).toBeGreaterThan(5_000);
    const wordy = uses.filter((use) => !use.price);
    expect(wordy[0]?.share ?? 0).toBeLessThan(0.05);
    // Every phrase is reachable: none is dead text.
    expect(uses.filter((use) => use.messages === 0).map((use) => use.text)).toEqual([]);
  });

  it('should keep messages within 240 characters with no unfilled placeholder', () => {
    for (const session of sessions) {
      for (const message of [session.greeting, ...session.rounds.map((r) => r.reply.message)]) {
        expect(message.length).toBeLessThanOrEqual(240);
        expect(message).not.toMatch(/[{}]|undefined|NaN|null/);
      }
    }
  });

  it('should hold every phrase once in its tables', () => {
    const texts = allPhrases().map((phrase) => phrase.text);
    expect(new Set(texts).size).toBe(texts.length);
    // No phrase contains another, so each can be counted in a message on its own.
    const filled = (text: string) =>
      text
        .replace(/\{(price|market|offer)\}/g, '12.34')
        .replace('{n}', '3')
        .replace('{product}', 'Tea');
    for (const text of texts) {
      const pattern = phrasePattern(text);
      const inside = texts.filter((other) => other !== text && pattern.test(filled(other)));
      expect(inside, text).toEqual([]);
    }
  });

  describe('what the player wrote', () => {
    it.each([
      ['I am on a tight budget', 'budget'],
      ["Can't afford that", 'budget'],
      ['I am a student', 'student'],
      ['That is my final offer.', 'limit'],
      ['Best I can do', 'limit'],
      ['What a beautiful piece', 'compliment'],
      ['This is way too expensive', 'complaint'],
      ['Overpriced!', 'complaint'],
      ["I'll walk away", 'walk_away'],
      ['I can buy it elsewhere', 'walk_away'],
      ['Take it or leave it.', 'limit'],
      ['Would you take 20?', 'question'],
      ['I offer 20.', null],
      ['', null],
    ])('should read "%s" as %s', (text, topic) => {
      expect(topicOf(text)).toBe(topic);
    });

    it('should acknowledge the topic of the player’s words', () => {
      const acknowledged = sessions.flatMap((s) =>
        s.rounds.filter((r) => r.playerMessage !== null && topicOf(r.playerMessage) !== null),
      );
      const acks = allPhrases().filter((phrase) => phrase.slot.startsWith('ack/'));
      const withAck = acknowledged.filter((r) => {
        const topic = topicOf(r.playerMessage);
        return acks.some(
          (ack) => ack.slot === `ack/${topic}` && phrasePattern(ack.text).test(r.reply.message),
        );
      });
      // A topic goes unacknowledged only once its phrases are used up in the session.
      expect(withAck.length / acknowledged.length).toBeGreaterThan(0.8);
    });
  });
  describe('claims about the buyer, the product and the market', () => {
    const rounds = () =>
      sessions.flatMap((session) => session.rounds.map((round) => ({ session, round })));

    it('should praise the buyer for talking only when the buyer wrote something', () => {
      const praised = rounds().filter(({ round }) => /you are talking/i.test(round.reply.message));
      expect(praised.length).toBeGreaterThan(0);
      for (const { round } of praised) expect(round.playerMessage?.trim()).toBeTruthy();
    });

    it('should speak of demand only when it is high, and of a short shelf life only when true', () => {
      let claims = 0;
      for (const { session, round } of rounds()) {
        const { demand, stock } = session.context;
        if (/demand|buying it lately|sells well|coming back/i.test(round.reply.message)) {
          claims += 1;
          expect(demand).toBe('high');
        }
        if (/shelf long/i.test(round.reply.message)) {
          claims += 1;
          expect(demand === 'high' || (stock ?? 99) <= 3).toBe(true);
        }
      }
      expect(claims).toBeGreaterThan(0);
    });

    it('should answer a question about the product from its own description', () => {
      expect(
        answerFromDescription('Is this merino wool?', 'Soft merino wool beanie. Hand wash.'),
      ).toBe('From its description: Soft merino wool beanie.');
      expect(answerFromDescription('Is this cashmere?', 'Soft merino wool beanie.')).toBeNull();
      const asked = rounds().filter(
        ({ session, round }) =>
          round.playerMessage?.includes('merino') === true &&
          session.context.productDescription?.includes('merino') === true,
      );
      expect(asked.length).toBeGreaterThan(0);
      for (const { round } of asked)
        expect(round.reply.message).toContain('From its description: Soft merino wool beanie');
    });
  });
});
