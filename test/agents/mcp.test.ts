import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { promisify } from 'node:util';
import { LATEST_PROTOCOL_VERSION, McpError } from '@modelcontextprotocol/sdk/types.js';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { testDialects } from '../helpers/databases.js';
import { UNLIMITED } from '../helpers/game.js';
import { call, errorOf, mcpClients, transports, type Structured } from '../helpers/mcp.js';

const run = promisify(execFile);

/** `tools/list` before the tools were made compact, in bytes (measured on 0.3.0). */
const TOOLS_LIST_BEFORE = 79_429;

describe.each(testDialects)('MCP tools (%s)', (dialect) => {
  let t: TestApp;
  let base = '';
  const clients = mcpClients(() => base);

  beforeAll(async () => {
    t = await createTestApp(dialect, UNLIMITED);
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await clients.closeAll();
    await t.close();
  });

  it('should list every tool with snake_case arguments, annotations and shared definitions', async () => {
    const client = await clients.connect('http');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['get_me', 'rotate_key', 'get_inventory', 'search_catalog']),
    );
    for (const tool of tools) {
      expect(tool.name).toMatch(/^[a-z]+(_[a-z]+)*$/);
      for (const argument of Object.keys(tool.inputSchema.properties ?? {})) {
        expect(argument, `${tool.name}.${argument}`).toMatch(/^[a-z]+(_[a-z]+)*$/);
      }
      expect(tool.description?.length, tool.name).toBeGreaterThan(60);
      expect(tool.inputSchema.additionalProperties, tool.name).toBe(false);
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(typeof tool.annotations?.readOnlyHint, tool.name).toBe('boolean');
      expect(typeof tool.annotations?.destructiveHint, tool.name).toBe('boolean');
      // No UUID pattern written out: ids refer to one definition, or are a plain format.
      expect(JSON.stringify(tool), tool.name).not.toContain('[0-9a-fA-F]{8}');
    }
    // Each schema compiles in a strict JSON Schema 2020-12 validator, as a host may compile it.
    const strict = addFormats.default(new Ajv2020.default({ strict: true }));
    for (const tool of tools) {
      for (const schema of [tool.inputSchema, tool.outputSchema]) {
        expect(() => strict.compile(schema as object), tool.name).not.toThrow();
      }
    }
    const make = tools.find((tool) => tool.name === 'accept_counter_offer');
    expect(make?.outputSchema?.$defs).toMatchObject({ uuid: { format: 'uuid' } });
    expect(JSON.stringify(make?.outputSchema)).toContain('"$ref":"#/$defs/uuid"');
    const fileRequest = tools.find((tool) => tool.name === 'file_request')?.inputSchema
      .properties as Record<string, { maxLength?: number }>;
    expect(fileRequest.task?.maxLength).toBe(3000);
    // A tool's own page size is described as the tool pages, not as the HTTP list does.
    for (const name of ['list_products', 'list_transactions']) {
      const limit = (
        tools.find((tool) => tool.name === name)?.inputSchema.properties as Record<
          string,
          { default?: number; description?: string }
        >
      ).limit;
      expect(limit?.default, name).toBe(20);
      expect(limit?.description, name).toContain('next_cursor');
      expect(limit?.description, name).not.toMatch(/every match|Link/);
    }
  });

  it('should announce tools without listChanged: the list never changes while connected', async () => {
    const client = await clients.connect('http');
    expect(client.getServerCapabilities()).toEqual({ tools: {} });
  });

  it('should keep tools/list near half its former size', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { accept: 'application/json, text/event-stream' },
      payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    // Half of it until descriptions kept whole first sentences instead of stopping at a colon
    // ("What you need:"), which took 2.3 KB more; 0.53 until make_offer took `round` and
    // answered `new_credits`, 0.532 until it answered its deal's `transaction`, 0.541 until the
    // category `image-generation` took the place of the shorter `api-tools`, 0.542 until every
    // negotiation said when its cool-down ends (`cooldown_until`, and the `cooling_down` filter).
    expect(Buffer.byteLength(response.body)).toBeLessThanOrEqual(TOOLS_LIST_BEFORE * 0.552);
  });

  it('should shorten descriptions to whole sentences, never to a fragment', async () => {
    const client = await clients.connect('http');
    const { tools } = await client.listTools();
    const descriptions: string[] = [];
    const collect = (node: unknown): void => {
      if (node === null || typeof node !== 'object') return;
      for (const [key, value] of Object.entries(node)) {
        if (key === 'description' && typeof value === 'string') descriptions.push(value);
        else collect(value);
      }
    };
    collect(tools);
    expect(descriptions.length).toBeGreaterThan(100);
    const fragments = descriptions.filter((text) => /[:;(,]$|\(e\.g\.$/.test(text));
    expect(fragments).toEqual([]);
    const task = tools.find((tool) => tool.name === 'file_request')?.inputSchema.properties?.task;
    expect((task as { description: string }).description).toContain('characters');
  });

  it('should answer GET, DELETE and the rest on /mcp with 405 in JSON-RPC: it is stateless', async () => {
    for (const method of ['GET', 'DELETE', 'PUT', 'PATCH'] as const) {
      const response = await t.app.inject({ method, url: '/mcp' });
      expect(response.statusCode).toBe(405);
      expect(response.headers.allow).toBe('POST');
      expect(response.json()).toMatchObject({
        jsonrpc: '2.0',
        error: { code: -32000, data: { code: 'method_not_allowed' } },
      });
    }
  });

  it('should answer whatever the Host header says, as no part of the answer depends on it', async () => {
    for (const host of ['a b', 'x@y', 'bazaar.example:99999']) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/mcp',
        headers: { host, accept: 'application/json, text/event-stream' },
        payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      });
      expect(response.statusCode, host).toBe(200);
      expect(response.json(), host).toMatchObject({ jsonrpc: '2.0', id: 1, result: {} });
    }
  });

  it('should answer a body that is not JSON-RPC with a JSON-RPC error, not the envelope', async () => {
    const post = (payload: string, contentType = 'application/json') =>
      t.app.inject({
        method: 'POST',
        url: '/mcp',
        headers: { accept: 'application/json, text/event-stream', 'content-type': contentType },
        payload,
      });
    // Text that is not JSON, spaces and an empty body (with or without a Content-Type) alike.
    const bare = () =>
      t.app.inject({
        method: 'POST',
        url: '/mcp',
        headers: { accept: 'application/json, text/event-stream' },
      });
    for (const [what, broken] of [
      ['cut short', await post('{"jsonrpc": "2.0", "id": 1, "method": ')],
      ['spaces', await post('   ')],
      ['empty', await post('')],
      ['none', await bare()],
    ] as const) {
      expect(broken.statusCode, what).toBe(400);
      expect(broken.json(), what).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: {
          code: -32700,
          message: expect.stringContaining('not valid JSON') as string,
          data: { code: 'invalid_json' },
        },
      });
    }
    // JSON that is no JSON-RPC request is Invalid Request (-32600), not a parse error, answered
    // with the message's id where it has one a response can carry.
    for (const [payload, id] of [
      ['{"id": 1, "method": "ping"}', 1],
      ['{"jsonrpc": "1.0", "id": 1, "method": "ping"}', 1],
      ['{"jsonrpc": "2.0", "id": null, "method": "ping"}', null],
      ['{"jsonrpc": "2.0", "id": 1}', 1],
      ['"hello"', null],
      ['null', null],
      ['[]', null],
      // Valid JSON in other shapes: an id that is no whole number, params that are no object,
      // a member JSON-RPC does not have, a request that is also a response.
      ['{"jsonrpc": "2.0", "id": 1.5, "method": "ping"}', null],
      ['{"jsonrpc": "2.0", "id": 9007199254740993, "method": "ping"}', null],
      ['{"jsonrpc": "2.0", "id": "a", "method": "ping", "params": null}', 'a'],
      ['{"jsonrpc": "2.0", "id": 1, "method": "ping", "params": [1]}', 1],
      ['{"jsonrpc": "2.0", "id": 7, "method": "ping", "foo": 1}', 7],
      ['{"jsonrpc": "2.0", "id": 1, "method": "ping", "result": {}}', 1],
      ['{"jsonrpc": "2.0", "id": 1, "result": {}, "error": {"code": 1, "message": "x"}}', 1],
      // What the transport's own schema refuses, which it answered as a parse error.
      ['{"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": 5}}', 1],
      // Two requests of one batch with one id.
      [
        '[{"jsonrpc": "2.0", "id": 1, "method": "ping"}, {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}]',
        null,
      ],
      // A batch of more than 10 messages.
      [
        JSON.stringify(
          Array.from({ length: 11 }, (_, id) => ({ jsonrpc: '2.0', id, method: 'tools/list' })),
        ),
        null,
      ],
    ] as const) {
      const invalid = await post(payload);
      expect(invalid.statusCode, payload).toBe(400);
      expect(invalid.json(), payload).toMatchObject({
        jsonrpc: '2.0',
        id,
        error: { code: -32600, data: { code: 'malformed_request' } },
      });
    }
    const ten = await post(
      JSON.stringify(
        Array.from({ length: 10 }, (_, id) => ({ jsonrpc: '2.0', id, method: 'ping' })),
      ),
    );
    expect(ten.json()).toHaveLength(10);
    // Batches ended with MCP 2025-06-18: a client that negotiated it or a later version is told
    // so; one that negotiated an earlier version still has them.
    const pings = '[{"jsonrpc": "2.0", "id": 1, "method": "ping"}]';
    const versioned = (version: string) =>
      t.app.inject({
        method: 'POST',
        url: '/mcp',
        headers: {
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
          'mcp-protocol-version': version,
        },
        payload: pings,
      });
    for (const version of ['2025-06-18', '2025-11-25']) {
      const refused = await versioned(version);
      expect(refused.statusCode, version).toBe(400);
      expect(refused.json<{ error: { code: number; message: string } }>().error).toMatchObject({
        code: -32600,
        message: expect.stringContaining('has no batches') as string,
      });
    }
    const older = await versioned('2025-03-26');
    expect(older.statusCode).toBe(200);
    expect(older.json()).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }]);
    // A version this server does not speak is answered as such, whatever the body holds: a
    // batch, one message, or one that is no JSON-RPC message.
    for (const version of ['banana', '2099-01-01', '1.0']) {
      for (const payload of [pings, '{"jsonrpc": "2.0", "id": 1, "method": "ping"}', '{"id": 1}']) {
        const unsupported = await t.app.inject({
          method: 'POST',
          url: '/mcp',
          headers: { 'content-type': 'application/json', 'mcp-protocol-version': version },
          payload,
        });
        expect(unsupported.statusCode, `${version} ${payload}`).toBe(400);
        expect(unsupported.json(), `${version} ${payload}`).toEqual({
          jsonrpc: '2.0',
          id: null,
          error: {
            code: -32000,
            message: expect.stringMatching(
              new RegExp(`^Unsupported protocol version: "${version}"; .*2025-06-18`),
            ) as string,
            data: { code: 'malformed_request' },
          },
        });
      }
    }
    // initialize is where a version is agreed on: a client newer than this server meets it on
    // one both speak.
    const newer = await t.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { 'content-type': 'application/json', 'mcp-protocol-version': '2099-01-01' },
      payload: {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2099-01-01',
          capabilities: {},
          clientInfo: { name: 'later', version: '1' },
        },
      },
    });
    expect(newer.json()).toMatchObject({
      id: 1,
      result: { protocolVersion: LATEST_PROTOCOL_VERSION },
    });
    // A batch is answered with an array: an answer for each valid request (a notification gets
    // none) and an error for each invalid message, with its id where it has one.
    const mixed = await post(
      '[{"jsonrpc": "2.0", "id": 1, "method": "ping"}, 5, {"jsonrpc": "2.0", "id": 2, "method": "ping", "params": "x"}, {"jsonrpc": "2.0", "method": "notifications/initialized"}]',
    );
    expect(mixed.statusCode).toBe(200);
    expect(mixed.json()).toEqual([
      { jsonrpc: '2.0', id: 1, result: {} },
      expect.objectContaining({ id: null, error: expect.objectContaining({ code: -32600 }) }),
      expect.objectContaining({ id: 2, error: expect.objectContaining({ code: -32600 }) }),
    ]);
    const one = await post(
      '[{"jsonrpc": "2.0", "id": 1, "method": "ping"}, {"jsonrpc": "2.0", "method": "notifications/initialized"}]',
    );
    expect(one.json()).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }]);
    const allInvalid = await post('[1, 2]');
    expect(allInvalid.statusCode).toBe(400);
    expect(allInvalid.json()).toHaveLength(2);
    // A cancellation in the batch of the request it names is ignored: the request is answered
    // (it was left waiting forever).
    const cancelled = await post(
      JSON.stringify([
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'list_categories', arguments: {} },
        },
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } },
      ]),
    );
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject([{ jsonrpc: '2.0', id: 1, result: {} }]);
    // A request named like the notification is a request: answered, as an unknown method.
    const asked = await post(
      '[{"jsonrpc": "2.0", "id": 7, "method": "notifications/cancelled", "params": {"requestId": 1}}]',
    );
    expect(asked.json()).toMatchObject([{ id: 7, error: { code: -32601 } }]);
    const onlyCancel = await post(
      '[{"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}}]',
    );
    expect(onlyCancel.statusCode).toBe(202);
    expect(onlyCancel.body).toBe('');
    // A __proto__ key is dropped, as any unknown field is ignored.
    const proto = await post('{"jsonrpc": "2.0", "id": 1, "method": "ping", "__proto__": {}}');
    expect(proto.json()).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    // tools/list has one page: a cursor is none it gave out (the specification's -32602).
    const paged = await post(
      '{"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"cursor": "garbage"}}',
    );
    expect(paged.json()).toMatchObject({
      id: 2,
      error: { code: -32602, message: expect.stringContaining('params.cursor') as string },
    });
    const ping = await post('{"jsonrpc": "2.0", "id": "p", "method": "ping"}');
    expect(ping.json()).toEqual({ jsonrpc: '2.0', id: 'p', result: {} });
    const notJson = await post('method=tools/list', 'application/x-www-form-urlencoded');
    expect(notJson.statusCode).toBe(415);
    expect(notJson.json()).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32000, data: { code: 'unsupported_media_type' } },
    });
    // The same faults elsewhere keep the API's envelope.
    const rest = await t.app.inject({
      method: 'POST',
      url: '/api/requests',
      headers: { 'content-type': 'application/json' },
      payload: '{"kind": ',
    });
    expect(rest.json()).toMatchObject({ success: false, code: 'invalid_json' });
  });

  it('should serve any client that takes JSON, and refuse one that does not with 406', async () => {
    const ping = (accept?: string) =>
      t.app.inject({
        method: 'POST',
        url: '/mcp',
        headers: {
          'content-type': 'application/json',
          ...(accept === undefined ? {} : { accept }),
        },
        payload: '{"jsonrpc": "2.0", "id": 1, "method": "ping"}',
      });
    for (const accept of [
      undefined,
      '*/*',
      'application/json',
      'application/*;q=0.9',
      'text/html, */*',
    ]) {
      const answered = await ping(accept);
      expect(answered.statusCode, accept).toBe(200);
      expect(answered.json(), accept).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    }
    for (const accept of [
      'text/html',
      'text/event-stream',
      'application/json;q=0, text/html',
      'application/json;q=0, text/event-stream',
    ]) {
      const refused = await ping(accept);
      expect(refused.statusCode, accept).toBe(406);
      // In the words and shape of the endpoint's other refusals, saying what is accepted.
      expect(refused.json(), accept).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: {
          code: -32000,
          message:
            'This endpoint answers in JSON only: send an Accept header that takes application/json ' +
            '(such as "application/json, text/event-stream", as MCP clients do, or */*), or none.',
          data: { code: 'not_acceptable' },
        },
      });
    }
  });

  it('should answer a malformed tools/call with -32602 (invalid params), not an internal error', async () => {
    for (const params of [
      { name: 'search_catalog', arguments: 'x' },
      { arguments: {} },
      { name: 42 },
    ]) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/mcp',
        headers: { accept: 'application/json, text/event-stream' },
        payload: { jsonrpc: '2.0', id: 7, method: 'tools/call', params },
      });
      const answer = response.json<{ error: { code: number; message: string } }>();
      expect(answer, JSON.stringify(params)).toMatchObject({
        jsonrpc: '2.0',
        id: 7,
        error: { code: -32602 },
      });
      // One sentence naming the field, not the validator's issues as JSON text.
      expect(answer.error.message).toMatch(/^Invalid tools\/call request: params\.\w+: /);
      expect(answer.error.message).not.toMatch(/[[{]/);
    }
  });

  it('should answer arguments nested too deeply to send as the caller’s fault, not a failure', async () => {
    const depth = 20_000;
    const response = await t.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: {
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
      },
      payload: `{"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "file_request", "arguments": {"kind": "capability", "task": ${'['.repeat(depth)}${']'.repeat(depth)}}}}`,
    });
    const { result } = response.json<{
      result: { isError: boolean; content: { text: string }[] };
    }>();
    expect(result.isError).toBe(true);
    expect(JSON.parse(result.content[0]?.text ?? '{}')).toMatchObject({
      code: 'validation_error',
      error: expect.stringContaining('nested too deeply') as string,
    });
  });

  it('should answer an initialize without its params as invalid params, naming them', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { accept: 'application/json, text/event-stream' },
      payload: { jsonrpc: '2.0', id: 8, method: 'initialize', params: { capabilities: {} } },
    });
    expect(response.json()).toEqual({
      jsonrpc: '2.0',
      id: 8,
      error: {
        code: -32602,
        message:
          'Invalid params: params.protocolVersion: expected string, received undefined; ' +
          'params.clientInfo: expected object, received undefined',
      },
    });
  });

  describe.each(transports)('over %s', (kind) => {
    it('should answer an unknown tool with the JSON-RPC error of the specification', async () => {
      const client = await clients.connect(kind);
      const error = await client.callTool({ name: 'no_such_tool', arguments: {} }).then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(error).toBeInstanceOf(McpError);
      expect((error as McpError).code).toBe(-32602);
      expect((error as McpError).message).toContain('Unknown tool: no_such_tool');
    });

    it('should refuse unknown arguments, naming them, instead of ignoring them', async () => {
      const client = await clients.connect(kind);
      const typo = await call(client, 'search_catalog', { query: 'browser' });
      expect(typo.isError).toBe(true);
      expect(errorOf(typo)).toMatchObject({
        code: 'validation_error',
        error: expect.stringContaining('query is not an argument of search_catalog') as string,
        details: [{ field: 'query' }],
      });
      // A typo once listed everyone's deals; now it is refused before any call is made.
      const playerId = await call(client, 'list_transactions', { playerId: 'x' });
      expect(errorOf(playerId)).toMatchObject({
        code: 'validation_error',
        details: [{ field: 'playerId' }],
      });
      const old = await call(client, 'get_negotiation', {
        sessionId: '3f1c9a52-8e0b-4a43-9d2e-5b7d4c6a1e90',
      });
      expect(errorOf(old).details).toEqual(
        expect.arrayContaining([expect.objectContaining({ field: 'sessionId' })]),
      );
    });

    it('should refuse an id that would reach another route, and a list where one value goes', async () => {
      const client = await clients.connect(kind);
      const refusals: [string, Structured, string][] = [
        ['get_listing', { id: '.' }, 'cannot be "."'],
        ['get_listing', { id: '..' }, 'cannot be ".."'],
        ['get_listing', { id: 'categories' }, 'which names another operation'],
        ['get_listing', { id: 'feed.atom' }, 'which names another operation'],
        ['get_negotiation', { session_id: '.' }, 'cannot be "."'],
        ['delete_request', { id: '..', receipt_token: 'rq_x' }, 'cannot be ".."'],
        ['get_listing', { id: { a: 1 } }, 'must be a string'],
        ['search_catalog', { q: ['a', 'b'] }, 'must be a string'],
        // Half of a surrogate pair: no URL or header can carry it.
        ['get_listing', { id: 'x\ud800' }, 'without a lone surrogate'],
        ['search_catalog', { q: '\udc00' }, 'without a lone surrogate'],
        ['read_request', { receipt_token: 'rq_\ud800', id: 'x' }, 'without a lone surrogate'],
        // In a body it can travel, and the API refuses it as no text.
        [
          'file_request',
          { task: 'An MCP server \ud800 for replicas', kind: 'capability' },
          'surrogate pair',
        ],
      ];
      for (const [tool, args, message] of refusals) {
        const answer = await call(client, tool, args);
        const field = Object.keys(args)[0] ?? '';
        expect(errorOf(answer), `${tool} ${JSON.stringify(args)}`).toMatchObject({
          code: 'validation_error',
          details: [{ field, message: expect.stringContaining(message) as string }],
        });
      }
      // A number where the API takes text in the path or query is the same text.
      const listing = await call(client, 'get_listing', { id: 12345 });
      expect(errorOf(listing).code).toBe('not_found');
    });

    it('should search with compact summaries under 8 KB and read the full listing', async () => {
      const client = await clients.connect(kind);
      const search = await call(client, 'search_catalog');
      expect(search.isError).toBe(false);
      expect(search.bytes).toBeLessThanOrEqual(8 * 1024);
      const items = search.data.items as Structured[];
      expect(items.length).toBeGreaterThan(0);
      for (const item of items) {
        expect(Object.keys(item).sort()).toEqual(
          ['categories', 'id', 'kind', 'matched', 'name', 'status', 'summary'].sort(),
        );
      }
      expect(typeof search.data.next_cursor).toBe('string');
      const next = await call(client, 'search_catalog', { cursor: search.data.next_cursor });
      expect((next.data.items as Structured[])[0]?.id).not.toBe(items[0]?.id);

      const found = await call(client, 'search_catalog', { q: 'playwright', limit: 5 });
      const playwright = (found.data.items as Structured[]).find((i) => i.name === 'Playwright');
      const listing = await call(client, 'get_listing', { id: playwright?.id });
      expect(listing.data).toMatchObject({ id: playwright?.id, provenance: expect.any(Object) });
      const categories = await call(client, 'list_categories', {});
      const filed = categories.data.items as { id: string; aliases: string[] }[];
      expect(filed.find((category) => category.id === 'speech-to-text')?.aliases).toContain(
        'transcription',
      );
      const missing = await call(client, 'get_listing', { id: 'no-such-listing' });
      expect(errorOf(missing)).toEqual({ code: 'not_found', error: 'Listing not found.' });
      const unnamed = await call(client, 'get_listing', {});
      expect(errorOf(unnamed)).toMatchObject({ code: 'validation_error' });
    });

    it('should file a request, read it back with its token, and delete it', async () => {
      const client = await clients.connect(kind);
      const task = `An MCP server for read-only warehouse queries (${kind}).`;
      const filed = await call(client, 'file_request', { task, kind: 'capability' });
      const { id, token } = filed.data as { id: string; token: string };
      expect(token).toMatch(/^rq_/);
      const read = await call(client, 'read_request', { id, receipt_token: token });
      expect(read.data).toMatchObject({ id, task, status: 'received' });
      // Without its token a call is refused as a missing argument, as any other is, before it
      // reaches the API (which would answer it as a wrong token); the request stays.
      for (const tool of ['read_request', 'delete_request']) {
        for (const missing of [{}, { receipt_token: null }, { receipt_token: '' }]) {
          const answer = await call(client, tool, { id, ...missing });
          expect(errorOf(answer), `${tool} ${JSON.stringify(missing)}`).toEqual({
            code: 'validation_error',
            error: 'The request is invalid: receipt_token is required.',
            details: [{ field: 'receipt_token', message: 'is required' }],
          });
        }
      }

      // Refused by the API's own validation, in the same words an HTTP client gets.
      const refused = await call(client, 'file_request', { task: 'too short', kind: 'pilot' });
      const http = await t.app.inject({
        method: 'POST',
        url: '/api/requests',
        payload: { task: 'too short', kind: 'pilot' },
      });
      const { error, code, details } = http.json<Structured>();
      expect(errorOf(refused)).toEqual({ code, error, details });

      const deleted = await call(client, 'delete_request', { id, receipt_token: token });
      expect(deleted.data).toEqual({ id, deleted: true });
    });

    it('should answer a token no header can carry as the wrong token it is, never echoing it', async () => {
      const client = await clients.connect(kind);
      const filed = await call(client, 'file_request', {
        task: `A tool that converts scanned invoices to JSON (${kind}).`,
        kind: 'capability',
      });
      const { id } = filed.data as { id: string };
      for (const token of ['rq_a\nb', 'rq_€uro']) {
        const answer = await call(client, 'read_request', { id, receipt_token: token });
        expect(errorOf(answer).code, JSON.stringify(token)).toBe('not_found');
        expect(answer.text).not.toContain(token);
      }
    });

    it('should say how to give a key in words true for the transport', async () => {
      const client = await clients.connect(kind);
      const { tools } = await client.listTools();
      const register = tools.find((tool) => tool.name === 'register');
      const missing = await call(client, 'get_me');
      expect(errorOf(missing).code).toBe('unauthorized');
      if (kind === 'stdio') {
        expect(JSON.stringify(tools)).not.toMatch(/Authorization/);
        expect(errorOf(missing).error).toContain('BAZAAR_API_KEY');
        expect(errorOf(missing).error).not.toContain('Authorization');
      } else {
        expect(register?.description).toContain('Authorization: Bearer');
        expect(errorOf(missing).error).toContain('Authorization: Bearer');
        expect(errorOf(missing).error).not.toContain('BAZAAR_API_KEY');
      }
    });
  });
});

describe('the stdio server', () => {
  it("should state the rules with the service's own numbers, over stdio read from its OpenAPI document", async () => {
    const configured = await createTestApp('sqlite', {
      HAGGLE_MAX_ACTIVE: '5',
      HAGGLE_IDLE_MINUTES: '1',
      HAGGLE_COOLDOWN_MINUTES: '0',
    });
    let base = '';
    const clients = mcpClients(() => base);
    try {
      base = await configured.app.listen({ port: 0, host: '127.0.0.1' });
      const document = await configured.app.inject({ url: '/openapi.json' });
      expect(document.json<{ info: Structured }>().info['x-game']).toEqual({
        idle_minutes: 1,
        max_active: 5,
        cooldown_minutes: 0,
      });
      // No cool-down in this service: no word of one, in the API's words or the tools' (the
      // fields that would say when one ends are there, and null).
      expect(document.body).not.toMatch(/cool-down/);
      // One minute is said as such.
      expect(document.body).toContain('no offer for 1 minute ');
      // The agent guide, written with the defaults, says this service's own above its sections.
      const guide = (await configured.app.inject({ url: '/agents.md' })).body;
      expect(guide).toContain(
        "> **This service's game settings are not the defaults this guide states:** a negotiation with no offer for 1 minute expires, a player may hold at most 5 active negotiations, and ending without a deal starts no cool-down",
      );
      expect(guide.indexOf('game settings')).toBeLessThan(guide.indexOf('## Ways in'));
      expect(document.body).not.toMatch(/\b1 minutes/);
      for (const kind of transports) {
        const { tools } = await (await clients.connect(kind)).listTools();
        const start = tools.find((tool) => tool.name === 'start_negotiation')?.description ?? '';
        expect(start, kind).toContain('no offer for 1 minute expires');
        expect(start, kind).toContain('at most 5');
        expect(start, kind).not.toContain('15 minutes');
        expect(JSON.stringify(tools), kind).not.toMatch(/cool-down/);
      }
    } finally {
      await clients.closeAll();
      await configured.close();
    }
  });

  it('should answer a tool error to retry, not a protocol error, when the service stops answering', async () => {
    const gone = await createTestApp('sqlite', UNLIMITED);
    const clients = mcpClients(() => base);
    let base = '';
    try {
      base = await gone.app.listen({ port: 0, host: '127.0.0.1' });
      const client = await clients.connect('stdio');
      expect((await call(client, 'search_catalog', { q: 'browser' })).isError).toBe(false);
      await gone.app.close();
      const answer = await call(client, 'search_catalog', { q: 'browser' });
      expect(errorOf(answer)).toMatchObject({
        code: 'storage_unavailable',
        error: `The service at ${base} did not answer; try again in a moment.`,
        retry_after_seconds: 1,
      });
    } finally {
      await clients.closeAll();
      await gone.close();
    }
  });

  it('should answer every line that is no JSON-RPC message, and read on', async () => {
    const service = await createTestApp('sqlite', UNLIMITED);
    let server: ChildProcessWithoutNullStreams | undefined;
    try {
      const base = await service.app.listen({ port: 0, host: '127.0.0.1' });
      server = spawn(process.execPath, ['--import', 'tsx', 'src/mcp/stdio.ts'], {
        env: { PATH: process.env.PATH ?? '', BAZAAR_URL: base },
      });
      const answers: Structured[] = [];
      let buffered = '';
      server.stdout.on('data', (chunk: Buffer) => {
        buffered += chunk.toString();
        const lines = buffered.split('\n');
        buffered = lines.pop() ?? '';
        answers.push(...lines.map((line) => JSON.parse(line) as Structured));
      });
      const lines = [
        'not json',
        '{"id": 3, "method": "ping"}',
        '{"jsonrpc": "2.0", "id": 4, "method": "ping", "params": "x"}',
        '[{"jsonrpc": "2.0", "id": 5, "method": "ping"}]',
        `{"jsonrpc": "2.0", "id": 6, "method": "ping", "params": {"pad": "${'x'.repeat(70_000)}"}}`,
        '',
        '  ',
        '{"jsonrpc": "2.0", "id": 7, "method": "ping"}',
      ];
      // Written in small pieces, as a pipe may deliver them.
      const text = `${lines.join('\n')}\n`;
      for (let at = 0; at < text.length; at += 4096) server.stdin.write(text.slice(at, at + 4096));
      // An empty line is skipped; one of spaces is no JSON.
      await expect.poll(() => answers.length, { timeout: 20_000 }).toBe(7);
      expect(
        answers.map((answer) => [answer.id, (answer.error as { code?: number } | undefined)?.code]),
      ).toEqual([
        [null, -32700],
        [3, -32600],
        [4, -32600],
        [null, -32600],
        [null, -32600],
        [null, -32700],
        [7, undefined],
      ]);
      expect(answers[3]?.error).toMatchObject({ message: expect.stringContaining('a batch') });
      expect(answers[4]?.error).toMatchObject({ message: expect.stringContaining('64 KiB') });
      expect(answers[6]).toEqual({ jsonrpc: '2.0', id: 7, result: {} });
      const exited = new Promise((resolve) => server?.on('exit', resolve));
      server.stdin.end();
      await exited;
    } finally {
      server?.kill();
      await service.close();
    }
  }, 60_000);

  /** What the stdio server says on stderr when it stops at its start with BAZAAR_URL `url`. */
  async function stoppedWith(url: string): Promise<string> {
    const result = await run(process.execPath, ['--import', 'tsx', 'src/mcp/stdio.ts'], {
      env: { PATH: process.env.PATH ?? '', BAZAAR_URL: url },
    }).catch((error: unknown) => error as { code: number; stderr: string });
    expect(result).toMatchObject({ code: 1 });
    return (result as { stderr: string }).stderr;
  }

  it('should stop with a clear message when the service cannot be reached', async () => {
    const stderr = await stoppedWith('http://127.0.0.1:1');
    expect(stderr).toContain('Bazaar is not reachable at http://127.0.0.1:1');
    // What to do about it: the service must be running, at the address BAZAAR_URL names.
    expect(stderr).toContain('The service must be running at BAZAAR_URL when this server starts');
    expect(stderr).toContain('set BAZAAR_URL to its address');
  });

  it('should refuse an address with a password in it, without repeating it', async () => {
    const stderr = await stoppedWith('http://user:s3cret@127.0.0.1:1');
    expect(stderr.trim()).toBe(
      "BAZAAR_URL must not hold a user name or password: give the service's address only (the API key goes in BAZAAR_API_KEY).",
    );
  });
});
