import type { FastifyRequest } from 'fastify';
import { speaksJsonRpc } from './error-handler.js';
import { AppError, validationHeadline } from './errors.js';

type Done = (error: Error | null, body?: unknown) => void;
type JsonParser = (request: FastifyRequest, text: string, done: Done) => void;

/** Refuses bytes that are no UTF-8 instead of replacing them with U+FFFD. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Half of a surrogate pair (read by code points, a whole pair is one and does not match). */
const LONE_SURROGATE = /\p{Cs}/u;

/** A `\u` escape of a surrogate in JSON text: the only way a lone one gets into a string. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/**
 * The service's JSON body parser around `parse` (Fastify's, which guards the prototype): no body
 * at all is none, whatever Content-Type says (many clients send `Content-Type: application/json`
 * on every request, a DELETE included); the bytes must be UTF-8, which JSON between systems is
 * (RFC 8259, 8.1: a `charset` parameter changes nothing), rather than be stored with their
 * invalid bytes replaced; and a string may not hold half of a surrogate pair (`"\ud800"`), which
 * is no text: each database would store it differently.
 */
export function jsonBodyParser(parse: JsonParser) {
  return (request: FastifyRequest, body: Buffer, done: Done): void => {
    let text: string;
    try {
      text = UTF8.decode(body);
    } catch {
      const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(
        request.headers['content-type'] ?? '',
      )?.[1];
      const said =
        charset === undefined || /^utf-?8$/i.test(charset)
          ? ''
          : ` (JSON is always UTF-8; charset=${charset.slice(0, 40)} is not taken)`;
      done(new AppError('invalid_json', `The body is not valid UTF-8${said}.`));
      return;
    }
    if (text === '') {
      done(null, undefined);
      return;
    }
    parse(request, text, (error, value) => {
      if (error !== null) {
        done(error);
        return;
      }
      // A JSON-RPC message is not refused whole: the MCP tools refuse such an argument where no
      // URL or header can carry it, and the API they call where it reaches a body.
      const field =
        SURROGATE_ESCAPE.test(text) && !speaksJsonRpc(request) ? loneSurrogateIn(value) : undefined;
      if (field === undefined) {
        done(null, value);
        return;
      }
      const details = [
        {
          field: field === '' ? 'body' : field,
          message:
            'holds half of a UTF-16 surrogate pair (a lone \\ud800–\\udfff escape), which is no text',
        },
      ];
      done(new AppError('validation_error', validationHeadline(details), { details }));
    });
  };
}

/** Where a value is in a body: its key, and where the object holding it is (none for the body). */
type Place = { key: string; in: Place } | undefined;

/**
 * The path (`task`, `items.2.name`) of the first string that is no well-formed text, or of the
 * object holding such a key; `''` for the body itself. Walked without recursion: a body may be
 * nested thousands deep.
 */
function loneSurrogateIn(body: unknown): string | undefined {
  const pending: [unknown, Place][] = [[body, undefined]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [value, place] = next;
    if (typeof value === 'string') {
      if (LONE_SURROGATE.test(value)) return pathOf(place);
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    const entries = Object.entries(value);
    if (entries.some(([key]) => LONE_SURROGATE.test(key))) return pathOf(place);
    // Last first: the first is taken next.
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, item] = entries[i] as [string, unknown];
      pending.push([item, { key, in: place }]);
    }
  }
  return undefined;
}

/** A place as a dotted path, cut short past 200 characters. */
function pathOf(place: Place): string {
  const keys: string[] = [];
  for (let at = place; at !== undefined; at = at.in) keys.push(at.key);
  const path = keys.reverse().join('.');
  return path.length > 200 ? `${path.slice(0, 200)}…` : path;
}
