import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statusOfCode } from '../../src/http/errors.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { testDialects } from '../helpers/databases.js';
import { GameClient, UNLIMITED } from '../helpers/game.js';

/**
 * Hostile requests against every operation of /openapi.json: wrong types, huge and unicode
 * strings, NUL, odd numbers, extra fields, garbled credentials and content types. Whatever
 * arrives, the answer is never a 5xx, every error is the envelope with a documented code, and
 * no key, hash, receipt token or hidden price leaks.
 *
 * FUZZ_RUNS sets the cases per operation (300 in the suite; `npm run fuzz` runs 1000).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 300);

interface Operation {
  method: string;
  path: string;
  pathParams: string[];
  query: string[];
  bodyFields: string[];
}

interface OpenApi {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { in: string; name: string }[];
        requestBody?: {
          content: Record<string, { schema: { properties?: Record<string, unknown> } }>;
        };
      }
    >
  >;
}

function operationsOf(document: OpenApi): Operation[] {
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]) => {
      const parameters = operation.parameters ?? [];
      const byPlace = (place: string) =>
        parameters.filter((parameter) => parameter.in === place).map((p) => p.name);
      return {
        method: method.toUpperCase(),
        path,
        pathParams: byPlace('path'),
        query: byPlace('query'),
        bodyFields: Object.keys(
          operation.requestBody?.content['application/json']?.schema.properties ?? {},
        ),
      };
    }),
  );
}

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

describe.each(testDialects)('hostile requests (%s)', (dialect) => {
  let t: TestApp;
  let operations: Operation[];
  let known: string[];
  let secrets: { keys: string[]; tokens: string[] };

  beforeAll(async () => {
    t = await createTestApp(dialect, {
      ...UNLIMITED,
      REQUESTS_DAILY_LIMIT_PER_CLIENT: '1000000',
      REQUESTS_DAILY_LIMIT_TOTAL: '100000000',
    });
    operations = operationsOf((await t.app.inject('/openapi.json')).json<OpenApi>());
    const game = new GameClient(t);
    const player = await game.newPlayer('fuzz');
    const [product] = await game.inStockProducts();
    const session = await game.start(player, product?.id ?? '');
    const filed = await t.app.inject({
      method: 'POST',
      url: '/api/requests',
      payload: { kind: 'capability', task: 'A capability the hostile test asks for.' },
    });
    const receipt = filed.json<{ data: { id: string; token: string } }>().data;
    known = [player.id, product?.id ?? '', session.body.data.id, receipt.id, 'langchain'];
    secrets = { keys: [player.key], tokens: [receipt.token] };
  });
  afterAll(() => t.close());

  const text = () =>
    fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...oddText) },
      { weight: 2, arbitrary: fc.constantFrom(...known) },
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

  /** Refuses the case if the answer breaks the contract; returns nothing otherwise. */
  function checkAnswer(
    operation: Operation,
    status: number,
    bodyText: string,
    contentType: string,
  ): void {
    const where = `${operation.method} ${operation.path} → ${status} ${bodyText.slice(0, 300)}`;
    expect(status, where).toBeLessThan(500);
    // Secret fields never appear; internal names are looked for in errors only, since catalog
    // listings may well mention SQLite or a technology stack.
    expect(bodyText, where).not.toMatch(/_hash|floor_|floorcents|seller_secret/i);
    for (const token of secrets.tokens) expect(bodyText, where).not.toContain(token);
    if (status >= 400) {
      expect(bodyText, where).not.toMatch(/\bstack\b|FST_|SQLITE|pg_/i);
      expect(contentType, where).toMatch(/application\/json/);
      const envelope = JSON.parse(bodyText) as { success: unknown; error: unknown; code: string };
      expect(envelope.success, where).toBe(false);
      expect(typeof envelope.error, where).toBe('string');
      expect(statusOfCode[envelope.code as keyof typeof statusOfCode], where).toBe(status);
    }
  }

  it(`should answer ${RUNS} hostile requests per operation without a 5xx or a leak`, async () => {
    expect(operations.length).toBeGreaterThanOrEqual(20);
    for (const operation of operations) {
      await fc.assert(
        fc.asyncProperty(request(operation), async (sample) => {
          const authorization =
            sample.authorization === 'key'
              ? `Bearer ${secrets.keys.at(-1) ?? ''}`
              : sample.authorization === 'token'
                ? `Bearer ${secrets.tokens[0] ?? ''}`
                : sample.authorization;
          const withBody = operation.method !== 'GET' && operation.method !== 'HEAD';
          const response = await t.app.inject({
            method: operation.method as 'GET',
            url: sample.query === '' ? sample.path : `${sample.path}?${sample.query}`,
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
            if (operation.path.endsWith('rotate-key')) secrets.keys.push(issued);
          }
          const old = secrets.keys.slice(0, issued === undefined ? undefined : -1);
          for (const key of old) expect(response.body).not.toContain(key);
          checkAnswer(
            operation,
            response.statusCode,
            response.body,
            String(response.headers['content-type']),
          );
        }),
        { numRuns: RUNS },
      );
    }
  }, 600_000);

  /** JSON of every type, and objects shaped like a cursor with fields of the wrong type. */
  const forgedCursor = () =>
    fc
      .oneof(
        fc.constantFrom<unknown>(null, 0, -1, 1.5, 1e308, '', 'x', true, [], [1], {}, { v: 1 }),
        fc.constantFrom<unknown>(
          { v: 1, s: null, i: null, f: null },
          { v: 1, s: 12, i: {}, f: [] },
          { v: 1, o: -1, f: '' },
          { v: 1, o: 1e308, f: 'x' },
          { v: 1, o: '5', f: null },
          { v: 2, s: '2026-01-01T00:00:00.000Z', i: 'x', f: null },
          { v: 1, c: 1, n: null, i: [] },
        ),
        fc.jsonValue(),
        fc.record({ v: fc.constant(1) }).chain((base) =>
          fc
            .dictionary(fc.constantFrom('s', 'i', 'f', 'o', 'c', 'n', 'p'), fc.jsonValue(), {
              maxKeys: 4,
            })
            .map((fields) => ({ ...base, ...fields })),
        ),
      )
      .map((value) => Buffer.from(JSON.stringify(value)).toString('base64url'));

  it('should answer forged cursors that decode to any JSON with 400, never a 5xx', async () => {
    const paged = operations.filter((operation) => operation.query.includes('cursor'));
    expect(paged.map((operation) => operation.path)).toEqual(
      expect.arrayContaining(['/api/catalog', '/api/haggle', '/api/products', '/api/transactions']),
    );
    const authorization = `Bearer ${secrets.keys.at(-1) ?? ''}`;
    for (const operation of paged) {
      for (const cursor of ['bnVsbA', 'bnVsbA==', 'MA', 'W10', 'e30', 'InN0cmluZyI']) {
        const response = await t.app.inject({
          url: `${operation.path}?cursor=${cursor}`,
          headers: { authorization },
        });
        expect(response.statusCode, `${operation.path} ${cursor}`).toBe(400);
        expect(response.json()).toMatchObject({ code: 'validation_error' });
      }
      await fc.assert(
        fc.asyncProperty(forgedCursor(), async (cursor) => {
          const response = await t.app.inject({
            url: `${operation.path}?cursor=${cursor}`,
            headers: { authorization },
          });
          checkAnswer(
            operation,
            response.statusCode,
            response.body,
            String(response.headers['content-type']),
          );
        }),
        { numRuns: Math.ceil(RUNS / 3) },
      );
    }
  });
});
