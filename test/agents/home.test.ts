import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { testDialects } from '../helpers/databases.js';
import { UNLIMITED } from '../helpers/game.js';

const run = promisify(execFile);

describe('the front door for machines', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(() => t.close());

  it('should answer GET / with the JSON index, links on the caller’s address', async () => {
    const response = await t.app.inject({
      url: '/',
      headers: { accept: 'application/json', host: 'bazaar.test:8080' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const base = 'http://bazaar.test:8080';
    expect(response.json()).toEqual({
      success: true,
      data: {
        name: 'Bazaar',
        version: '0.3.0',
        description: expect.stringContaining('negotiation game') as unknown,
        links: {
          openapi: `${base}/openapi.json`,
          docs: `${base}/docs`,
          mcp: `${base}/mcp`,
          llms_txt: `${base}/llms.txt`,
          agent_guide: `${base}/agents.md`,
          health: `${base}/healthz`,
          readiness: `${base}/readyz`,
        },
      },
    });
    // curl's */* is a machine, not a browser.
    const curl = await t.app.inject({ url: '/', headers: { accept: '*/*' } });
    expect(curl.json<{ success: boolean }>().success).toBe(true);
  });

  it('should give a browser the web app', async () => {
    const response = await t.app.inject({
      url: '/',
      headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8', host: 'bazaar.test' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers.vary).toMatch(/accept/i);
    expect(response.body).toContain('<div id="app">');
  });

  it('should serve llms.txt in its format', async () => {
    const response = await t.app.inject({ url: '/llms.txt', headers: { host: 'bazaar.test' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    const lines = response.body.split('\n');
    expect(lines[0]).toBe('# Bazaar');
    expect(lines.find((line) => line.startsWith('> '))).toBeDefined();
    const sections = lines.filter((line) => line.startsWith('## '));
    expect(sections).toEqual(['## Docs', '## MCP', '## Optional']);
    const links = lines.filter((line) => line.startsWith('- ['));
    for (const line of links) expect(line).toMatch(/^- \[[^\]]+\]\(http:\/\/bazaar\.test\/[^)]*\)/);
    expect(response.body).toContain('(http://bazaar.test/agents.md)');
    // The stdio server's settings: where the service is, which must be running, and the key.
    expect(response.body).toContain(
      "`BAZAAR_URL` is the service's address (default http://localhost:3000; this one is http://bazaar.test), where it must be running when the stdio server starts, and `BAZAAR_API_KEY` sets the key",
    );
    // Before the sections: every capability, as an MCP tool and its REST operation.
    expect(response.body).toContain('- `get_me` (`GET /api/players/me`)');
    // What it says needs no key answers without one; the rest of the game does not.
    expect(response.body).toContain(
      'Game calls other than registering, the product list (and its images) and the leaderboard need `Authorization: Bearer <api_key>`',
    );
    for (const url of ['/api/products', '/api/leaderboard']) {
      expect((await t.app.inject({ url })).statusCode, url).toBe(200);
    }
    const registered = await t.app.inject({
      method: 'POST',
      url: '/api/players',
      payload: { username: 'llms_reader', email: 'llms_reader@example.com' },
    });
    expect(registered.statusCode).toBe(201);
    expect((await t.app.inject({ url: '/api/players/me' })).statusCode).toBe(401);
  });

  it('should serve the agent guide with this service’s address in every command', async () => {
    const response = await t.app.inject({
      url: '/agents.md',
      headers: { host: 'bazaar.test:9' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(response.body).toMatch(/^# Bazaar for agents/);
    expect(response.body).not.toContain('localhost:3000');
    expect(response.body).toContain('BASE=http://bazaar.test:9');
    // Set as the guide states them, the settings need no word of their own.
    expect(response.body).not.toContain('game settings are not the defaults');
  });

  it('should name the address it was fetched from as the OpenAPI server', async () => {
    const response = await t.app.inject({ url: '/openapi.json', headers: { host: 'api.test' } });
    expect(response.json<{ servers: unknown }>().servers).toEqual([{ url: 'http://api.test' }]);
  });
});

describe('CORS', () => {
  let t: TestApp;
  let narrow: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    narrow = await createTestApp('sqlite', {
      CORS_ORIGINS: 'https://app.example.com, https://other.example.com',
    });
  });
  afterAll(async () => {
    await t.close();
    await narrow.close();
  });

  const preflight = (app: TestApp, origin: string) =>
    app.app.inject({
      method: 'OPTIONS',
      url: '/api/haggle/offer',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });

  it('should answer a preflight from any origin and let it be cached, without credentials', async () => {
    const response = await preflight(t, 'https://somewhere.example');
    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['access-control-allow-methods']).toContain('POST');
    expect(response.headers['access-control-allow-headers']).toContain('authorization');
    // A page can revalidate what it read (If-None-Match) and read the tag to send (ETag).
    expect(response.headers['access-control-allow-headers']).toContain('if-none-match');
    expect(response.headers['access-control-max-age']).toBe('86400');
    expect(response.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('should let a page read the answer and the rate-limit headers', async () => {
    const response = await t.app.inject({
      url: '/api/leaderboard',
      headers: { origin: 'https://somewhere.example' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    const exposed = String(response.headers['access-control-expose-headers']);
    for (const header of ['etag', 'retry-after', 'ratelimit-remaining', 'x-request-id']) {
      expect(exposed).toContain(header);
    }
    const missing = await t.app.inject({
      url: '/api/catalog/nothing-here',
      headers: { origin: 'https://somewhere.example' },
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['access-control-allow-origin']).toBe('*');
    expect(missing.headers['access-control-expose-headers']).toBe(exposed);
  });

  it('should allow only the configured origins when CORS_ORIGINS is set', async () => {
    const allowed = await preflight(narrow, 'https://app.example.com');
    expect(allowed.headers['access-control-allow-origin']).toBe('https://app.example.com');
    const refused = await preflight(narrow, 'https://evil.example');
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('should name only a configured origin on answers, and vary them by origin', async () => {
    const read = (origin?: string) =>
      narrow.app.inject({
        url: '/api/leaderboard',
        headers: origin === undefined ? {} : { origin },
      });
    const allowed = await read('https://other.example.com');
    expect(allowed.headers['access-control-allow-origin']).toBe('https://other.example.com');
    expect(String(allowed.headers['access-control-expose-headers'])).toContain('x-request-id');
    expect(String(allowed.headers.vary)).toContain('Origin');
    const refused = await read('https://evil.example');
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
    expect(String((await read()).headers.vary)).toContain('Origin');
  });

  // MCP's Streamable HTTP asks servers to check Origin (DNS rebinding): a browser's call from an
  // origin the service does not name is refused 403, in JSON-RPC.
  it('should refuse an MCP call from an origin CORS_ORIGINS does not name, and only then', async () => {
    const ping = (app: TestApp, origin?: string) =>
      app.app.inject({
        method: 'POST',
        url: '/mcp',
        headers: {
          accept: 'application/json, text/event-stream',
          ...(origin === undefined ? {} : { origin }),
        },
        payload: { jsonrpc: '2.0', id: 1, method: 'ping' },
      });
    const refused = await ping(narrow, 'http://evil.example');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32000, data: { code: 'forbidden' } },
    });
    for (const [app, origin] of [
      [narrow, 'https://app.example.com'],
      [narrow, undefined],
      [t, 'http://evil.example'],
    ] as const) {
      const answered = await ping(app, origin);
      expect(answered.statusCode, origin).toBe(200);
      expect(answered.json(), origin).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    }
  });

  it('should answer an OPTIONS request that is not a preflight 400', async () => {
    const response = await t.app.inject({ method: 'OPTIONS', url: '/api/leaderboard' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, code: 'validation_error' });
  });

  it('should refuse a CORS_ORIGINS value that is not a list of origins', () => {
    expect(() => loadConfig({ CORS_ORIGINS: 'https://app.example.com/path' })).toThrow(ConfigError);
    expect(() => loadConfig({ CORS_ORIGINS: 'app.example.com' })).toThrow(/CORS_ORIGINS/);
    expect(loadConfig({ CORS_ORIGINS: '*' }).corsOrigins).toBeNull();
  });
});

describe.each(testDialects)('the guide’s worked negotiation (%s)', (dialect) => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp(dialect, UNLIMITED);
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => t.close());

  it('should run as written and end in a deal', async () => {
    const guide = await (await fetch(`${base}/agents.md`)).text();
    const section = guide.split('## A worked negotiation')[1] ?? '';
    const script = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
    expect(script).toContain(`BASE=${base}`);
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', script ?? 'false'], {
      timeout: 60_000,
    });
    const lines = stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^Negotiating for .+, market price [\d.]+$/);
    expect(lines.some((line) => /^Offered [\d.]+ → (counter|accept)/.test(line))).toBe(true);
    const stats = JSON.parse(lines.at(-1) ?? '{}') as { total_transactions: number };
    expect(stats.total_transactions).toBe(1);
    const deals = await t.store.db.selectFrom('transactions').select('status').execute();
    expect(deals).toEqual([{ status: 'completed' }]);
  });
});
