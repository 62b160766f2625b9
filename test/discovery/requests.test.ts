import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { testDialects } from '../helpers/databases.js';
import { TASK, type Body, type Receipt } from '../helpers/requests.js';

describe.each(testDialects)('requests (%s)', (dialect) => {
  let t: TestApp;
  const tokens: string[] = [];
  let address = 0;

  /** Each call comes from a new client address, so the per-client daily limit stays out of the way. */
  async function file(
    payload: Record<string, unknown>,
    from = `10.0.${Math.floor(address / 250)}.${(address++ % 250) + 1}`,
  ) {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/requests',
      payload,
      remoteAddress: from,
    });
    const body = response.json<Body<Receipt>>();
    if (response.statusCode === 201) tokens.push(body.data.token);
    return { status: response.statusCode, body, headers: response.headers };
  }
  const read = (id: string, token?: string, method: 'GET' | 'DELETE' = 'GET') =>
    t.app.inject({
      method,
      url: `/api/requests/${id}`,
      headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
    });

  beforeAll(async () => {
    t = await createTestApp(dialect, { PUBLIC_BASE_URL: 'https://bazaar.example.com' });
  });
  afterAll(async () => {
    // Receipt tokens are stored only as hashes and never logged.
    expect(tokens.length).toBeGreaterThan(5);
    const logs = t.logs.join('\n');
    const rows = JSON.stringify(
      await t.store.db.selectFrom('capability_requests').selectAll().execute(),
    );
    const file =
      dialect === 'sqlite' && t.config.database.dialect === 'sqlite'
        ? readFileSync(t.config.database.path).toString('latin1')
        : '';
    for (const token of tokens) {
      expect(logs).not.toContain(token);
      expect(rows).not.toContain(token);
      expect(file).not.toContain(token);
    }
    await t.close();
  });

  describe('happy', () => {
    it('should file a request and return a private receipt with an absolute status URL', async () => {
      const { status, body, headers } = await file({
        task: `  ${TASK}  `,
        kind: 'capability',
        // Listing ids are lower-case slugs, named in any case.
        capability_id: 'PGVector',
        client: 'muse',
        blocker: 'missing_capability',
        contact: ' ops@example.com ',
      });
      expect(status).toBe(201);
      expect(body.data.token).toMatch(/^rq_[A-Za-z0-9_-]{43}$/);
      expect(body.data.status_url).toBe(`https://bazaar.example.com/api/requests/${body.data.id}`);
      expect(headers.location).toBe(body.data.status_url);

      const detail = await read(body.data.id, body.data.token);
      expect(detail.statusCode).toBe(200);
      expect(detail.json<Body>().data).toEqual({
        id: body.data.id,
        kind: 'capability',
        task: TASK,
        contact: 'ops@example.com',
        client: 'muse',
        blocker: 'missing_capability',
        capability_id: 'pgvector',
        status: 'received',
        response: null,
        listing_change_id: null,
        created_at: expect.stringMatching(/Z$/),
        updated_at: expect.stringMatching(/Z$/),
      });
      const row = await t.store.db
        .selectFrom('capability_requests')
        .select('token_hash')
        .where('id', '=', body.data.id)
        .executeTakeFirstOrThrow();
      expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
    });

    it.each([
      ['an empty contact', { kind: 'pilot', contact: '   ' }],
      [
        'optional fields sent as null',
        { kind: 'capability', contact: null, client: null, blocker: null, capability_id: null },
      ],
    ])('should fill defaults and store null for %s', async (_, fields) => {
      const { status, body } = await file({ task: TASK, ...fields });
      expect(status).toBe(201);
      const data = (await read(body.data.id, body.data.token)).json<Body>().data;
      expect(data).toMatchObject({
        client: 'unspecified',
        blocker: null,
        contact: null,
        capability_id: null,
      });
    });

    it('should refuse a required field sent as null', async () => {
      const noTask = await file({ task: null, kind: 'capability' });
      expect(noTask.status).toBe(400);
      expect(noTask.body).toMatchObject({
        code: 'validation_error',
        details: [{ field: 'task', message: 'must be a string' }],
      });
    });

    it('should delete a request for good with its token', async () => {
      const { body } = await file({ task: TASK, kind: 'correction' });
      const deleted = await read(body.data.id, body.data.token, 'DELETE');
      expect(deleted.statusCode).toBe(200);
      expect(deleted.json()).toEqual({ success: true, data: { id: body.data.id, deleted: true } });
      const rows = await t.store.db
        .selectFrom('capability_requests')
        .select('id')
        .where('id', '=', body.data.id)
        .execute();
      expect(rows).toEqual([]);
    });

    it('should read and delete a request whose id is sent in capitals', async () => {
      const { body } = await file({ task: TASK, kind: 'capability' });
      const upper = body.data.id.toUpperCase();
      const shown = await read(upper, body.data.token);
      expect(shown.statusCode).toBe(200);
      expect(shown.json<Body<{ id: string }>>().data.id).toBe(body.data.id);
      const deleted = await read(upper, body.data.token, 'DELETE');
      expect(deleted.statusCode).toBe(200);
      expect(deleted.json()).toEqual({ success: true, data: { id: body.data.id, deleted: true } });
    });
  });

  describe('errors', () => {
    it.each([
      ['task of 11 characters', { task: 'x'.repeat(11), kind: 'capability' }, 400, 'task'],
      ['task of 12 characters', { task: 'x'.repeat(12), kind: 'capability' }, 201, null],
      [
        'task of 12 characters after trimming',
        { task: `   ${'x'.repeat(11)}   `, kind: 'capability' },
        400,
        'task',
      ],
      [
        'task of zero-width spaces and joiners only',
        { task: '\u200b\u200c\u200d\u2060'.repeat(4), kind: 'capability' },
        400,
        'task',
      ],
      [
        'task of 11 characters between zero-width spaces',
        { task: `\u200b\ufeff${'x'.repeat(11)}\u200b`, kind: 'capability' },
        400,
        'task',
      ],
      ['task of 3000 characters', { task: 'é'.repeat(3000), kind: 'capability' }, 201, null],
      ['task of 3001 characters', { task: 'x'.repeat(3001), kind: 'capability' }, 400, 'task'],
      [
        'task of 3000 emoji (6000 UTF-16 units)',
        { task: '🛠'.repeat(3000), kind: 'capability' },
        201,
        null,
      ],
      [
        'contact of 254 characters',
        { task: TASK, kind: 'capability', contact: 'c'.repeat(254) },
        201,
        null,
      ],
      [
        'contact of 255 characters',
        { task: TASK, kind: 'capability', contact: 'c'.repeat(255) },
        400,
        'contact',
      ],
      ['missing task', { kind: 'capability' }, 400, 'task'],
      ['missing kind', { task: TASK }, 400, 'kind'],
      ['unknown kind', { task: TASK, kind: 'wish' }, 400, 'kind'],
      ['unknown client', { task: TASK, kind: 'pilot', client: 'browser' }, 400, 'client'],
      ['unknown blocker', { task: TASK, kind: 'pilot', blocker: 'time' }, 400, 'blocker'],
      [
        'unknown capability',
        { task: TASK, kind: 'correction', capability_id: 'no-such-tool' },
        400,
        'capability_id',
      ],
      ['task as a number', { task: 123456789012, kind: 'capability' }, 400, 'task'],
    ])('should answer a %s with %i', async (_name, payload, status, field) => {
      const before = await t.store.db
        .selectFrom('capability_requests')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      const { status: actual, body } = await file(payload);
      expect(actual).toBe(status);
      if (field !== null) {
        expect(body.code).toBe('validation_error');
        expect(body.details?.map((detail) => detail.field)).toContain(field);
        const after = await t.store.db
          .selectFrom('capability_requests')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow();
        expect(after.n).toBe(before.n);
      }
    });

    it.each([
      ['one of our API keys', `my key is hg_${'a1'.repeat(24)} please help`],
      ['a receipt token', `token rq_${'A'.repeat(43)} again`],
      ['an API key glued to a word', `my key is xhg_${'a1'.repeat(24)}_old`],
      [
        'an API key after an encoded space',
        `GET /api/players/me?x=1%20hg_${'a1'.repeat(24)}%20 fails`,
      ],
      ['a receipt token glued to a digit', `see 1rq_${'A'.repeat(43)} receipt`],
      ['an OpenAI-style key', 'use sk-proj-abcdefghijklmnopqrstuvwx1234 for it'],
      ['a GitHub token', `ghp_${'a'.repeat(36)} is my token`],
      ['an AWS access key id', 'AKIAIOSFODNN7EXAMPLE is the access key'],
      ['a PEM private key', '-----BEGIN RSA PRIVATE KEY-----\nMIIE...'],
    ])('should refuse a task containing %s without storing or echoing it', async (_name, task) => {
      const { status, body } = await file({ task, kind: 'capability' });
      expect(status).toBe(400);
      expect(body.code).toBe('contains_secret');
      expect(JSON.stringify(body)).not.toContain(task.slice(0, 20));
      const secretInContact = await file({
        task: TASK,
        kind: 'capability',
        contact: task.slice(0, 250),
      });
      expect(secretInContact.body.code).toBe('contains_secret');
    });
  });

  describe('security', () => {
    it('should answer the same 404 for a missing, malformed or wrong token, an unknown id and a deleted request', async () => {
      const { body } = await file({ task: TASK, kind: 'capability' });
      const { body: other } = await file({ task: TASK, kind: 'capability' });
      const gone = await file({ task: TASK, kind: 'capability' });
      await read(gone.body.data.id, gone.body.data.token, 'DELETE');
      const attempts = [
        read(body.data.id),
        read(body.data.id, 'not-a-token'),
        read(body.data.id, `rq_${'x'.repeat(43)}`),
        read(body.data.id, other.data.token), // another request's token
        read('3f1c9a52-8e0b-4a43-9d2e-5b7d4c6a1e90', body.data.token),
        read('not-a-uuid', body.data.token),
        read('a'.repeat(300), body.data.token),
        read(gone.body.data.id, gone.body.data.token),
        read(body.data.id, other.data.token, 'DELETE'),
        read(gone.body.data.id, gone.body.data.token, 'DELETE'),
      ];
      for (const response of await Promise.all(attempts)) {
        expect(response.statusCode).toBe(404);
        expect(response.body).toBe(
          JSON.stringify({
            success: false,
            error:
              'Request not found: no request has this id with this receipt token (the rq_… token given when it was filed, sent as the bearer token). A deleted request is gone for good.',
            code: 'not_found',
          }),
        );
      }
      expect((await read(body.data.id, body.data.token)).statusCode).toBe(200);
    });

    it('should ignore fields that do not belong in a request', async () => {
      const { body } = await file({
        task: TASK,
        kind: 'capability',
        status: 'completed',
        response: 'Done!',
        id: '3f1c9a52-8e0b-4a43-9d2e-5b7d4c6a1e90',
        token_hash: 'f'.repeat(64),
      });
      const data = (await read(body.data.id, body.data.token)).json<Body>().data;
      expect(data).toMatchObject({ status: 'received', response: null });
      expect(data.id).not.toBe('3f1c9a52-8e0b-4a43-9d2e-5b7d4c6a1e90');
    });
  });
});
