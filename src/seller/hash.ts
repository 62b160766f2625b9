import { createHmac, hash } from 'node:crypto';

/**
 * A number in [0, 1) determined by its inputs alone: the source of variety in the seller's
 * words, so the same session and the same offers always read the same.
 */
export function unitInterval(...parts: string[]): number {
  const digest = hash('sha256', parts.join('|'), 'buffer');
  return digest.readUInt32BE(0) / 2 ** 32;
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
