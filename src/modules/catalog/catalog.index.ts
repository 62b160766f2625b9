// The search index of one listing: what each of its words weighs (BM25F), and how a term's
// postings are stored. Pure functions, the same for both databases (docs/discovery.md, "Ranking").

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

export interface Posting {
  /** The term's saturated, weighted frequency in the listing (idf is applied per query). */
  weight: number;
  /** Bit i: found in FIELD_NAMES[i]; above STATUS_SHIFT: the listing's status. */
  mask: number;
}

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

/** A listing's terms (stems) and what each weighs in it, plus its exact-name terms. */
export function listingPostings(entry: ListingEntry): Map<string, Posting> {
  const status = Math.max(0, STATUS_CODES.indexOf(entry.status)) << STATUS_SHIFT;
  const frequencies = new Map<string, { tf: number; mask: number }>();
  for (const [bit, [field, texts]] of Object.entries(fieldTexts(entry)).entries()) {
    const { weight, length, b } = FIELDS[field as Field];
    const words = searchWords(texts.join(' . '));
    const norm = weight / (1 - b + (b * Math.max(words.length, 1)) / length);
    for (const word of words) {
      const term = stem(word);
      const seen = frequencies.get(term) ?? { tf: 0, mask: status };
      seen.tf += norm;
      seen.mask |= 1 << bit;
      frequencies.set(term, seen);
    }
  }
  const postings = new Map<string, Posting>();
  for (const [term, { tf, mask }] of frequencies)
    postings.set(term, { weight: Math.fround((tf * (K1 + 1)) / (K1 + tf)), mask });
  const { aliases } = fieldTexts(entry);
  for (const text of [entry.name, ...aliases]) {
    const key = nameKey(text);
    if (key !== '') postings.set(exactTerm(key), { weight: 1, mask: status | 1 });
  }
  return postings;
}

/** The words a misspelt query word may be corrected to: a listing's words of 4+ letters. */
export function vocabularyOf(entry: ListingEntry): string[] {
  const texts = Object.values(fieldTexts(entry)).flat();
  return searchWords(texts.join(' ')).filter((word) => word.length >= 4 && /^[a-z]+$/.test(word));
}

/** Bytes per stored posting: the listing's seq (u32), weight (f32), mask (u16). */
const ENTRY = 10;

export interface PostingList {
  seqs: number[];
  weights: number[];
  masks: number[];
}

export function encodePostings(list: PostingList, from: number, to: number): Buffer {
  const buffer = Buffer.alloc((to - from) * ENTRY);
  for (let i = from; i < to; i++) {
    const at = (i - from) * ENTRY;
    buffer.writeUInt32LE(list.seqs[i] ?? 0, at);
    buffer.writeFloatLE(list.weights[i] ?? 0, at + 4);
    buffer.writeUInt16LE(list.masks[i] ?? 0, at + 8);
  }
  return buffer;
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

export const emptyList = (): PostingList => ({ seqs: [], weights: [], masks: [] });
