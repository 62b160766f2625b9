import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { testDialects } from '../helpers/databases.js';
import { GameClient, UNLIMITED, type TestPlayer } from '../helpers/game.js';

interface Problem {
  success: false;
  error: string;
  code: string;
  details?: { field: string; message: string }[];
}

describe.each(testDialects)('validation (%s)', (dialect) => {
  let t: TestApp;
  let game: GameClient;
  let player: TestPlayer;
  let sessionId: string;

  beforeAll(async () => {
    t = await createTestApp(dialect, UNLIMITED);
    game = new GameClient(t);
    player = await game.newPlayer();
    const [product] = await game.inStockProducts();
    const started = await game.start(player, product?.id ?? '');
    expect(started.status).toBe(201);
    sessionId = started.body.data.id;
  });
  afterAll(() => t.close());

  const expectFieldProblem = (
    response: { statusCode: number; json: () => unknown },
    field: string,
    message: RegExp,
  ) => {
    expect(response.statusCode).toBe(400);
    const body = response.json() as Problem;
    expect(body).toMatchObject({ success: false, code: 'validation_error' });
    expect(body.details).toContainEqual({ field, message: expect.stringMatching(message) });
    expect(body.error).toMatch(new RegExp(`^The request is invalid: ${field} `));
  };

  describe('errors', () => {
    it.each([
      ['/api/catalog/langchain%00', 'id'],
      ['/api/catalog?category=a%00', 'category'],
      ['/api/catalog?q=lang%00chain', 'q'],
      ['/api/products?search=a%00', 'search'],
      ['/api/players?username=a%00b', 'username'],
    ])('should refuse a NUL character in %s with 400 naming %s', async (url, field) => {
      const response = await t.app.inject({ url, headers: player.auth });
      expectFieldProblem(response, field, /NUL/);
    });

    it.each([
      ['task', { kind: 'capability', task: '\u0000'.repeat(20) }],
      ['task', { kind: 'capability', task: 'A tool that does a thing\u0000 well.' }],
      [
        'contact',
        { kind: 'capability', task: 'A tool that does a thing well.', contact: 'a\u0000' },
      ],
    ])('should refuse a NUL character in a request %s', async (field, payload) => {
      const response = await t.app.inject({ method: 'POST', url: '/api/requests', payload });
      expectFieldProblem(response, field, /NUL/);
    });

    it('should drop a field the route does not take, without refusing or naming it', async () => {
      const filed = await t.app.inject({
        method: 'POST',
        url: '/api/requests',
        payload: {
          kind: 'capability',
          task: 'A tool that does a thing well.',
          floor_cents: 'a\u0000',
        },
      });
      expect(filed.statusCode).toBe(201);
      expect(filed.body).not.toContain('floor_cents');
      const listed = await t.app.inject({
        url: '/api/products?floor_cents=a%00',
        headers: player.auth,
      });
      expect(listed.statusCode).toBe(200);
      expect(listed.body).not.toContain('floor_cents');
    });

    it('should refuse a NUL character in an offer message', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/haggle/offer',
        headers: player.auth,
        payload: { session_id: sessionId, offer_amount: 1, message: 'deal?\u0000' },
      });
      expectFieldProblem(response, 'message', /NUL/);
    });

    it.each(['bnVsbA', 'NQ', 'ImEi', 'e30', '!!!'])(
      'should answer a catalog cursor the service never issued (%s) with 400',
      async (cursor) => {
        const response = await t.app.inject(`/api/catalog?cursor=${cursor}`);
        expectFieldProblem(response, 'cursor', /next_cursor/);
      },
    );

    it.each(['0x10', '1e1', '+5', '%205', '5.0', '', '1_0'])(
      'should take only decimal digits as a number in the query, not limit=%s',
      async (limit) => {
        for (const url of [`/api/catalog?limit=${limit}`, `/api/transactions?limit=${limit}`]) {
          const response = await t.app.inject({ url, headers: player.auth });
          expectFieldProblem(response, 'limit', /^must be a whole number$/);
        }
      },
    );

    it('should read a decimal limit as before, and check its range', async () => {
      const read = await t.app.inject('/api/catalog?limit=3');
      expect(read.json<{ data: { limit: number } }>().data.limit).toBe(3);
      expectFieldProblem(await t.app.inject('/api/catalog?limit=-1'), 'limit', /at least 1/);
    });

    it('should say a query parameter of one value was given more than once', async () => {
      for (const [query, field] of [
        ['kind=tool&kind=agent', 'kind'],
        ['limit=5&limit=5', 'limit'],
        ['q=vector&q=database&q=search', 'q'],
      ] as const) {
        const response = await t.app.inject(`/api/catalog?${query}`);
        const times = query.split('&').length;
        expectFieldProblem(response, field, new RegExp(`^was given ${times} times; give it once$`));
      }
      const products = await t.app.inject('/api/products?category=Books&category=Games');
      expectFieldProblem(products, 'category', /^was given 2 times; give it once$/);
    });

    it('should list the allowed values of an enum', async () => {
      const filed = await t.app.inject({
        method: 'POST',
        url: '/api/requests',
        payload: { kind: 'wish', task: 'A tool that does a thing well.' },
      });
      expectFieldProblem(filed, 'kind', /^must be one of: capability, correction, pilot$/);
    });

    it('should say which field is missing, without validator wording', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/players',
        payload: { email: 'someone@example.com' },
      });
      expectFieldProblem(response, 'username', /^is required$/);
      expect(response.body).not.toMatch(/must have required property|must match|anyOf|schema/);
    });

    it('should say what an amount may be', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/haggle/offer',
        headers: player.auth,
        payload: { session_id: sessionId, offer_amount: true },
      });
      expectFieldProblem(response, 'offer_amount', /^must be a number or a string$/);
      expect(response.json<Problem>().details).toHaveLength(1);
    });

    it('should say in words what a pattern allows', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/players',
        payload: { username: 'two words', email: 'someone@example.com' },
      });
      expectFieldProblem(
        response,
        'username',
        /^may contain only letters A to Z \(without accents\), digits, underscores, dots and hyphens$/,
      );
      expect(response.json<Problem>().error).toBe(
        'The request is invalid: username may contain only letters A to Z (without accents), digits, underscores, dots and hyphens.',
      );
    });

    it('should name lengths in characters and formats by name', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/haggle/accept',
        headers: player.auth,
        payload: { session_id: 'not-a-uuid' },
      });
      expectFieldProblem(response, 'session_id', /^must be a UUID$/);
    });
  });
});
