import { createHmac } from 'node:crypto';

/**
 * A number in [0, 1) determined by its inputs alone: the source of variety in the seller's
 * words, so the same session and the same offers always read the same. Its inputs are no secret,
 * so neither is the hash: 32-bit FNV-1a over the parts (joined by `|`), then MurmurHash3's
 * finalizer so that every input bit moves every output bit. A reply replays the session's words
 * (up to 80 of these in round 8); SHA-256 took two thirds of the seller's time.
 */
export function unitInterval(...parts: string[]): number {
  let h = 0x811c9dc5;
  for (let p = 0; p < parts.length; p++) {
    if (p > 0) h = Math.imul(h ^ 0x7c, 0x01000193);
    const part = parts[p] ?? '';
    for (let i = 0; i < part.length; i++) h = Math.imul(h ^ part.charCodeAt(i), 0x01000193);
  }
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return ((h ^ (h >>> 16)) >>> 0) / 2 ** 32;
}

/**
 * A number in [0, 1) from a keyed hash: without the key it cannot be computed, so a buyer who
 * knows every other input still cannot predict it.
 */
export function keyedUnitInterval(key: string, ...parts: string[]): number {
  const digest = createHmac('sha256', key).update(parts.join('|')).digest();
  return digest.readUInt32BE(0) / 2 ** 32;
}

/** An index in [0, n) determined by its inputs alone. */
export function pick(n: number, ...parts: string[]): number {
  return Math.floor(unitInterval(...parts) * n);
}
