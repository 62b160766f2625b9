import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { testDialects } from '../helpers/databases.js';
import { UNLIMITED } from '../helpers/game.js';

const run = promisify(execFile);

type Structured = Record<string, unknown>;

interface ToolAnswer {
  isError: boolean;
  data: Structured;
  text: string;
}

async function call(client: Client, name: string, args: Structured = {}): Promise<ToolAnswer> {
  const result = await client.callTool({ name, arguments: args });
  const content = result.content as { type: string; text: string }[];
  return {
    isError: result.isError === true,
    data: (result.structuredContent ?? {}) as Structured,
    text: content[0]?.text ?? '',
  };
}

async function connected(transport: Transport): Promise<Client> {
  const client = new Client({ name: 'bazaar-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

const transports = ['http', 'stdio'] as const;

describe.each(testDialects)('MCP (%s)', (dialect) => {
  let t: TestApp;
  let base: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    t = await createTestApp(dialect, UNLIMITED);
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await t.close();
  });

  const anonymous = new Map<string, Promise<Client>>();

  /** A client over Streamable HTTP at /mcp, or over stdio from the source of `npm run mcp`. */
  function open(kind: (typeof transports)[number], apiKey?: string): Promise<Client> {
    if (apiKey !== undefined) return connect(kind, apiKey);
    const shared = anonymous.get(kind) ?? connect(kind);
    anonymous.set(kind, shared);
    return shared;
  }

  async function connect(kind: (typeof transports)[number], apiKey?: string): Promise<Client> {
    const client = await connected(
      kind === 'http'
        ? new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
            requestInit: {
              headers: apiKey === undefined ? {} : { authorization: `Bearer ${apiKey}` },
            },
          })
        : new StdioClientTransport({
            command: process.execPath,
            args: ['--import', 'tsx', 'src/mcp/stdio.ts'],
            env: {
              PATH: process.env.PATH ?? '',
              BAZAAR_URL: base,
              ...(apiKey === undefined ? {} : { BAZAAR_API_KEY: apiKey }),
            },
            stderr: 'pipe',
          }),
    );
    clients.push(client);
    return client;
  }

  it('should list every tool with schemas, annotations and a description', async () => {
    const client = await open('http');
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    for (const tool of tools) {
      expect(tool.description?.length, tool.name).toBeGreaterThan(60);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(typeof tool.annotations?.readOnlyHint, tool.name).toBe('boolean');
      expect(typeof tool.annotations?.destructiveHint, tool.name).toBe('boolean');
      expect(typeof tool.annotations?.idempotentHint, tool.name).toBe('boolean');
    }
    expect(byName.get('search_catalog')?.annotations?.readOnlyHint).toBe(true);
    expect(byName.get('delete_request')?.annotations?.destructiveHint).toBe(true);
    // The API's own limits reach the model.
    const fileRequest = byName.get('file_request')?.inputSchema.properties as Record<
      string,
      { maxLength?: number }
    >;
    expect(fileRequest.task?.maxLength).toBe(3000);
    expect(fileRequest.contact?.maxLength).toBe(254);
  });

  it('should answer GET and DELETE on /mcp with 405: the endpoint is stateless', async () => {
    for (const method of ['GET', 'DELETE'] as const) {
      const response = await t.app.inject({ method, url: '/mcp' });
      expect(response.statusCode).toBe(405);
      expect(response.headers.allow).toBe('POST');
      expect(response.json()).toMatchObject({ success: false, code: 'method_not_allowed' });
    }
  });

  describe.each(transports)('over %s', (kind) => {
    it('should search the catalog and read a listing', async () => {
      const client = await open(kind);
      const search = await call(client, 'search_catalog', { q: 'playwright', limit: 5 });
      expect(search.isError).toBe(false);
      const items = search.data.items as { id: string; name: string }[];
      expect(items.map((item) => item.name)).toContain('Playwright');
      const listing = await call(client, 'get_listing', { id: items[0]?.id ?? '' });
      expect(listing.data.id).toBe(items[0]?.id);
      expect(listing.data.provenance).toBeDefined();
      const categories = await call(client, 'list_categories', {});
      const filed = categories.data.items as { id: string; aliases: string[] }[];
      expect(filed.find((category) => category.id === 'speech-to-text')?.aliases).toContain(
        'transcription',
      );

      const missing = await call(client, 'get_listing', { id: 'no-such-listing' });
      expect(missing.isError).toBe(true);
      expect(JSON.parse(missing.text)).toEqual({ code: 'not_found', error: 'Listing not found.' });

      // Without an id the call would name another route (the search): refused as a missing field.
      for (const args of [{}, { id: '' }]) {
        const unnamed = await call(client, 'get_listing', args);
        expect(unnamed.isError).toBe(true);
        expect(JSON.parse(unnamed.text)).toEqual({
          code: 'validation_error',
          error: 'The request is invalid: id is required.',
          details: [{ field: 'id', message: 'is required' }],
        });
      }
    });

    it('should file a request, read it back with its token, and delete it', async () => {
      const client = await open(kind);
      const task = `An MCP server for read-only warehouse queries (${kind}).`;
      const filed = await call(client, 'file_request', { task, kind: 'capability' });
      expect(filed.isError).toBe(false);
      const { id, token } = filed.data as { id: string; token: string };
      expect(token).toMatch(/^rq_/);

      const read = await call(client, 'read_request', { id, receipt_token: token });
      expect(read.data).toMatchObject({ id, task, status: 'received', client: 'unspecified' });

      const wrong = await call(client, 'read_request', {
        id,
        receipt_token: `rq_${'A'.repeat(43)}`,
      });
      expect(JSON.parse(wrong.text)).toMatchObject({ code: 'not_found' });

      // Refused by the API's own validation, in the same words an HTTP client gets.
      const refused = await call(client, 'file_request', { task: 'too short', kind: 'pilot' });
      expect(refused.isError).toBe(true);
      const http = await t.app.inject({
        method: 'POST',
        url: '/api/requests',
        payload: { task: 'too short', kind: 'pilot' },
      });
      const { error, code, details } = http.json<Structured>();
      expect(code).toBe('validation_error');
      expect(JSON.parse(refused.text)).toEqual({ code, error, details });

      const deleted = await call(client, 'delete_request', { id, receipt_token: token });
      expect(deleted.data).toEqual({ id, deleted: true });
      const gone = await call(client, 'read_request', { id, receipt_token: token });
      expect(JSON.parse(gone.text)).toMatchObject({ code: 'not_found' });
    });

    it('should play a whole game to a deal', async () => {
      const anonymous = await open(kind);
      const name = `mcp_${kind}_${randomBytes(4).toString('hex')}`;
      const registered = await call(anonymous, 'register', {
        username: name,
        email: `${name}@example.com`,
      });
      expect(registered.isError).toBe(false);
      const me = registered.data as { id: string; api_key: string; credits: number };
      expect(me.api_key).toMatch(/^hg_[0-9a-f]{48}$/);
      expect(me.credits).toBe(100);

      // Over HTTP the key travels in the Authorization header; the stdio server keeps the key
      // its own `register` returned for the rest of the session.
      const player = kind === 'http' ? await open('http', me.api_key) : anonymous;
      if (kind === 'http') {
        const refused = await call(anonymous, 'get_player_stats', { id: me.id });
        expect(JSON.parse(refused.text)).toMatchObject({ code: 'unauthorized' });
      }

      const products = await call(player, 'list_products', { in_stock: true });
      const product = (products.data.items as { id: string; market_price: number }[]).find(
        (item) => item.market_price <= 60,
      );
      if (product === undefined) throw new Error('no affordable product');

      const read = await call(player, 'get_product', { id: product.id });
      expect(read.data).toMatchObject({ id: product.id, market_price: product.market_price });

      const started = await call(player, 'start_negotiation', {
        player_id: me.id,
        product_id: product.id,
      });
      expect(started.data).toMatchObject({ status: 'active', product_id: product.id });
      const sessionId = started.data.id as string;

      const offer = await call(player, 'make_offer', {
        session_id: sessionId,
        offer_amount: Math.round(product.market_price * 70) / 100,
      });
      expect(offer.isError).toBe(false);
      const response = offer.data.seller_response as { action: string };
      expect(['accept', 'counter']).toContain(response.action);
      if (response.action === 'counter') {
        const accepted = await call(player, 'accept_counter_offer', { session_id: sessionId });
        expect(accepted.data.session).toMatchObject({ status: 'accepted' });
      }

      const listed = await call(player, 'list_my_negotiations', { status: 'accepted' });
      expect((listed.data.items as { id: string }[]).map((item) => item.id)).toEqual([sessionId]);
      const session = await call(player, 'get_negotiation', { sessionId });
      expect(session.data.session).toMatchObject({ status: 'accepted' });
      const again = await call(player, 'abandon_negotiation', { session_id: sessionId });
      expect(JSON.parse(again.text)).toMatchObject({ code: 'session_not_active' });

      // A client started with the key in its environment acts as the same player.
      const keyed = await open(kind, me.api_key);
      const stats = await call(keyed, 'get_player_stats', { id: me.id });
      expect(stats.data).toMatchObject({ player_id: me.id, total_transactions: 1 });
      const deals = await call(keyed, 'list_transactions', { player_id: me.id });
      expect(deals.data.items).toHaveLength(1);
      const board = await call(keyed, 'get_leaderboard', {});
      expect((board.data.items as { id: string }[]).map((entry) => entry.id)).toContain(me.id);
    });
  });
});

describe('the stdio server', () => {
  it('should stop with a clear message when the service cannot be reached', async () => {
    const result = await run(process.execPath, ['--import', 'tsx', 'src/mcp/stdio.ts'], {
      env: { PATH: process.env.PATH ?? '', BAZAAR_URL: 'http://127.0.0.1:1' },
    }).catch((error: unknown) => error as { code: number; stderr: string });
    expect(result).toMatchObject({ code: 1 });
    expect((result as { stderr: string }).stderr).toContain(
      'Bazaar is not reachable at http://127.0.0.1:1',
    );
  });
});
