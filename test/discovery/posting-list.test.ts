import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodePostings, PostingList } from '../../src/modules/catalog/catalog.posting-list.js';

interface Posting {
  seq: number;
  weight: number;
  mask: number;
}

const listOf = (postings: readonly Posting[]): PostingList => {
  const list = new PostingList();
  for (const { seq, weight, mask } of postings) list.push(seq, weight, mask);
  return list;
};

const decoded = (bytes: Uint8Array): Posting[] => {
  const { seqs, weights, masks } = decodePostings(bytes);
  return Array.from(seqs, (seq, i) => ({ seq, weight: weights[i] ?? 0, mask: masks[i] ?? 0 }));
};

/** The stored order: heaviest first, then by seq. */
const storedOrder = (postings: readonly Posting[]): Posting[] =>
  [...postings].sort((a, b) => b.weight - a.weight || a.seq - b.seq);

/**
 * Postings of distinct seqs, with few distinct weights (so ties are common): in any order, in
 * seq order (as a load gathers them, which takes the faster sort), by weight with ties the wrong
 * way round, or already as stored.
 */
const postings = fc
  .uniqueArray(
    fc.record({
      seq: fc.integer({ min: 1, max: 5000 }),
      weight: fc.constantFrom(0.25, 0.5, 1, 1.5, Math.fround(0.3), Math.fround(1.7)),
      mask: fc.integer({ min: 0, max: 0xffff }),
    }),
    { selector: (posting) => posting.seq, maxLength: 300 },
  )
  .chain((list) =>
    fc.constantFrom(
      list,
      [...list].sort((a, b) => a.seq - b.seq),
      [...list].sort((a, b) => b.weight - a.weight || b.seq - a.seq),
      storedOrder(list),
    ),
  );

describe('a posting list as stored', () => {
  it('is encoded heaviest first, then by seq, whatever order it was gathered in', () => {
    fc.assert(
      fc.property(postings, (gathered) => {
        expect(decoded(listOf(gathered).encode())).toEqual(storedOrder(gathered));
      }),
    );
  });

  it('is copied out in the same order (as a large load packs it on its thread)', () => {
    fc.assert(
      fc.property(postings, fc.nat(5), (gathered, at) => {
        const length = at + gathered.length;
        const seqs = new Uint32Array(length);
        const weights = new Float32Array(length);
        const masks = new Uint16Array(length);
        listOf(gathered).copyStored(seqs, weights, masks, at);
        const copied = Array.from(seqs.subarray(at), (seq, i) => ({
          seq,
          weight: weights[at + i] ?? 0,
          mask: masks[at + i] ?? 0,
        }));
        expect(copied).toEqual(storedOrder(gathered));
        // What was copied out is already in order: encoding it again changes nothing.
        expect(decoded(listOf(copied).encode())).toEqual(copied);
      }),
    );
  });
});
