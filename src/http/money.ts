import { AppError } from './errors.js';

/**
 * The largest amount any input may name: far above what any player could hold, and far below
 * the money columns' limit (2,147,483,647 cents, a 4-byte integer on PostgreSQL).
 */
const MAX_CENTS = 100_000_000;

/**
 * Turns a client's amount (number or numeric string) into integer cents without float
 * arithmetic: the decimal text itself is split, so 0.1 + 0.2 problems cannot arise.
 */
export function parseCents(input: number | string, field: string): number {
  const text = typeof input === 'number' ? numberText(input) : input.trim();
  const match = text === null ? null : /^(\d+)(?:\.(\d+))?$/.exec(text);
  const [whole = '', decimals = ''] = match === null ? [] : [match[1], match[2]];
  const cents =
    match === null ? null : Number(whole) * 100 + Number(decimals.slice(0, 2).padEnd(2, '0'));
  if (
    cents === null ||
    decimals.length > 2 ||
    cents <= 0 ||
    cents > MAX_CENTS ||
    !Number.isSafeInteger(cents)
  ) {
    const rule = `above 0 and at most ${MAX_CENTS / 100}, with at most 2 decimal places`;
    // What arrived and, when only its decimals are wrong, that amount rounded to cents (half up).
    const rounded = cents === null ? 0 : cents + (Number(decimals[2] ?? 0) >= 5 ? 1 : 0);
    const hint =
      decimals.length > 2 && rounded > 0 && rounded <= MAX_CENTS
        ? ` (rounded to cents: ${formatCents(rounded)})`
        : '';
    const got = `got ${shown(input)}${hint}`;
    throw new AppError('invalid_amount', `${field} must be an amount ${rule}; ${got}.`, {
      details: [{ field, message: `must be an amount ${rule}; ${got}` }],
    });
  }
  return cents;
}

/** An amount as received, short enough to quote in an error: a string in quotes. */
function shown(input: number | string): string {
  if (typeof input === 'number') return String(input);
  return JSON.stringify(input.length > 24 ? `${input.slice(0, 24)}…` : input);
}

const formatCents = (cents: number): string =>
  `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

// JSON numbers arrive as doubles; their shortest round-trip text is what the client wrote.
function numberText(value: number): string | null {
  if (!Number.isFinite(value)) return null;
  const text = String(value);
  return /e/i.test(text) ? null : text;
}

/** Cents to the JSON number the API shows (1234 → 12.34). */
export const centsToCredits = (cents: number): number => cents / 100;
