import { describe, expect, it } from 'vitest';
import type { QueryGroup } from '../../src/modules/catalog/catalog.concepts.js';
import { rank, type TermPostings } from '../../src/modules/catalog/catalog.rank.js';

/** Postings of a term in listings `seqs`, each with the same weight, in the description. */
const postings = (seqs: number[], df = seqs.length): TermPostings => ({
  df,
  seqs: Uint32Array.from(seqs),
  weights: Float32Array.from(seqs.map(() => 0.5)),
  masks: Uint16Array.from(seqs.map(() => 1 << 6)),
});

/** `text to speech` as typed: its words, and the phrase term where they stand together. */
const typedPhrase: QueryGroup[] = [
  {
    words: 'text to speech',
    alternatives: [
      {
        label: 'text to speech',
        terms: ['text', 'speech'],
        weight: 1,
        kind: 'typed',
        together: ['"text to speech'],
      },
    ],
  },
];

const scores = (lists: Map<string, TermPostings>) =>
  new Map(rank(typedPhrase, lists, [], 10).candidates.map((each) => [each.seq, each.score]));

describe('typed words of a concept phrase', () => {
  it('should weigh a listing with the words only apart below one that has the phrase', () => {
    const found = scores(
      new Map([
        ['text', postings([1, 2])],
        ['speech', postings([1, 2])],
        ['"text to speech', postings([1])],
      ]),
    );
    expect(found.get(2)).toBeGreaterThan(0);
    expect(found.get(1)).toBeGreaterThan(found.get(2) ?? 0);
  });

  it('should weigh no listing apart when only part of the phrase postings was read', () => {
    const found = scores(
      new Map([
        ['text', postings([1, 2])],
        ['speech', postings([1, 2])],
        // In 600 listings, of which the first block held one: listing 2 may have it too.
        ['"text to speech', postings([1], 600)],
      ]),
    );
    expect(found.get(2)).toBeGreaterThan(0);
    expect(found.get(1)).toBe(found.get(2));
  });
});
