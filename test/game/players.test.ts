import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/http/secrets.js';
import { rotateKey } from '../../src/modules/players/players.service.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { testDialects } from '../helpers/databases.js';
import { expectNoSecretsIn } from '../helpers/game-checks.js';
import { GameClient, UNLIMITED } from '../helpers/game.js';

interface LinkHolder {
  headers: Record<string, unknown>;
}

describe.each(testDialects)('players (%s)', (dialect) => {
  let t: TestApp;
  let client: GameClient;

  beforeAll(async () => {
    t = await createTestApp(dialect, UNLIMITED);
    client = new GameClient(t);
  });
  afterAll(async () => {
    await expectNoSecretsIn(client);
    await t.close();
  });

  describe('happy', () => {
    it('should register a new player with a one-time key and 100 credits', async () => {
      const { status, body, response } = await client.post('/api/players', {
        username: 'Alice_1',
        email: 'alice1@example.com',
      });
      expect(status).toBe(201);
      expect(response.headers.location).toBe(
        `http://localhost:80/api/players/${String(body.data.id)}`,
      );
      expect(body.success).toBe(true);
      expect(body.data).toMatchObject({
        username: 'Alice_1',
        email: 'alice1@example.com',
        credits: 100,
        total_market_value: 0,
        total_spent: 0,
      });
      expect(body.data.api_key).toMatch(/^hg_[0-9a-f]{48}$/);
      expect(body.data.id).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
    });

    it('should store only a hash of the key', async () => {
      const player = await client.newPlayer();
      const row = await t.store.db
        .selectFrom('players')
        .selectAll()
        .where('id', '=', player.id)
        .executeTakeFirstOrThrow();
      expect(JSON.stringify(row)).not.toContain(player.key);
      expect(row.api_key_hash).toMatch(/^[0-9a-f]{64}$/);
    });

    it('should return the existing player without a key when the username is registered again', async () => {
      const player = await client.newPlayer('again');
      const { status, body } = await client.post('/api/players', {
        username: player.username.toUpperCase(),
        email: 'someone-else@example.com',
      });
      expect(status).toBe(200);
      expect(body.data.id).toBe(player.id);
      expect(body.data).not.toHaveProperty('api_key');
      expect(body.data.email).toBeNull();
    });

    it('should show the e-mail of an existing player only when the request named it', async () => {
      const player = await client.newPlayer('mail');
      const { status, body } = await client.post('/api/players', {
        username: player.username,
        email: player.email.toUpperCase(),
      });
      expect(status).toBe(200);
      expect(body.data.email).toBe(player.email);
      expect(body.data).not.toHaveProperty('api_key');
    });

    it('should list players, show e-mails only on your own record, and filter exactly', async () => {
      const me = await client.newPlayer('me');
      const other = await client.newPlayer('other');
      const all = await client.get<{ id: string; email: string | null }[]>('/api/players', me);
      expect(all.status).toBe(200);
      expect(all.body.data.find((row) => row.id === me.id)?.email).toBe(me.email);
      expect(all.body.data.find((row) => row.id === other.id)?.email).toBeNull();
      const byName = await client.get<{ id: string }[]>(
        `/api/players?username=${other.username}`,
        me,
      );
      expect(byName.body.data.map((row) => row.id)).toEqual([other.id]);
      const byEmail = await client.get<{ id: string }[]>(
        `/api/players?email=${encodeURIComponent(other.email)}`,
        me,
      );
      expect(byEmail.body.data.map((row) => row.id)).toEqual([other.id]);
      const partial = await client.get<unknown[]>(
        `/api/players?username=${other.username.slice(0, 4)}`,
        me,
      );
      expect(partial.body.data).toEqual([]);
    });

    it('should page through every player with the Link header, none twice and none left out', async () => {
      const me = await client.newPlayer('pager');
      for (let i = 0; i < 4; i++) await client.newPlayer('paged');
      const everyone = (await client.get<{ id: string }[]>('/api/players', me)).body.data;
      expect(everyone.length).toBeGreaterThanOrEqual(5);
      const seen: string[] = [];
      let url: string | undefined = '/api/players?limit=2';
      while (url !== undefined) {
        const page: { status: number; body: { data: { id: string }[] }; response: LinkHolder } =
          await client.get<{ id: string }[]>(url, me);
        expect(page.status).toBe(200);
        expect(page.body.data.length).toBeLessThanOrEqual(2);
        seen.push(...page.body.data.map((row) => row.id));
        const link: unknown = page.response.headers.link;
        const next: string | undefined =
          typeof link === 'string' ? /<([^>]+)>; rel="next"/.exec(link)?.[1] : undefined;
        url = next === undefined ? undefined : new URL(next).pathname + new URL(next).search;
      }
      expect(seen).toEqual(everyone.map((row) => row.id));
    });

    it('should refuse a cursor with filters other than those it was issued for', async () => {
      const me = await client.newPlayer('cursor');
      const other = await client.newPlayer('cursor');
      const first = await client.get<{ id: string }[]>('/api/players?limit=1', me);
      const link = String(first.response.headers.link);
      const cursor = /cursor=([^&>]+)/.exec(link)?.[1] ?? '';
      expect(cursor).not.toBe('');
      for (const filter of [
        `username=${other.username}`,
        `email=${encodeURIComponent(other.email)}`,
      ]) {
        const refused = await client.get(`/api/players?limit=1&${filter}&cursor=${cursor}`, me);
        expect(refused.status, filter).toBe(400);
        expect(refused.body, filter).toMatchObject({
          code: 'validation_error',
          details: [{ field: 'cursor' }],
        });
      }
      expect((await client.get(`/api/players?limit=1&cursor=${cursor}`, me)).status).toBe(200);
    });

    it('should read one player and their stats', async () => {
      const me = await client.newPlayer();
      const other = await client.newPlayer();
      const read = await client.get(`/api/players/${other.id}`, me);
      expect(read.status).toBe(200);
      expect(read.body.data).toMatchObject({
        id: other.id,
        username: other.username,
        email: null,
        credits: 100,
      });
      const stats = await client.get(`/api/players/${other.id}/stats`, me);
      expect(stats.body.data).toEqual({
        player_id: other.id,
        username: other.username,
        credits: 100,
        total_market_value: 0,
        total_spent: 0,
        score: 0,
        rank: null,
        total_transactions: 0,
        total_savings: 0,
        active_sessions: 0,
        completed_sessions: 0,
        best_deal_percentage: 0,
      });
    });

    it('should tell a key its own player, with its e-mail, at /api/players/me', async () => {
      const me = await client.newPlayer('me');
      const { status, body } = await client.get<{ id: string; email: string | null }>(
        '/api/players/me',
        me,
      );
      expect(status).toBe(200);
      expect(body.data).toMatchObject({ id: me.id, username: me.username, credits: 100 });
      expect(body.data.email).not.toBeNull();
      const anonymous = await t.app.inject({ url: '/api/players/me' });
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json()).toMatchObject({ code: 'unauthorized' });
    });

    it('should rotate a key so that the old one stops working at once', async () => {
      const me = await client.newPlayer();
      const rotated = await client.post<{ api_key: string }>(
        `/api/players/${me.id}/rotate-key`,
        {},
        me,
      );
      expect(rotated.status).toBe(200);
      expect(rotated.body.data.api_key).toMatch(/^hg_[0-9a-f]{48}$/);
      expect(rotated.body.data.api_key).not.toBe(me.key);
      expect((await client.get(`/api/players/${me.id}`, me)).status).toBe(401);
      const fresh = { ...me, auth: { authorization: `Bearer ${rotated.body.data.api_key}` } };
      expect((await client.get(`/api/players/${me.id}`, fresh)).status).toBe(200);
    });

    it('should let only one of two rotations made with one key at once hand out a key', async () => {
      const me = await client.newPlayer();
      // Both rotations were authenticated with the same key before either replaced it.
      const viewer = { id: me.id, keyHash: sha256Hex(me.key) };
      const first = await rotateKey(t.store, viewer, me.id);
      await expect(rotateKey(t.store, viewer, me.id)).rejects.toMatchObject({
        code: 'unauthorized',
      });
      const works = (key: string) =>
        client.get('/api/players/me', { ...me, auth: { authorization: `Bearer ${key}` } });
      expect((await works(first.api_key)).status).toBe(200);
      expect((await works(me.key)).status).toBe(401);

      // Over HTTP, however the requests interleave: every key answered 200 works.
      const racers = await Promise.all(
        Array.from({ length: 4 }, () =>
          client.post<{ api_key: string }>(
            `/api/players/${me.id}/rotate-key`,
            {},
            {
              ...me,
              auth: { authorization: `Bearer ${first.api_key}` },
            },
          ),
        ),
      );
      const handedOut = racers.filter((racer) => racer.status === 200);
      expect(handedOut).toHaveLength(1);
      for (const racer of racers.filter((each) => each.status !== 200)) {
        expect(racer.status).toBe(401);
      }
      for (const racer of handedOut)
        expect((await works(racer.body.data.api_key)).status).toBe(200);
    });
  });

  describe('errors', () => {
    it.each([
      [{ username: 'ab', email: 'ab@example.com' }, 'username'],
      [{ username: 'a'.repeat(33), email: 'long@example.com' }, 'username'],
      [{ username: 'has space', email: 'space@example.com' }, 'username'],
      [{ username: 'valid_name', email: 'not-an-email' }, 'email'],
      [{ username: 'valid_name', email: `${'a'.repeat(250)}@example.com` }, 'email'],
      [{ email: 'missing@example.com' }, 'username'],
      [{ username: 'missing_mail' }, 'email'],
    ])('should refuse registration %j with 400 naming %s', async (payload, field) => {
      const { status, body } = await client.post('/api/players', payload);
      expect(status).toBe(400);
      expect(body.code).toBe('validation_error');
      expect(JSON.stringify(body)).toContain(field);
    });

    it('should refuse a username of one player with the e-mail of another with 409 identity_conflict', async () => {
      const a = await client.newPlayer();
      const b = await client.newPlayer();
      const { status, body } = await client.post('/api/players', {
        username: a.username,
        email: b.email,
      });
      expect(status).toBe(409);
      expect(body.code).toBe('identity_conflict');
    });

    it('should answer 404 for an unknown player and 400 for a malformed id', async () => {
      const me = await client.newPlayer();
      expect(
        (await client.get('/api/players/6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b', me)).body.code,
      ).toBe('not_found');
      const bad = await client.get('/api/players/not-a-uuid', me);
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe('validation_error');
      expect(bad.body.details).toEqual([{ field: 'id', message: 'must be a UUID' }]);
      // `me` in another player path: the answer says where `me` works.
      for (const answer of [
        await client.get('/api/players/me/stats', me),
        await client.post('/api/players/me/rotate-key', {}, me),
      ]) {
        expect(answer.status).toBe(400);
        expect(answer.body.details).toEqual([
          {
            field: 'id',
            message:
              'must be a player’s UUID: `me` is only the path GET /api/players/me, whose answer gives your id',
          },
        ]);
      }
      expect((await client.get('/api/players/me', me)).status).toBe(200);
    });
  });

  describe('security', () => {
    it.each([
      ['no header', undefined, /^An API key is required: .*registers a player/],
      ['a malformed key', 'Bearer hg_123', /^That is not an API key: .*48 hexadecimal/],
      [
        'a quoted key',
        `Bearer "hg_${'0'.repeat(48)}"`,
        /^That is not an API key: .*without quotes/,
      ],
      ['an unknown key', `Bearer hg_${'0'.repeat(48)}`, /^This API key is not valid: .*rotation/],
      [
        'another scheme',
        `Basic ${Buffer.from('a:b').toString('base64')}`,
        /^The Authorization header must be the word Bearer/,
      ],
    ])(
      'should answer 401 with WWW-Authenticate for %s, saying what to fix',
      async (_label, authorization, sentence) => {
        const response = await t.app.inject({
          url: '/api/players',
          headers: authorization === undefined ? {} : { authorization },
        });
        expect(response.statusCode).toBe(401);
        expect(response.headers['www-authenticate']).toBe('Bearer');
        expect(response.json()).toMatchObject({ success: false, code: 'unauthorized' });
        expect(response.json<{ error: string }>().error).toMatch(sentence);
      },
    );

    it("should not let a player rotate another player's key", async () => {
      const me = await client.newPlayer();
      const other = await client.newPlayer();
      const { status, body } = await client.post(`/api/players/${other.id}/rotate-key`, {}, me);
      expect(status).toBe(403);
      expect(body.code).toBe('forbidden');
      expect((await client.get(`/api/players/${other.id}`, other)).status).toBe(200);
    });

    it('should ignore credits and totals sent at registration', async () => {
      const { body } = await client.post('/api/players', {
        username: 'greedy_one',
        email: 'greedy@example.com',
        credits: 1_000_000,
        total_market_value: 500,
        api_key: `hg_${'1'.repeat(48)}`,
      });
      expect(body.data).toMatchObject({ credits: 100, total_market_value: 0 });
      expect(body.data.api_key).not.toBe(`hg_${'1'.repeat(48)}`);
    });

    it('should give one player when the same registration races', async () => {
      const payload = { username: 'racer_x', email: 'racer@example.com' };
      const results = await Promise.all(
        Array.from({ length: 10 }, () => client.post<{ id: string }>('/api/players', payload)),
      );
      expect(results.filter((result) => result.status === 201)).toHaveLength(1);
      expect(results.every((result) => result.status === 201 || result.status === 200)).toBe(true);
      expect(new Set(results.map((result) => result.body.data.id)).size).toBe(1);
    });
  });
});
