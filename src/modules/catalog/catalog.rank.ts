// BM25F over the postings a query read: pure arithmetic, so both databases rank alike.

import { APART_WEIGHT, type QueryGroup } from './catalog.concepts.js';
import { fieldsOf, K1, statusWeight } from './catalog.index.js';
import type { Field } from './catalog.ranking.js';

/** One term's first block of postings, and how many listings have the term. */
export interface TermPostings {
  df: number;
  seqs: Uint32Array;
  weights: Float32Array;
  masks: Uint16Array;
}

export interface Candidate {
  seq: number;
  /** 1 when the listing's name, an alias or its id is the whole query. */
  named: number;
  score: number;
  /** How many of the query's groups it matched whole (every word as typed, or an equivalent). */
  groups: number;
}

export interface Scored {
  candidates: Candidate[];
  /** Whether some term is in more listings than its first block holds. */
  truncated: boolean;
  /** The most listings any of the query's terms is in. */
  widest: number;
  /** What each group matched in a listing (for the hits shown). */
  matchedOf(seqs: readonly number[]): Map<number, { term: string; fields: Field[] }[]>;
}

/**
 * Arrays indexed by seq, kept between queries (a catalog of 100,000 listings would otherwise
 * allocate and clear megabytes per query); each query leaves them as it found them. Ranking
 * is synchronous, so no two queries share them at once.
 */
function scratchFor(size: number) {
  if (scratch === undefined || scratch.total.length < size) {
    const n = Math.max(size, Math.ceil((scratch?.total.length ?? 0) * 1.5), 1024);
    scratch = {
      total: new Float64Array(n),
      status: new Uint16Array(n),
      sum: new Float64Array(n),
      count: new Uint8Array(n),
      mask: new Uint16Array(n),
      best: new Float64Array(n),
      bestAlt: new Int16Array(n).fill(-1),
      bestMask: new Uint16Array(n),
      isNamed: new Uint8Array(n),
      groupsHit: new Uint8Array(n),
      pooled: new Float64Array(n),
      pooledWeight: new Float64Array(n),
      together: new Uint8Array(n),
      found: new Uint32Array(n),
      bestParts: new Uint32Array(n),
      whole: new Uint8Array(n),
    };
  }
  return scratch;
}
let scratch:
  | {
      total: Float64Array;
      status: Uint16Array;
      sum: Float64Array;
      count: Uint8Array;
      mask: Uint16Array;
      best: Float64Array;
      bestAlt: Int16Array;
      bestMask: Uint16Array;
      isNamed: Uint8Array;
      groupsHit: Uint8Array;
      pooled: Float64Array;
      pooledWeight: Float64Array;
      together: Uint8Array;
      /** Which of an alternative's terms a listing has, one bit each. */
      found: Uint32Array;
      /** For the best alternative found only in part: the bits of the terms found; else 0. */
      bestParts: Uint32Array;
      /** Whether some alternative of the group was found whole. */
      whole: Uint8Array;
    }
  | undefined;

/** BM25's idf of a term in `df` of `size` listings. */
const idf = (df: number, size: number) => Math.log(1 + (size - df + 0.5) / (df + 0.5));

/** The frequency behind a saturated posting weight (catalog.index.ts), and back. */
const unsaturated = (weight: number) => (K1 * weight) / (K1 + 1 - weight);
const saturated = (frequency: number) => (frequency * (K1 + 1)) / (K1 + frequency);

/**
 * Each group scores, per listing, its best alternative: the words as typed (even in part), a
 * prefix or correction, or an equivalent phrase found whole, which weighs the typed words' idf
 * times its own saturated frequencies. Typed words that are a concept phrase weigh APART_WEIGHT
 * in a listing without that phrase (`together`): their words only apart, or only some. The
 * forms of a group found in a listing (the word as typed and its equivalents) also count together, as the forms of one word do: their
 * frequencies are summed before saturation, weighing the typed words' idf, times 0.8 unless the
 * word as typed is among them. A listing's score is the sum over groups, times its status
 * weight. Dense arrays by seq, reused across groups: no object per posting.
 */
export function rank(
  groups: readonly QueryGroup[],
  lists: ReadonlyMap<string, TermPostings>,
  named: readonly TermPostings[],
  size: number,
): Scored {
  let top = 0;
  for (const list of lists.values()) for (const seq of list.seqs) top = Math.max(top, seq);
  for (const list of named) for (const seq of list.seqs) top = Math.max(top, seq);
  const {
    total,
    status,
    sum,
    count,
    mask,
    best,
    bestAlt,
    bestMask,
    isNamed,
    groupsHit,
    pooled,
    pooledWeight,
    together,
    found: termsFound,
    bestParts,
    whole,
  } = scratchFor(top + 1);
  const touched: number[] = [];
  const perGroup: { seqs: number[]; alts: number[]; masks: number[]; parts: number[] }[] = [];
  let truncated = false;
  let widest = 0;

  for (const group of groups) {
    const typedIdf = (group.alternatives[0]?.terms ?? []).reduce(
      (total, term) => total + idf(lists.get(term)?.df ?? 0, size),
      0,
    );
    const groupSeqs: number[] = [];
    for (const [a, alternative] of group.alternatives.entries()) {
      const equivalent = alternative.kind === 'equivalent';
      // The word as typed (or corrected) and each equivalent are one term each: forms of the group.
      const form = alternative.kind !== 'prefix' && alternative.terms.length === 1;
      const altSeqs: number[] = [];
      // Typed words of a concept phrase, in a listing where they stand together, weigh in full.
      // Only the first block of each phrase's postings is read: when a phrase is in more
      // listings than that, which of the others have it is unknown, and none is weighed apart.
      const apartKnown =
        alternative.together?.every((term) => {
          const found = lists.get(term);
          return found === undefined || found.df <= found.seqs.length;
        }) ?? false;
      if (alternative.together !== undefined)
        for (const term of alternative.together)
          for (const seq of lists.get(term)?.seqs ?? []) together[seq] = 1;
      // Typed words count as the group's match only all together; in part they still score.
      const allTerms = alternative.terms.length < 32 ? 2 ** alternative.terms.length - 1 : 0;
      for (const [t, term] of alternative.terms.entries()) {
        const found = lists.get(term);
        if (found === undefined) continue;
        const bit = t < 31 ? 1 << t : 0;
        if (found.df > found.seqs.length) truncated = true;
        widest = Math.max(widest, found.df);
        // A completion of a word the catalog knows weighs at most that word's idf: "lang" also
        // finds Langfuse, and no rare completion outweighs the word as typed.
        const weight = equivalent
          ? typedIdf / alternative.terms.length
          : alternative.kind === 'prefix'
            ? Math.min(idf(found.df, size), typedIdf)
            : idf(found.df, size);
        for (let j = 0; j < found.seqs.length; j++) {
          const seq = found.seqs[j] as number;
          if (count[seq] === 0) altSeqs.push(seq);
          sum[seq] = (sum[seq] as number) + weight * (found.weights[j] as number);
          count[seq] = (count[seq] as number) + 1;
          mask[seq] = (mask[seq] as number) | (found.masks[j] as number);
          termsFound[seq] = (termsFound[seq] as number) | bit;
          if (form) {
            pooled[seq] = (pooled[seq] as number) + unsaturated(found.weights[j] as number);
            pooledWeight[seq] = Math.max(pooledWeight[seq] as number, alternative.weight);
          }
        }
      }
      for (const seq of altSeqs) {
        // An equivalent phrase counts only when found whole.
        if (!equivalent || (count[seq] as number) >= alternative.terms.length) {
          const apart = apartKnown && together[seq] === 0;
          const value = (sum[seq] as number) * alternative.weight * (apart ? APART_WEIGHT : 1);
          const inFull = allTerms === 0 || termsFound[seq] === allTerms;
          if (inFull) whole[seq] = 1;
          if (bestAlt[seq] === -1) groupSeqs.push(seq);
          if (bestAlt[seq] === -1 || value > (best[seq] as number)) {
            best[seq] = value;
            bestAlt[seq] = a;
            bestMask[seq] = mask[seq] as number;
            bestParts[seq] = inFull ? 0 : (termsFound[seq] as number);
          }
        }
        sum[seq] = 0;
        count[seq] = 0;
        mask[seq] = 0;
        termsFound[seq] = 0;
      }
      for (const term of alternative.together ?? [])
        for (const seq of lists.get(term)?.seqs ?? []) together[seq] = 0;
    }
    const record = {
      seqs: groupSeqs,
      alts: [] as number[],
      masks: [] as number[],
      parts: [] as number[],
    };
    for (const seq of groupSeqs) {
      if ((pooled[seq] as number) > 0) {
        const value = typedIdf * saturated(pooled[seq] as number) * (pooledWeight[seq] as number);
        if (value > (best[seq] as number)) best[seq] = value;
        pooled[seq] = 0;
        pooledWeight[seq] = 0;
      }
      if (total[seq] === 0) touched.push(seq);
      total[seq] = (total[seq] as number) + (best[seq] as number);
      groupsHit[seq] = (groupsHit[seq] as number) + (whole[seq] as number);
      status[seq] = bestMask[seq] as number;
      record.alts.push(bestAlt[seq] as number);
      record.masks.push(bestMask[seq] as number);
      record.parts.push(bestParts[seq] as number);
      best[seq] = 0;
      bestAlt[seq] = -1;
      bestParts[seq] = 0;
      whole[seq] = 0;
    }
    perGroup.push(record);
  }

  for (const list of named) for (const seq of list.seqs) isNamed[seq] = 1;
  const candidates = touched.map((seq) => ({
    seq,
    named: isNamed[seq] as number,
    score: (total[seq] as number) * statusWeight(status[seq] as number),
    groups: groupsHit[seq] as number,
  }));
  // Scratch arrays are handed back zeroed (bestAlt at -1) for the next query.
  for (const seq of touched) {
    total[seq] = 0;
    groupsHit[seq] = 0;
  }
  for (const list of named) for (const seq of list.seqs) isNamed[seq] = 0;
  return {
    candidates,
    truncated,
    widest,
    matchedOf(seqs) {
      const matched = new Map(seqs.map((seq) => [seq, [] as { term: string; fields: Field[] }[]]));
      perGroup.forEach((record, g) => {
        record.seqs.forEach((seq, k) => {
          const alternative = groups[g]?.alternatives[record.alts[k] ?? 0];
          matched.get(seq)?.push({
            term: partOf(alternative?.label ?? '', record.parts[k] ?? 0),
            fields: fieldsOf((record.masks[k] ?? 0) & 0xff),
          });
        });
      });
      return matched;
    },
  };
}

/**
 * What a hit matched of typed words found only in part: those words of the label (one per
 * term, in order), not all of them. `parts` 0 is the whole label.
 */
function partOf(label: string, parts: number): string {
  if (parts === 0) return label;
  const words = label.split(' ');
  const found = words.filter((_, i) => i < 31 && (parts & (1 << i)) !== 0);
  return found.length === 0 ? label : found.join(' ');
}
