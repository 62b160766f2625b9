import { hash, randomBytes } from 'node:crypto';

/** Keys and tokens are stored only as this hash; the clear value is shown once, at creation. */
export const sha256Hex = (value: string): string => hash('sha256', value, 'hex');

export const API_KEY_PATTERN = /^hg_[0-9a-f]{48}$/;

export function newApiKey(): { key: string; hash: string } {
  const key = `hg_${randomBytes(24).toString('hex')}`;
  return { key, hash: sha256Hex(key) };
}

/** The credential of an `Authorization: Bearer <credential>` header, or null. */
export function bearerCredential(header: string | undefined): string | null {
  if (header === undefined) return null;
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

/**
 * Things that plainly look like credentials: this service's keys and receipt tokens, and the
 * common shapes of other services' secrets. A capability request carrying one is refused before
 * anything is stored (the refusal never repeats the value), and logged URLs hide them.
 */
const SECRET_PATTERNS: readonly RegExp[] = [
  // This service's own API keys and receipt tokens, wherever they stand: glued to a word or
  // after `%20` (their prefixes make a false alarm unlikely, and one costs nothing).
  /hg_[0-9a-f]{48}/i,
  /rq_[A-Za-z0-9_-]{43}/,
  /\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}/, // OpenAI- and Anthropic-style secret keys
  /\bgh[pousr]_[A-Za-z0-9]{36,}\b/, // GitHub tokens
  /\bgithub_pat_[A-Za-z0-9_]{40,}\b/,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/, // AWS access key ids
  /\bxox[abpr]-[A-Za-z0-9-]{10,}/, // Slack tokens
  /-----BEGIN (?:[A-Z]+ )*PRIVATE KEY-----/, // PEM private keys
];
// Without word boundaries: in a URL a secret follows `%20` or `=`, and a redacted word too many
// costs nothing.
const ANY_SECRET = new RegExp(
  SECRET_PATTERNS.map((pattern) => pattern.source.replaceAll('\\b', '')).join('|'),
  'gi',
);

export function looksLikeSecret(text: string): boolean {
  return SECRET_PATTERNS.some((pattern) => pattern.test(text));
}

/** `text` with everything that looks like a credential replaced by `[redacted]`. */
export const withoutSecrets = (text: string): string => text.replace(ANY_SECRET, '[redacted]');
