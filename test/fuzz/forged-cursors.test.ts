import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { testDialects } from '../helpers/databases.js';
import { hostileSuite, RUNS } from '../helpers/hostile.js';

/** Cursors forged to decode to any JSON: a 400 for each, never a 5xx, on every paged operation. */
describe.each(testDialects)('hostile requests (%s)', (dialect) => {
  const hostile = hostileSuite(dialect);

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
    const paged = hostile.operations.filter((operation) => operation.query.includes('cursor'));
    expect(paged.map((operation) => operation.path)).toEqual(
      expect.arrayContaining(['/api/catalog', '/api/haggle', '/api/products', '/api/transactions']),
    );
    const authorization = `Bearer ${hostile.secrets.keys.at(-1) ?? ''}`;
    for (const operation of paged) {
      for (const cursor of ['bnVsbA', 'bnVsbA==', 'MA', 'W10', 'e30', 'InN0cmluZyI']) {
        const response = await hostile.t.app.inject({
          url: `${operation.path}?cursor=${cursor}`,
          headers: { authorization },
        });
        expect(response.statusCode, `${operation.path} ${cursor}`).toBe(400);
        // Said so in words true of every list, whichever way it gives its cursors.
        expect(response.json()).toMatchObject({
          code: 'validation_error',
          details: [
            { field: 'cursor', message: expect.stringMatching(/next_cursor.*Link header/) },
          ],
        });
      }
      // Shaped like this service's cursors, with a position it never writes: a time that is
      // not a real one (PostgreSQL refuses it as a timestamp) or an id that is not a UUID.
      const id = '3f1c9a52-8e0b-4a43-9d2e-5b7d4c6a1e90';
      for (const fields of [
        { s: 'not a date', i: id, f: null },
        { s: '2026-13-45T99:00:00.000Z', i: id, f: null },
        { s: '2026-11-23T10:15:30.000Z', i: 'x', f: null },
        { c: 'Books', n: 'x', i: 'x' },
        // The year 0 and a NUL: JavaScript takes them, PostgreSQL refuses them.
        { s: '0000-01-01T00:00:00.000Z', i: id },
        { c: 'Books', n: 'A\u0000B', i: id },
      ]) {
        // With the filters of each list's unfiltered first page, so that only the position is wrong.
        for (const f of [null, '[null,null]', '[null,null,null]']) {
          const forged = { v: 1, f, ...fields };
          const cursor = Buffer.from(JSON.stringify(forged)).toString('base64url');
          const response = await hostile.t.app.inject({
            url: `${operation.path}?cursor=${cursor}`,
            headers: { authorization },
          });
          expect(response.statusCode, `${operation.path} ${JSON.stringify(forged)}`).toBe(400);
        }
      }
      await fc.assert(
        fc.asyncProperty(forgedCursor(), async (cursor) => {
          const url = `${operation.path}?cursor=${cursor}`;
          const response = await hostile.t.app.inject({ url, headers: { authorization } });
          hostile.checkAnswer(
            operation,
            response.statusCode,
            response.body,
            String(response.headers['content-type']),
            url,
          );
        }),
        { numRuns: Math.ceil(RUNS / 3) },
      );
    }
  });
});
