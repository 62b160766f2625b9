import { Agent, get } from 'node:http';
import { connect, type Socket } from 'node:net';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerClientError } from '../../src/http/error-handler.js';
import { errorCodes } from '../../src/http/errors.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { testDialects } from '../helpers/databases.js';

/** Sends raw bytes to the listening app and returns everything it answered. */
/** What every answer carries, whoever made it: its id, the security headers, no caching. */
function expectHeadersOfEveryAnswer(headers: Record<string, unknown>): void {
  expect(headers['x-request-id']).toEqual(expect.any(String));
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['content-security-policy']).toEqual(expect.any(String));
  expect(headers['cache-control']).toBe('no-store');
  // A page on another origin can read the error too (a browser would report none otherwise).
  expect(headers['access-control-allow-origin']).toBe('*');
  expect(String(headers['access-control-expose-headers'])).toContain('x-request-id');
}

/** Helmet's headers that act only on a rendered page: documents carry them, JSON does not. */
const PAGE_ONLY_HEADERS = [
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];

function rawExchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      resolve(Buffer.concat(chunks).toString());
    });
    socket.setTimeout(5000, () => socket.destroy());
  });
}

const envelopes = (raw: string) =>
  [...raw.matchAll(/\{"success":false,"error":"[^"]*","code":"([a-z_]+)"/g)].map(
    (match) => match[1],
  );

describe.each(testDialects)('HTTP edge (%s)', (dialect) => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    port = typeof address === 'object' && address !== null ? address.port : 0;
  });
  afterAll(() => t.close());

  describe('router and parser errors', () => {
    it('should answer a URL that cannot be decoded with 400 in the envelope', async () => {
      const response = await t.app.inject('/api/catalog/%zz');
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        success: false,
        code: 'validation_error',
        details: [{ field: 'url', message: expect.any(String) }],
      });
      expect(response.body).not.toMatch(/FST_/);
      expectHeadersOfEveryAnswer(response.headers);
      // The query string alike: cut short, or bytes that are no UTF-8, are not searched for.
      for (const query of ['q=%E0%A4%A', 'q=%ff', 'q=abc%', 'limit=5&q=%zz']) {
        const refused = await t.app.inject(`/api/catalog?${query}`);
        expect(refused.statusCode, query).toBe(400);
        expect(refused.json(), query).toMatchObject({ details: [{ field: 'url' }] });
      }
      for (const query of ['q=100%25', 'q=caf%C3%A9', 'q=a+b']) {
        expect((await t.app.inject(`/api/catalog?${query}`)).statusCode, query).toBe(200);
      }
    });

    it('should answer a path parameter over 100 characters from the route, in the envelope', async () => {
      const response = await t.app.inject(`/api/catalog/${'a'.repeat(150)}`);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ success: false, code: 'not_found' });
      const longer = await t.app.inject(`/api/catalog/${'a'.repeat(600)}`);
      expect(longer.statusCode).toBe(414);
      expect(longer.json()).toMatchObject({ success: false, code: 'uri_too_long' });
      expect(longer.body).not.toContain('a'.repeat(150));
      // Answered by the router, before any hook: still with every answer's headers.
      expectHeadersOfEveryAnswer(longer.headers);
    });

    it('should answer headers over 16 KiB with 431 in the envelope', async () => {
      const raw = await rawExchange(
        port,
        `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`,
      );
      expect(raw).toMatch(/^HTTP\/1\.1 431 /);
      expect(envelopes(raw)).toEqual(['headers_too_large']);
      expect(raw).toMatch(/\r\nX-Request-Id: [0-9a-f-]{36}\r\n/i);
      expect(raw).toMatch(/\r\nAccess-Control-Allow-Origin: \*\r\n/);
      // Written to the socket without Fastify, with the API's security headers all the same.
      expect(raw).toMatch(
        /\r\ncontent-security-policy: default-src 'none';frame-ancestors 'none'\r\n/i,
      );
      expect(raw).toMatch(/\r\nx-frame-options: DENY\r\n/i);
      expect(raw).toMatch(/\r\nx-content-type-options: nosniff\r\n/i);
    });

    it('should answer bytes after a body longer than its Content-Length in the envelope', async () => {
      const body = '{"kind":"capability","task":"An MCP server for our replicas."}';
      const raw = await rawExchange(
        port,
        `POST /api/requests HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
          `Content-Length: 10\r\n\r\n${body}`,
      );
      // The parser fails on the extra bytes, and may close the connection before the first part
      // (10 bytes of broken JSON) is answered; whatever is answered is the envelope.
      const statuses = [...raw.matchAll(/^HTTP\/1\.1 (\d+)/gm)].map((match) => match[1]);
      expect(statuses.length).toBeGreaterThan(0);
      expect(statuses.every((status) => status === '400')).toBe(true);
      expect(envelopes(raw)).toHaveLength(statuses.length);
      expect(envelopes(raw).at(-1)).toBe('malformed_request');
    });

    // Node reports a request whose headers and body have not all arrived within the server's
    // requestTimeout (30 s) as this client error; the same handler as above answers it.
    it('should answer a request that took too long to arrive with 408 in the envelope', () => {
      let written = '';
      let destroyed = false;
      const socket = {
        destroyed: false,
        writable: true,
        write: (text: string) => (written += text),
        destroy: () => (destroyed = true),
      } as unknown as Socket;
      answerClientError(
        Object.assign(new Error('Request timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }),
        socket,
        { anyOrigin: false },
      );
      expect(written).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
      expect(written).toMatch(/\r\nConnection: close\r\n/);
      // Where only named origins may call, a request whose Origin is unknown names none.
      expect(written).not.toMatch(/Access-Control/i);
      expect(envelopes(written)).toEqual(['request_timeout']);
      expect(destroyed).toBe(true);
    });

    it('should take JSON bodies as UTF-8 text only, refusing bytes and strings that are none', async () => {
      const file = (payload: Buffer | string, contentType = 'application/json') =>
        t.app.inject({
          method: 'POST',
          url: '/api/requests',
          headers: { 'content-type': contentType },
          payload,
        });
      const task = (text: string) => `{"kind":"capability","task":"${text}"}`;
      // A byte that is no UTF-8 (Latin-1's é) is refused, not stored as U+FFFD.
      const latin1 = Buffer.from(task('A caf\xe9 ordering agent'), 'latin1');
      const bytes = await file(latin1);
      expect(bytes.statusCode).toBe(400);
      expect(bytes.json()).toEqual({
        success: false,
        code: 'invalid_json',
        error: 'The body is not valid UTF-8.',
      });
      const labelled = await file(latin1, 'application/json; charset=ISO-8859-1');
      expect(labelled.json()).toMatchObject({
        code: 'invalid_json',
        error:
          'The body is not valid UTF-8 (JSON is always UTF-8; charset=ISO-8859-1 is not taken).',
      });
      // A charset changes nothing (RFC 8259): a body that is UTF-8 is taken whatever it says.
      const ascii = await file(
        task('An MCP server for our replicas'),
        'application/json; charset=us-ascii',
      );
      expect(ascii.statusCode).toBe(201);
      // Half of a surrogate pair is no text; a whole pair (an emoji) is.
      const lone = await file(task('An MCP server \\ud800 for replicas'));
      expect(lone.statusCode).toBe(400);
      expect(lone.json()).toMatchObject({
        code: 'validation_error',
        details: [{ field: 'task', message: expect.stringMatching(/surrogate/) as string }],
      });
      const low = await file(
        '{"kind":"capability","task":"An MCP server for replicas","contact":"\\uDFFF"}',
      );
      expect(low.json()).toMatchObject({ details: [{ field: 'contact' }] });
      const pair = await file(task('An MCP server for replicas \\ud83d\\ude00'));
      expect(pair.statusCode).toBe(201);
      const { id, token } = pair.json<{ data: { id: string; token: string } }>().data;
      const stored = await t.app.inject({
        url: `/api/requests/${id}`,
        headers: { authorization: `Bearer ${token}` },
      });
      // Looked for without recursion: a body nested thousands deep is read, and a lone half
      // there is named by a path cut short.
      const deep = (leaf: string) =>
        `{"kind":"capability","task":"An MCP server for replicas","z":${'['.repeat(12_000)}"${leaf}"${']'.repeat(12_000)}}`;
      expect((await file(deep('\\ud83d\\ude00'))).statusCode).toBe(201);
      const deepLone = await file(deep('\\ud800'));
      expect(deepLone.statusCode).toBe(400);
      const [problem] = deepLone.json<{ details: { field: string }[] }>().details;
      expect(problem?.field).toMatch(/^z(\.0)+\.?…$/);
      expect(problem?.field.length).toBeLessThanOrEqual(201);
      expect(stored.json<{ data: { task: string } }>().data.task).toBe(
        'An MCP server for replicas \u{1F600}',
      );
    });

    it('should document every code it answers with', () => {
      for (const code of [
        'malformed_request',
        'uri_too_long',
        'headers_too_large',
        'request_timeout',
      ]) {
        expect(errorCodes).toContain(code);
      }
    });
  });

  describe('methods', () => {
    it('should answer a known path with the wrong method 405 and Allow', async () => {
      const response = await t.app.inject({ method: 'DELETE', url: '/api/catalog/langchain' });
      expect(response.statusCode).toBe(405);
      expect(response.headers.allow).toBe('GET, HEAD');
      expect(response.json()).toMatchObject({ success: false, code: 'method_not_allowed' });
      const players = await t.app.inject({ method: 'PUT', url: '/api/players/' });
      expect(players.statusCode).toBe(405);
      expect(String(players.headers.allow).split(', ').sort()).toEqual(['GET', 'HEAD', 'POST']);
    });

    it('should not let a route with a parameter take a path another route names', async () => {
      const registered = await t.app.inject({
        method: 'POST',
        url: '/api/players',
        payload: { username: 'method_probe', email: 'method_probe@example.com' },
      });
      const headers = {
        authorization: `Bearer ${registered.json<{ data: { api_key: string } }>().data.api_key}`,
      };
      // GET /api/haggle/{sessionId} would take these paths; they are POST operations.
      for (const [method, url] of [
        ['GET', '/api/haggle/start'],
        ['HEAD', '/api/haggle/offer'],
        ['GET', '/api/haggle/accept/'],
        ['PUT', '/api/haggle/abandon'],
        ['GET', '/api/haggle/%73tart'], // percent-encoded, as the router decodes it
      ] as const) {
        const response = await t.app.inject({ method, url, headers });
        expect(response.statusCode, `${method} ${url}`).toBe(405);
        expect(response.headers.allow, `${method} ${url}`).toBe('POST');
        if (method !== 'HEAD') {
          expect(response.json()).toEqual({
            success: false,
            error: `${method} is not allowed here; use POST.`,
            code: 'method_not_allowed',
          });
        }
      }
      // A method the named path takes is not refused, whichever route a doubled slash reaches.
      for (const url of ['/api/catalog//', '/api/players//', '/api/products//']) {
        const response = await t.app.inject({ url, headers });
        expect(response.statusCode, url).not.toBe(405);
      }
      // The route's own paths are unchanged.
      const session = await t.app.inject({
        url: '/api/haggle/0b7f1c2a-0000-4000-8000-000000000000',
        headers,
      });
      expect(session.statusCode).toBe(404);
    });

    it('should still answer an unknown path 404', async () => {
      const response = await t.app.inject({ method: 'DELETE', url: '/api/nothing' });
      expect(response.statusCode).toBe(404);
    });
  });

  describe('request ids', () => {
    it.each([
      ['a'.repeat(129), false],
      ['bad id with spaces', false],
      ['<script>', false],
      ['trace-1.2:3_4', true],
      [`hg_${'0a'.repeat(24)}`, false],
      [`rq_${'A'.repeat(43)}`, false],
      ['trace-hg_0a0a0a0a', false],
      ['AKIAIOSFODNN7EXAMPLE', false],
    ])('should use the client id %s only if short, safe and no credential', async (sent, kept) => {
      const response = await t.app.inject({ url: '/healthz', headers: { 'x-request-id': sent } });
      const id = String(response.headers['x-request-id']);
      if (kept) expect(id).toBe(sent);
      else expect(id).toMatch(/^[0-9a-f-]{36}$/);
    });
  });

  describe('headers', () => {
    it("should send the API's security headers on JSON and text answers", async () => {
      const responses = await Promise.all([
        t.app.inject('/healthz'),
        t.app.inject('/api/catalog'),
        t.app.inject('/api/nothing'),
        t.app.inject({
          method: 'POST',
          url: '/api/players',
          headers: { 'content-type': 'application/json' },
          payload: '{"username":',
        }),
        t.app.inject('/llms.txt'),
        // Made by the router, without the hooks.
        t.app.inject('/api/catalog/%zz'),
      ]);
      expect(responses.map((response) => response.statusCode)).toEqual([
        200, 200, 404, 400, 200, 400,
      ]);
      for (const response of responses) {
        const { headers } = response;
        expect(headers['content-type']).toMatch(/^(application\/json|text\/plain)/);
        // Nothing may load or run in it, and no page may frame it.
        expect(headers['content-security-policy']).toBe(
          "default-src 'none';frame-ancestors 'none'",
        );
        expect(headers['x-frame-options']).toBe('DENY');
        expect(headers['x-content-type-options']).toBe('nosniff');
        expect(headers['strict-transport-security']).toMatch(/^max-age=\d+/);
        expect(headers['referrer-policy']).toBe('no-referrer');
        expect(headers['cross-origin-resource-policy']).toBe('cross-origin');
        expect(headers['x-request-id']).toEqual(expect.any(String));
        for (const pageOnly of PAGE_ONLY_HEADERS) expect(headers[pageOnly]).toBeUndefined();
      }
    });

    it('should send the whole set of security headers on documents a browser renders', async () => {
      const listed = await t.app.inject('/api/products');
      const product = listed.json<{ data: { id: string }[] }>().data[0];
      const html = { accept: 'text/html' };
      const responses = await Promise.all([
        t.app.inject({ url: '/', headers: html }),
        t.app.inject({ url: '/no-such-page', headers: html }),
        t.app.inject(`/images/products/${String(product?.id)}.svg`),
        t.app.inject('/api/catalog/feed.atom'),
        // The web app's page for a mangled link, made by the router without the hooks.
        t.app.inject({ url: '/catalog/%zz', headers: html }),
        // A script: a worker would run under its response's policy.
        t.app.inject('/docs/static/swagger-ui-bundle.js'),
      ]);
      expect(responses.map((response) => response.headers['content-type'])).toEqual([
        expect.stringMatching(/^text\/html/),
        expect.stringMatching(/^text\/html/),
        expect.stringMatching(/^image\/svg\+xml/),
        expect.stringMatching(/^application\/atom\+xml/),
        expect.stringMatching(/^text\/html/),
        expect.stringMatching(/^application\/javascript/),
      ]);
      for (const { headers } of responses) {
        expect(headers['content-security-policy']).toContain("default-src 'self'");
        expect(headers['content-security-policy']).toContain("script-src 'self'");
        expect(headers['x-frame-options']).toBe('SAMEORIGIN');
        expect(headers['x-content-type-options']).toBe('nosniff');
        expect(headers['strict-transport-security']).toMatch(/^max-age=\d+/);
        expect(headers['cross-origin-resource-policy']).toBe('cross-origin');
        expect(headers['x-request-id']).toEqual(expect.any(String));
        for (const pageOnly of PAGE_ONLY_HEADERS) expect(headers[pageOnly]).toBeDefined();
      }
      // A file's 304 goes without its Content-Type; a cache takes its headers for the stored
      // answer's (RFC 9111 4.3.4): the whole set, not the API's.
      const script = responses.at(-1);
      const revalidated = await t.app.inject({
        url: '/docs/static/swagger-ui-bundle.js',
        headers: { 'if-none-match': String(script?.headers.etag) },
      });
      expect(revalidated.statusCode).toBe(304);
      expect(revalidated.headers['x-frame-options']).toBe('SAMEORIGIN');
      for (const pageOnly of PAGE_ONLY_HEADERS) {
        expect(revalidated.headers[pageOnly]).toBeDefined();
      }
    });

    it('should keep keys and receipt tokens out of caches', async () => {
      const registered = await t.app.inject({
        method: 'POST',
        url: '/api/players',
        payload: { username: 'cache_probe', email: 'cache_probe@example.com' },
      });
      expect(registered.statusCode).toBe(201);
      expect(registered.headers['cache-control']).toBe('no-store');
      const filed = await t.app.inject({
        method: 'POST',
        url: '/api/requests',
        payload: { kind: 'capability', task: 'An MCP server for our replicas.' },
      });
      expect(filed.statusCode).toBe(201);
      expect(filed.headers['cache-control']).toBe('no-store');
    });

    it('should render /docs and the web app over plain HTTP on any address', async () => {
      const host = { host: '192.168.1.20:3000' };
      const docs = await t.app.inject({ url: '/docs/', headers: host });
      expect(docs.statusCode).toBe(200);
      expect(String(docs.headers['content-security-policy'])).not.toMatch(/upgrade-insecure/);
      const page = await t.app.inject({ url: '/', headers: { ...host, accept: 'text/html' } });
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(String(page.headers['content-security-policy'])).toContain("default-src 'self'");
      expect(String(page.headers['content-security-policy'])).not.toMatch(/upgrade-insecure/);
    });
  });

  describe('compression and caching', () => {
    it('should compress JSON over 1 KB when the client accepts it, and not small answers', async () => {
      const big = await t.app.inject({
        url: '/api/catalog',
        headers: { 'accept-encoding': 'gzip' },
      });
      expect(big.headers['content-encoding']).toBe('gzip');
      expect(JSON.parse(gunzipSync(big.rawPayload).toString())).toMatchObject({ success: true });
      const small = await t.app.inject({ url: '/healthz', headers: { 'accept-encoding': 'gzip' } });
      expect(small.headers['content-encoding']).toBeUndefined();
      const plain = await t.app.inject('/api/catalog');
      expect(plain.headers['content-encoding']).toBeUndefined();
    });

    it('should read a gzip-encoded request body, and ignore the header on a read without one', async () => {
      const filed = await t.app.inject({
        method: 'POST',
        url: '/api/requests',
        headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
        payload: gzipSync(JSON.stringify({ kind: 'capability', task: 'A gzip-sent request.' })),
      });
      expect(filed.statusCode).toBe(201);
      const unknown = await t.app.inject({
        method: 'POST',
        url: '/api/requests',
        headers: { 'content-type': 'application/json', 'content-encoding': 'rot13' },
        payload: JSON.stringify({ kind: 'capability', task: 'Not really encoded.' }),
      });
      expect(unknown.statusCode).toBe(415);
      expect(unknown.json()).toMatchObject({ code: 'unsupported_media_type' });
      const garbled = await t.app.inject({
        method: 'POST',
        url: '/api/requests',
        headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
        payload: 'not gzip at all',
      });
      expect(garbled.statusCode).toBe(400);
      expect(garbled.json()).toMatchObject({ code: 'malformed_request' });
      // A GET has no body to decode: its answer does not depend on the header.
      const read = await t.app.inject({
        url: '/healthz',
        headers: { 'content-encoding': 'rot13' },
      });
      expect(read.statusCode).toBe(200);
    });

    it.each([
      '/api/catalog',
      '/api/catalog/langchain',
      '/api/catalog/categories',
      '/api/catalog/feed.atom',
      '/api/products',
    ])('should answer a repeated public read of %s with 304', async (url) => {
      const first = await t.app.inject(url);
      const etag = first.headers.etag;
      expect(typeof etag).toBe('string');
      const again = await t.app.inject({ url, headers: { 'if-none-match': String(etag) } });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      const other = await t.app.inject({ url, headers: { 'if-none-match': '"other"' } });
      expect(other.statusCode).toBe(200);
      // If-None-Match compares weakly (RFC 9110 13.1.2): a proxy may have marked the tag weak
      // when it compressed the answer, and `*` matches any current representation.
      for (const wanted of [`W/${String(etag)}`, '*', `"other", W/${String(etag)}`]) {
        const weak = await t.app.inject({ url, headers: { 'if-none-match': wanted } });
        expect(weak.statusCode, wanted).toBe(304);
      }
    });

    it('should weaken the ETag of a compressed answer: its bytes are not the body', async () => {
      const plain = await t.app.inject('/api/catalog');
      const strong = String(plain.headers.etag);
      expect(strong).toMatch(/^"[^"]+"$/);
      const gzip = { 'accept-encoding': 'gzip' };
      const compressed = await t.app.inject({ url: '/api/catalog', headers: gzip });
      expect(compressed.headers['content-encoding']).toBe('gzip');
      expect(compressed.headers.etag).toBe(`W/${strong}`);
      // Revalidating, the client is told again the tag it holds.
      const again = await t.app.inject({
        url: '/api/catalog',
        headers: { ...gzip, 'if-none-match': `W/${strong}` },
      });
      expect(again.statusCode).toBe(304);
      expect(again.headers.etag).toBe(`W/${strong}`);
      const small = await t.app.inject({ url: '/api/catalog?q=nothingmatchesthis', headers: gzip });
      expect(small.headers['content-encoding']).toBeUndefined();
      expect(String(small.headers.etag)).toMatch(/^"[^"]+"$/);
      // Compressed or not, the answer depends on Accept-Encoding, once: caches must know.
      for (const answer of [plain, compressed, small]) {
        expect(String(answer.headers.vary).match(/accept-encoding/gi)).toHaveLength(1);
      }
    });

    it('should not put an ETag on private or failed answers', async () => {
      expect((await t.app.inject('/api/catalog/nothing-here')).headers.etag).toBeUndefined();
      expect((await t.app.inject('/api/leaderboard')).headers.etag).toBeUndefined();
    });
  });
});

// Requests written byte by byte on a socket. Not per database.
describe('raw requests', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    port = typeof address === 'object' && address !== null ? address.port : 0;
  });
  afterAll(() => t.close());

  /** Sends bytes and nothing more: what came back until the server closed, and after how long. */
  const exchange = (bytes: string) =>
    new Promise<{ raw: string; seconds: number }>((resolve, reject) => {
      const started = performance.now();
      const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('error', reject);
      socket.on('close', () => {
        resolve({
          raw: Buffer.concat(chunks).toString(),
          seconds: (performance.now() - started) / 1000,
        });
      });
      socket.setTimeout(45_000, () => socket.destroy());
    });

  // HTTP/1.1 does not: Node's own bare 400 gave way to the envelope.
  it('should answer an HTTP/1.1 request without Host with 400 in the envelope', async () => {
    const { raw } = await exchange('GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n');
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    expect(raw).toMatch(/\r\nx-request-id: /i);
    expect(envelopes(raw)).toEqual(['malformed_request']);
  });

  // HTTP/1.0 lets a request name no host; absolute URLs in the answer must still be URLs.
  it('should build the absolute URLs of a request without Host from the address it reached', async () => {
    const body = JSON.stringify({ kind: 'capability', task: 'A tool reached without a host.' });
    const { raw } = await exchange(
      'POST /api/requests HTTP/1.0\r\nContent-Type: application/json\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    expect(raw).toMatch(/^HTTP\/1\.1 201 /);
    const base = `http://127.0.0.1:${String(port)}/api/requests/`;
    expect(raw).toMatch(new RegExp(`\r\nlocation: ${base}[0-9a-f-]{36}\r\n`));
    expect(raw).toContain(`"status_url":"${base}`);
  });

  // A Host that is no host would make every absolute URL of the answer invalid, or point it away.
  it('should build the absolute URLs from the address reached when Host is no valid host', async () => {
    const body = JSON.stringify({ kind: 'capability', task: 'A tool reached with an odd host.' });
    for (const host of ['a b', 'x@y', 'evil.example/path?']) {
      const { raw } = await exchange(
        `POST /api/requests HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
      expect(raw, host).toMatch(/^HTTP\/1\.1 201 /);
      const base = `http://127.0.0.1:${String(port)}/api/requests/`;
      expect(raw, host).toMatch(new RegExp(`\r\nlocation: ${base}[0-9a-f-]{36}\r\n`));
    }
    const named = await t.app.inject({ url: '/', headers: { host: 'bazaar.example:8080' } });
    expect(named.json()).toMatchObject({
      data: { links: { openapi: 'http://bazaar.example:8080/openapi.json' } },
    });
  });

  // A load balancer commonly keeps an idle connection for 60 s: the server keeps it longer, so
  // that it never closes one under a request the balancer has just sent.
  it('should keep an idle connection open for 72 s, and say so', async () => {
    const keepAlive = await new Promise<string>((resolve, reject) => {
      const agent = new Agent({ keepAlive: true });
      get({ host: '127.0.0.1', port, path: '/healthz', agent }, (response) => {
        response.resume();
        response.on('end', () => {
          agent.destroy();
          resolve(String(response.headers['keep-alive']));
        });
      }).on('error', reject);
    });
    expect(keepAlive).toBe('timeout=72');
    expect(t.app.server.keepAliveTimeout).toBe(72_000);
  });

  // Node applies its headers' limit when it is the longer one and looks for late requests every
  // 30 s by default: a stalled body once waited 60–90 s for its 408.
  it('should answer 408 in the envelope about 30 s after the request began, body or headers', async () => {
    const [body, headers] = await Promise.all([
      exchange(
        'POST /api/requests HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"kind":',
      ),
      exchange('GET /api/products HTTP/1.1\r\nHost: x\r\nX-Slow: '),
    ]);
    for (const { raw, seconds } of [body, headers]) {
      expect(raw).toMatch(/^HTTP\/1\.1 408 /);
      expect(envelopes(raw)).toEqual(['request_timeout']);
      expect(seconds).toBeGreaterThanOrEqual(29);
      expect(seconds).toBeLessThan(33);
    }
  }, 50_000);
});
