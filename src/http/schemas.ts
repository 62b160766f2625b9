import { Type, type TSchema } from 'typebox';
import { errorCodes, statusOfCode, type ErrorCode } from './errors.js';

/**
 * A string schema with a pattern says in words what the pattern allows, as the rest of an error
 * phrase after the field's name ("may contain only …"); the OpenAPI document shows it too.
 */
export const PATTERN_MESSAGE = 'x-pattern-message';

/**
 * Success envelope: `{ success: true, data }`, with what the answer means (the OpenAPI
 * document's response description, read by people and by code generators).
 */
export const Envelope = <T extends TSchema>(data: T, description: string) =>
  Type.Object({ success: Type.Literal(true), data }, { description });

export const ErrorBody = Type.Object(
  {
    success: Type.Literal(false),
    error: Type.String({ description: 'One readable sentence saying what went wrong.' }),
    code: Type.Unsafe<ErrorCode>({
      type: 'string',
      enum: errorCodes,
      description: 'Stable machine-readable code.',
    }),
    details: Type.Optional(
      Type.Array(
        Type.Object({
          field: Type.String({ example: 'offer_amount' }),
          message: Type.String({ example: 'must be a number with at most 2 decimal places' }),
        }),
        {
          description:
            'Present on validation failures, `invalid_amount` and `contains_secret`: one entry per offending field.',
        },
      ),
    ),
  },
  { $id: 'Error', description: 'Every failure in both areas has this shape.' },
);

const errorReference = Type.Unsafe<{ success: false; error: string; code: ErrorCode }>({
  $ref: 'Error#',
});

/**
 * Response schemas for the failures a route can answer with, one entry per status, each
 * naming its codes. Every route also answers 500 `internal_error` and 503 `storage_unavailable`.
 */
export function errorResponses(...codes: ErrorCode[]): Record<number, TSchema> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of [...codes, 'internal_error', 'storage_unavailable'] as ErrorCode[]) {
    const status = statusOfCode[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, statusCodes]) => [
      status,
      Type.Unsafe({ ...errorReference, description: `Error: ${statusCodes.join(', ')}` }),
    ]),
  );
}

export const Uuid = (description?: string) =>
  Type.String({ format: 'uuid', example: '3f1c9a52-8e0b-4a43-9d2e-5b7d4c6a1e90', description });

export const Timestamp = (description?: string) =>
  Type.String({ format: 'date-time', example: '2026-11-23T10:15:30.000Z', description });

/** Money in responses: credits as a number with at most 2 decimals (100.00 → 100). */
export const Money = (description?: string) =>
  Type.Number({ example: 42.5, description: description ?? 'Credits, at most 2 decimal places.' });

/** Money in requests: a JSON number or a numeric string; parsed to cents by `parseCents`. */
export const MoneyInput = (description?: string) =>
  Type.Union([Type.Number(), Type.String({ maxLength: 32 })], {
    example: 42.5,
    description:
      description ??
      'Credits as a number or numeric string, more than 0, at most 2 decimal places.',
  });
