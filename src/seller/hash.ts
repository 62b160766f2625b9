import { createHash } from 'node:crypto';

/**
 * A number in [0, 1) determined by its inputs alone: the seller's only source of variety, so
 * the same session and the same offers always get the same answer.
 */
export function unitInterval(...parts: string[]): number {
  const digest = createHash('sha256').update(parts.join('|')).digest();
  return digest.readUInt32BE(0) / 2 ** 32;
}

/** An index in [0, n) determined by its inputs alone. */
export function pick(n: number, ...parts: string[]): number {
  return Math.floor(unitInterval(...parts) * n);
}
