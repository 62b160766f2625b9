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
  const match = text === null ? null : /^(\d+)(?:\.(\d{1,2}))?$/.exec(text);
  const cents =
    match === null ? null : Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  if (cents === null || cents <= 0 || cents > MAX_CENTS || !Number.isSafeInteger(cents)) {
    const rule = `above 0 and at most ${MAX_CENTS / 100}, with at most 2 decimal places`;
    throw new AppError('invalid_amount', `${field} must be an amount ${rule}.`, {
      details: [{ field, message: `must be a number ${rule}` }],
    });
  }
  return cents;
}

// JSON numbers arrive as doubles; their shortest round-trip text is what the client wrote.
function numberText(value: number): string | null {
  if (!Number.isFinite(value)) return null;
  const text = String(value);
  return /e/i.test(text) ? null : text;
}

/** Cents to the JSON number the API shows (1234 → 12.34). */
export const centsToCredits = (cents: number): number => cents / 100;
