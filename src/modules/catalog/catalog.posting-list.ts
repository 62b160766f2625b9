// One term's postings as they are gathered (catalog.index.ts) and as they are stored: 10 bytes
// each, heaviest first.

import { grown } from './catalog.words.js';

/** Bytes per stored posting: the listing's seq (u32), weight (f32), mask (u16). */
const ENTRY = 10;

/**
 * Shared by every list until its first posting: a catalog has 100,000s of terms, and a list
 * given its postings whole (`PostingsBuilder.unpack`) never needs arrays of its own.
 */
const NO_SEQS = new Uint32Array(0);
const NO_WEIGHTS = new Float32Array(0);
const NO_MASKS = new Uint16Array(0);

/** One term's postings as they are gathered, in typed arrays that grow (no object per posting). */
export class PostingList {
  length = 0;
  seqs: Uint32Array = NO_SEQS;
  weights: Float32Array = NO_WEIGHTS;
  masks: Uint16Array = NO_MASKS;

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
      const j = order === undefined ? i : (order[i] ?? 0);
      view.setUint32(i * ENTRY, seqs[j] ?? 0, true);
      view.setFloat32(i * ENTRY + 4, weights[j] ?? 0, true);
      view.setUint16(i * ENTRY + 8, masks[j] ?? 0, true);
    }
    return bytes;
  }

  /**
   * Copies the postings, in the order they are stored in, into the arrays from `at` on (a large
   * catalog's are put in order on the thread that gathered them, so that `encode` need not).
   */
  copyStored(seqs: Uint32Array, weights: Float32Array, masks: Uint16Array, at: number): void {
    const order = this.order();
    for (let i = 0; i < this.length; i++) {
      const j = order === undefined ? i : (order[i] ?? 0);
      seqs[at + i] = this.seqs[j] ?? 0;
      weights[at + i] = this.weights[j] ?? 0;
      masks[at + i] = this.masks[j] ?? 0;
    }
  }

  /**
   * Positions by weight (descending), then seq; undefined when they are in that order already.
   * Gathered in seq order (as a load adds them), each posting's key is its weight's bits,
   * inverted, above its position: a typed array of such numbers sorts natively, without a
   * comparator called for every pair.
   */
  private order(): Uint32Array | undefined {
    const { length, seqs, weights } = this;
    let ascending = length < POSITIONS;
    let stored = true;
    for (let i = 0; i < length; i++) {
      const seq = seqs[i] ?? 0;
      const weight = weights[i] ?? 0;
      if (!(weight > 0)) ascending = false;
      if (i === 0) continue;
      const before = seqs[i - 1] ?? 0;
      const heavier = weights[i - 1] ?? 0;
      if (seq <= before) ascending = false;
      if (weight > heavier || (weight === heavier && seq <= before)) stored = false;
    }
    if (stored) return undefined;
    const order = new Uint32Array(length);
    for (let i = 0; i < length; i++) order[i] = i;
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
