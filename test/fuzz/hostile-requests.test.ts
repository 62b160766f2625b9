import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { testDialects } from '../helpers/databases.js';
import { hostileSuite, RUNS, type Operation } from '../helpers/hostile.js';

const oddNumbers = ['1e309', '-0', '0.001', '12.345', '-1', '0', 'NaN', 'Infinity', '1e-7'];
const oddText = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '%zz',
  '%00',
  '../../etc/passwd',
  "' or 1=1 --",
  '"; drop table players; --',
  '😀👍🏽',
  '\u202e\ufeff',
  'langchain',
  'Electronics',
  'null',
  '[]',
  '{}',
  ...oddNumbers,
];

/**
 * Hostile requests against every operation of /openapi.json: wrong types, huge and unicode
 * strings, NUL, odd numbers, extra fields, garbled credentials and content types. Whatever
 * arrives, the answer is never a 5xx, every error is the envelope with a documented code, and
 * no key, hash, receipt token or hidden price leaks. (forged-cursors.test.ts: cursors.)
 */
describe.each(testDialects)('hostile requests (%s)', (dialect) => {
  const hostile = hostileSuite(dialect);

  const text = () =>
    fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...oddText) },
      { weight: 2, arbitrary: fc.constantFrom(...hostile.known) },
      { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
      { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
      { weight: 1, arbitrary: fc.uuid() },
      { weight: 1, arbitrary: fc.nat(5000).map((n) => 'x'.repeat(n)) },
    );

  const jsonValue = () =>
    fc.oneof(
      { weight: 4, arbitrary: text() },
      { weight: 2, arbitrary: fc.double() },
      { weight: 1, arbitrary: fc.integer() },
      { weight: 1, arbitrary: fc.constantFrom(-0, 0.001, 12.345, 1e308, Number.MAX_SAFE_INTEGER) },
      { weight: 1, arbitrary: fc.constantFrom(true, false, null) },
      { weight: 1, arbitrary: fc.array(text(), { maxLength: 3 }) },
      { weight: 1, arbitrary: fc.dictionary(text(), text(), { maxKeys: 2 }) },
    );

  /** A body: the operation's fields (some left out) with hostile values, plus extra fields. */
  const body = (operation: Operation) =>
    fc.oneof(
      {
        weight: 6,
        arbitrary: fc
          .tuple(
            fc.record(
              Object.fromEntries(operation.bodyFields.map((field) => [field, jsonValue()])),
              { requiredKeys: [] },
            ),
            fc.subarray(['credits', 'api_key', 'credits_cents', 'floor_cents', 'id', '__proto__']),
            jsonValue(),
          )
          .map(([fields, extra, value]) => {
            const json = JSON.stringify({
              ...fields,
              ...Object.fromEntries(extra.map((name) => [name, value])),
            });
            return json;
          }),
      },
      {
        weight: 1,
        arbitrary: fc
          .constantFrom(...operation.bodyFields, 'x')
          .chain((field) =>
            fc
              .constantFrom(...oddNumbers)
              .map((number) => `{"${field}": ${number === 'NaN' ? 'NaN' : number}}`),
          ),
      },
      { weight: 1, arbitrary: fc.constantFrom('', '{', '[]', 'null', '"text"', '{"a":1}}') },
      { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 100 }) },
    );

  const request = (operation: Operation) =>
    fc.record({
      path: fc
        .tuple(...operation.pathParams.map(() => fc.tuple(text(), fc.boolean())))
        .map((values) =>
          operation.pathParams.reduce((path, name, index) => {
            const [value, raw] = values[index] ?? ['', false];
            return path.replace(`{${name}}`, raw ? value : encodeURIComponent(value));
          }, operation.path),
        ),
      query: fc
        .subarray([...operation.query, 'api_key', 'token'])
        .chain((names) => fc.tuple(...names.map((name) => text().map((v) => [name, v] as const))))
        .map((pairs) =>
          pairs.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('&'),
        ),
      payload: body(operation),
      contentType: fc.constantFrom(
        'application/json',
        'application/json',
        'application/json; charset=utf-8',
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        '',
      ),
      authorization: fc.oneof(
        fc.constantFrom(undefined, 'Bearer ', 'Basic dXNlcjpwYXNz', 'Bearer hg_' + '0'.repeat(48)),
        fc.constant('key'),
        fc.constant('token'),
        fc.string({ maxLength: 80 }).map((s) => s.replace(/[^\x20-\x7e]/g, '')),
      ),
    });

  it(`should answer ${RUNS} hostile requests per operation without a 5xx or a leak`, async () => {
    expect(hostile.operations.length).toBeGreaterThanOrEqual(20);
    for (const operation of hostile.operations) {
      await fc.assert(
        fc.asyncProperty(request(operation), async (sample) => {
          const authorization =
            sample.authorization === 'key'
              ? `Bearer ${hostile.secrets.keys.at(-1) ?? ''}`
              : sample.authorization === 'token'
                ? `Bearer ${hostile.secrets.tokens[0] ?? ''}`
                : sample.authorization;
          const withBody = operation.method !== 'GET' && operation.method !== 'HEAD';
          const url = sample.query === '' ? sample.path : `${sample.path}?${sample.query}`;
          const response = await hostile.t.app.inject({
            method: operation.method as 'GET',
            url,
            headers: {
              ...(authorization === undefined ? {} : { authorization }),
              ...(withBody && sample.contentType !== ''
                ? { 'content-type': sample.contentType }
                : {}),
            },
            ...(withBody ? { payload: sample.payload } : {}),
          });
          const issued = /"api_key":"(hg_[0-9a-f]{48})"/.exec(response.body)?.[1];
          if (issued !== undefined) {
            // Registration and key rotation issue a key, only to its owner; a rotated key
            // replaces the one the next cases use. No other answer carries a key.
            expect(response.statusCode).toBeLessThan(300);
            expect(operation.path).toMatch(/^\/api\/players(\/\{id\}\/rotate-key)?$/);
            if (operation.path.endsWith('rotate-key')) hostile.secrets.keys.push(issued);
          }
          const old = hostile.secrets.keys.slice(0, issued === undefined ? undefined : -1);
          for (const key of old) expect(response.body).not.toContain(key);
          hostile.checkAnswer(
            operation,
            response.statusCode,
            response.body,
            String(response.headers['content-type']),
            url,
          );
        }),
        { numRuns: RUNS },
      );
    }
  }, 600_000);
});
