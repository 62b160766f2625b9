// The search index of the listings: what each of their words weighs (BM25F), and how a term's
// postings are stored. The same for both databases (docs/discovery.md, "Ranking").

import type { ListingEntry } from './catalog.schemas.js';
import { FIELD_NAMES, FIELDS, STATUS_WEIGHTS, type Field } from './catalog.ranking.js';
import { nameKey, searchWords, stem } from './catalog.text.js';

/** BM25's term-frequency saturation. */
const K1 = 1.2;

const STATUS_CODES = Object.keys(STATUS_WEIGHTS);
/** The status is kept in the bits above the fields' in each posting's mask. */
const STATUS_SHIFT = 8;

export const statusWeight = (mask: number): number =>
  STATUS_WEIGHTS[STATUS_CODES[mask >> STATUS_SHIFT] ?? 'active'] ?? 1;

/** Which fields a posting's mask says the term was found in. */
export const fieldsOf = (mask: number): Field[] =>
  FIELD_NAMES.filter((_, bit) => (mask & (1 << bit)) !== 0);

/** The postings term of a whole name, alias or id, compared with a whole query. */
export const exactTerm = (key: string): string => `=${key}`;

function fieldTexts(entry: ListingEntry): Record<Field, string[]> {
  return {
    name: [entry.name],
    aliases: [...(entry.aliases ?? []), entry.id.replace(/-/g, ' ')],
    use_cases: entry.use_cases,
    summary: [entry.summary],
    categories: [entry.kind, ...entry.categories],
    description: [entry.description],
    protocols: entry.protocols,
    limitations: entry.limitations,
  };
}

/** Bytes per stored posting: the listing's seq (u32), weight (f32), mask (u16). */
const ENTRY = 10;

type Growable = Uint32Array | Float32Array | Uint16Array | Float64Array;

/** A typed array twice as long, starting with `from`'s elements. */
function grown<T extends Growable>(from: T): T {
  const to = new (from.constructor as new (length: number) => T)(from.length * 2);
  to.set(from);
  return to;
}

/** One term's postings as they are gathered, in typed arrays that grow (no object per posting). */
export class PostingList {
  length = 0;
  seqs = new Uint32Array(4);
  weights = new Float32Array(4);
  masks = new Uint16Array(4);

  push(seq: number, weight: number, mask: number): void {
    if (this.length === this.seqs.length) {
      this.seqs = grown(this.seqs);
      this.weights = grown(this.weights);
      this.masks = grown(this.masks);
    }
    this.seqs[this.length] = seq;
    this.weights[this.length] = weight;
    this.masks[this.length] = mask;
    this.length++;
  }

  /** The postings as stored: heaviest first, then by seq (the order a query reads them in). */
  encode(): Buffer {
    const { length, seqs, weights, masks } = this;
    const order = this.order();
    const bytes = Buffer.allocUnsafe(length * ENTRY);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let i = 0; i < length; i++) {
      const j = order[i] ?? 0;
      view.setUint32(i * ENTRY, seqs[j] ?? 0, true);
      view.setFloat32(i * ENTRY + 4, weights[j] ?? 0, true);
      view.setUint16(i * ENTRY + 8, masks[j] ?? 0, true);
    }
    return bytes;
  }

  /**
   * Positions by weight (descending), then seq. Gathered in seq order (as a load adds them),
   * each posting's key is its weight's bits, inverted, above its position: a typed array of
   * such numbers sorts natively, without a comparator called for every pair.
   */
  private order(): Uint32Array {
    const { length, seqs, weights } = this;
    const order = new Uint32Array(length);
    let ascending = length < POSITIONS;
    for (let i = 0; i < length; i++) {
      order[i] = i;
      if ((i > 0 && (seqs[i] ?? 0) <= (seqs[i - 1] ?? 0)) || !((weights[i] ?? 0) > 0))
        ascending = false;
    }
    if (length < 2) return order;
    if (!ascending)
      return order.sort(
        (a, b) => (weights[b] ?? 0) - (weights[a] ?? 0) || (seqs[a] ?? 0) - (seqs[b] ?? 0),
      );
    // Weights are positive float32s, whose bits (below 2^31) order as the numbers do.
    const bits = new Uint32Array(weights.buffer, weights.byteOffset, length);
    const keys = new Float64Array(length);
    for (let i = 0; i < length; i++) keys[i] = (0x7fffffff - (bits[i] ?? 0)) * POSITIONS + i;
    keys.sort();
    for (let i = 0; i < length; i++) order[i] = (keys[i] ?? 0) % POSITIONS;
    return order;
  }
}

/** Positions a sort key holds below a weight's 31 bits (2^22: the key stays below 2^53). */
const POSITIONS = 2 ** 22;

/**
 * The postings of many listings, gathered term by term. Each distinct word is stemmed and
 * looked up once (a catalog repeats a few thousand words millions of times); a listing's term
 * frequencies are summed in arrays indexed by term, not in a map of objects.
 */
export class PostingsBuilder {
  /** Each word seen in a listing given to add() or observe(), and its term's number (-1: none yet). */
  private readonly words = new Map<string, number>();
  private readonly numbers = new Map<string, number>();
  /** By term number: the term and its postings. */
  readonly terms: string[] = [];
  readonly lists: PostingList[] = [];
  /** The seqs of the listings added. */
  readonly added: number[] = [];
  /** Per term, for the listing being added: its frequency and mask, valid when seen = stamp. */
  private frequency = new Float64Array(1024);
  private mask = new Uint16Array(1024);
  private seen = new Uint32Array(1024);
  private stamp = 0;

  /** The term's number, and an empty list for it if it has none yet. */
  termNumber(term: string): number {
    let number = this.numbers.get(term);
    if (number === undefined) {
      number = this.terms.length;
      this.numbers.set(term, number);
      this.terms.push(term);
      this.lists.push(new PostingList());
      if (number === this.seen.length) {
        this.frequency = grown(this.frequency);
        this.mask = grown(this.mask);
        this.seen = grown(this.seen);
      }
    }
    return number;
  }

  private wordNumber(word: string): number {
    let number = this.words.get(word);
    if (number === undefined || number < 0)
      this.words.set(word, (number = this.termNumber(stem(word))));
    return number;
  }

  /** Adds a listing's postings: each term's saturated, weighted frequency, and its fields. */
  add(entry: ListingEntry, seq: number): void {
    const status = Math.max(0, STATUS_CODES.indexOf(entry.status)) << STATUS_SHIFT;
    const stamp = ++this.stamp;
    this.added.push(seq);
    const touched: number[] = [];
    const texts = fieldTexts(entry);
    for (const [bit, field] of FIELD_NAMES.entries()) {
      const { weight, length, b } = FIELDS[field];
      const words = searchWords(texts[field].join(' . '));
      const norm = weight / (1 - b + (b * Math.max(words.length, 1)) / length);
      for (const word of words) {
        const term = this.wordNumber(word);
        if (this.seen[term] !== stamp) {
          this.seen[term] = stamp;
          this.frequency[term] = 0;
          this.mask[term] = status;
          touched.push(term);
        }
        (this.frequency[term] as number) += norm;
        (this.mask[term] as number) |= 1 << bit;
      }
    }
    for (const term of touched) {
      const tf = this.frequency[term] ?? 0;
      this.lists[term]?.push(seq, Math.fround((tf * (K1 + 1)) / (K1 + tf)), this.mask[term] ?? 0);
    }
    // A listing's whole name, aliases and id, each once.
    for (const text of [entry.name, ...texts.aliases]) {
      const key = nameKey(text);
      if (key === '') continue;
      const term = this.termNumber(exactTerm(key));
      if (this.seen[term] === stamp) continue;
      this.seen[term] = stamp;
      this.lists[term]?.push(seq, 1, status | 1);
    }
  }

  /** Records a listing's words (for the vocabulary) without adding its postings or terms. */
  observe(entry: ListingEntry): void {
    for (const texts of Object.values(fieldTexts(entry)))
      for (const word of searchWords(texts.join(' . ')))
        if (!this.words.has(word)) this.words.set(word, -1);
  }

  /** The words a misspelt query word may be corrected to: the listings' words of 4+ letters. */
  vocabulary(): string[] {
    return [...this.words.keys()]
      .filter((word) => word.length >= 4 && /^[a-z]+$/.test(word))
      .sort();
  }
}

/** A stored block's postings, as typed arrays (no object per posting). */
export function decodePostings(bytes: Uint8Array): {
  seqs: Uint32Array;
  weights: Float32Array;
  masks: Uint16Array;
} {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const length = Math.floor(bytes.byteLength / ENTRY);
  const seqs = new Uint32Array(length);
  const weights = new Float32Array(length);
  const masks = new Uint16Array(length);
  for (let i = 0; i < length; i++) {
    seqs[i] = view.getUint32(i * ENTRY, true);
    weights[i] = view.getFloat32(i * ENTRY + 4, true);
    masks[i] = view.getUint16(i * ENTRY + 8, true);
  }
  return { seqs, weights, masks };
}

/** Bytes of `count` postings (to cut an encoded list into blocks). */
export const postingBytes = (count: number): number => count * ENTRY;
