import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { testDialects } from '../helpers/databases.js';
import { expectNoSecretsIn } from '../helpers/game-checks.js';
import { GameClient, type TestPlayer } from '../helpers/game.js';
import { KEY_ROTATIONS_PER_MINUTE } from '../../src/http/rate-limit.js';
import { register } from '../../src/modules/players/players.service.js';

describe.each(testDialects)('rate limits (%s)', (dialect) => {
  let t: TestApp;
  let client: GameClient;

  beforeAll(async () => {
    t = await createTestApp(dialect, {
      REGISTRATION_RATE_LIMIT_PER_HOUR: '3',
      GAME_RATE_LIMIT_PER_MINUTE: '5',
    });
    client = new GameClient(t);
  });
  afterAll(async () => {
    await expectNoSecretsIn(client);
    await t.close();
  });

  async function registered(username: string): Promise<TestPlayer> {
    const result = await register(t.store, { username, email: `${username}@example.com` });
    if (!result.created) throw new Error(`${username} exists already`);
    const key = result.player.api_key;
    return {
      id: result.player.id,
      username,
      email: `${username}@example.com`,
      key,
      auth: { authorization: `Bearer ${key}` },
    };
  }

  it('should refuse registrations beyond the hourly limit per address with Retry-After', async () => {
    const first = await client.newPlayer();
    await client.newPlayer();
    await client.newPlayer();
    const { status, body, response } = await client.post('/api/players', {
      username: 'one_too_many',
      email: 'one_too_many@example.com',
    });
    expect(status).toBe(429);
    expect(body).toMatchObject({ success: false, code: 'rate_limited' });
    expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    expect(response.headers['ratelimit-limit']).toBe('3');
    const stored = await t.store.db
      .selectFrom('players')
      .select('username')
      .where('username', '=', 'one_too_many')
      .execute();
    expect(stored).toEqual([]);

    // The limit is per key for the game, so the registered player still plays.
    const me = await client.get(`/api/players/${first.id}`, first);
    expect(me.status).toBe(200);
  });

  it('should count game requests per API key, not per address', async () => {
    // Registration is used up for this address; these two come straight from the service.
    const [a, b] = await Promise.all([registered('limit_a'), registered('limit_b')]);
    const statuses: number[] = [];
    const remaining: unknown[] = [];
    for (let i = 0; i < 6; i++) {
      const { status, response } = await client.get('/api/inventory', a);
      statuses.push(status);
      remaining.push(response.headers['ratelimit-remaining']);
      expect(response.headers['ratelimit-limit']).toBe('5');
      expect(Number(response.headers['ratelimit-reset'])).toBeGreaterThan(0);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect(remaining).toEqual(['4', '3', '2', '1', '0', '0']);
    const limited = await client.get('/api/inventory', a);
    expect(limited.body.code).toBe('rate_limited');
    expect(limited.body.error).toMatch(/^Too many requests; retry in \d+ (second|minute)s?\.$/);
    expect(Number(limited.response.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.response.headers['ratelimit-remaining']).toBe('0');
    expect((await client.get('/api/inventory', b)).status).toBe(200);
  });

  it('should keep counting a player after the key is rotated', async () => {
    const player = await registered('limit_rotating');
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await client.get('/api/inventory', player)).status);
    const rotated = await client.post<{ api_key: string }>(
      `/api/players/${player.id}/rotate-key`,
      {},
      player,
    );
    statuses.push(rotated.status);
    const fresh = { ...player, auth: { authorization: `Bearer ${rotated.body.data.api_key}` } };
    for (let i = 0; i < 3; i++) statuses.push((await client.get('/api/inventory', fresh)).status);
    // The rotation itself is counted on its own (below): three requests before, two after.
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429]);
  });

  it('should let a player at the limit replace the key, up to a limit of its own', async () => {
    let player = await registered('limit_leaked');
    // Someone holding the key uses up the player's requests.
    for (let i = 0; i < 6; i++) await client.get('/api/inventory', player);
    expect((await client.get('/api/inventory', player)).status).toBe(429);
    const statuses: number[] = [];
    // Rotations count apart, up to the player's own limit here (5, under the usual 10).
    expect(KEY_ROTATIONS_PER_MINUTE).toBeGreaterThan(5);
    const rotations = 5;
    for (let i = 0; i <= rotations; i++) {
      const rotated = await client.post<{ api_key: string }>(
        `/api/players/${player.id}/rotate-key`,
        {},
        player,
      );
      statuses.push(rotated.status);
      if (rotated.status !== 200) {
        expect(rotated.body.code).toBe('rate_limited');
        expect(rotated.response.headers['ratelimit-limit']).toBe(String(rotations));
        break;
      }
      player = { ...player, auth: { authorization: `Bearer ${rotated.body.data.api_key}` } };
    }
    expect(statuses).toEqual([...Array<number>(rotations).fill(200), 429]);
    // The new key plays on the player's count, still used up.
    expect((await client.get('/api/inventory', player)).status).toBe(429);
  });

  it('should count failed authentications per address, whatever key is sent', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const unknown = { authorization: `Bearer hg_${randomBytes(24).toString('hex')}` };
      statuses.push((await t.app.inject({ url: '/api/inventory', headers: unknown })).statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it.each(['/api/products', '/api/leaderboard'])(
    'should count HEAD and GET of %s per address together, and each route on its own',
    async (url) => {
      // An address of its own, so no other request of this file counts against it.
      const remoteAddress = url === '/api/products' ? '198.51.100.7' : '198.51.100.8';
      const ask = (method: 'GET' | 'HEAD', path = url) =>
        t.app.inject({ method, url: path, remoteAddress }).then((response) => response.statusCode);
      const statuses = [];
      for (const method of ['GET', 'HEAD', 'GET', 'HEAD', 'GET', 'HEAD', 'GET'] as const) {
        statuses.push(await ask(method));
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
      const other = url === '/api/products' ? '/api/leaderboard' : '/api/products';
      expect(await ask('GET', other)).toBe(200);
    },
  );
});

const redisUrl = process.env.TEST_REDIS_URL;

describe.skipIf(redisUrl === undefined || redisUrl === '')(
  'rate limits shared through Redis',
  () => {
    it('should count one API key across two server instances', async () => {
      const env = { REDIS_URL: redisUrl ?? '', GAME_RATE_LIMIT_PER_MINUTE: '3' };
      const [a, b] = await Promise.all([
        createTestApp('sqlite', env),
        createTestApp('sqlite', env),
      ]);
      try {
        // A key of the right shape that no player has: each request is counted, then refused 401.
        const auth = { authorization: `Bearer hg_${randomBytes(24).toString('hex')}` };
        // Failed authentications count per address, and Redis outlives this run: an address of
        // its own keeps other runs' counts (another suite at once, a rerun within the minute) out.
        const remoteAddress = `10.${[...randomBytes(3)].join('.')}`;
        const statuses: number[] = [];
        for (const app of [a, b, a, b]) {
          statuses.push(
            (await app.app.inject({ url: '/api/inventory', headers: auth, remoteAddress }))
              .statusCode,
          );
        }
        expect(statuses).toEqual([401, 401, 401, 429]);
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    });

    it('should count a public route per address across instances, its HEAD with its GET', async () => {
      const env = { REDIS_URL: redisUrl ?? '', GAME_RATE_LIMIT_PER_MINUTE: '3' };
      const [a, b] = await Promise.all([
        createTestApp('sqlite', env),
        createTestApp('sqlite', env),
      ]);
      try {
        const remoteAddress = `10.${[...randomBytes(3)].join('.')}`;
        const ask = (app: TestApp, method: 'GET' | 'HEAD', url = '/api/leaderboard') =>
          app.app.inject({ method, url, remoteAddress }).then((response) => response.statusCode);
        const statuses = [
          await ask(a, 'GET'),
          await ask(b, 'HEAD'),
          await ask(a, 'HEAD'),
          await ask(b, 'GET'),
        ];
        expect(statuses).toEqual([200, 200, 200, 429]);
        // Another public route keeps its own count.
        expect(await ask(b, 'GET', '/api/products')).toBe(200);
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    });

    it('should refuse to start when the Redis it is given cannot be reached', async () => {
      await expect(createTestApp('sqlite', { REDIS_URL: 'redis://127.0.0.1:1' })).rejects.toThrow(
        /Redis at REDIS_URL is not reachable/,
      );
    });
  },
);
