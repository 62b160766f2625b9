import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Keys and tokens are stored only as this hash; the clear value is shown once, at creation. */
export const sha256Hex = (value: string): string => hash('sha256', value, 'hex');

export const API_KEY_PATTERN = /^hg_[0-9a-f]{48}$/;

export function newApiKey(): { key: string; hash: string } {
  const key = `hg_${randomBytes(24).toString('hex')}`;
  return { key, hash: sha256Hex(key) };
}

/** Compares two hex digests without leaking through timing where they first differ. */
export function sameDigest(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The credential of an `Authorization: Bearer <credential>` header, or null. */
export function bearerCredential(header: string | undefined): string | null {
  if (header === undefined) return null;
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}
