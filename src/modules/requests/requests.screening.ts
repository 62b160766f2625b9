/**
 * Things that plainly look like credentials. Callers must not send them; a request carrying one
 * is refused before anything is stored, and the refusal never repeats the value.
 */
const SECRET_PATTERNS: readonly RegExp[] = [
  /\bhg_[0-9a-f]{48}\b/i, // this service's API keys
  /\brq_[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/, // this service's receipt tokens
  /\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}/, // OpenAI- and Anthropic-style secret keys
  /\bgh[pousr]_[A-Za-z0-9]{36,}\b/, // GitHub tokens
  /\bgithub_pat_[A-Za-z0-9_]{40,}\b/,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/, // AWS access key ids
  /\bxox[abpr]-[A-Za-z0-9-]{10,}/, // Slack tokens
  /-----BEGIN (?:[A-Z]+ )*PRIVATE KEY-----/, // PEM private keys
];

export function looksLikeSecret(text: string): boolean {
  return SECRET_PATTERNS.some((pattern) => pattern.test(text));
}
