import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

describe('MCP over Streamable HTTP', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => t.close());

  it('searches', async () => {
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    const tools = await client.listTools();
    console.log(JSON.stringify(tools.tools[0], null, 1).slice(0, 3000));
    const result = await client.callTool({
      name: 'search_catalog',
      arguments: { q: 'lang', limit: 2 },
    });
    console.log(JSON.stringify(result).slice(0, 500));
    const bad = await client.callTool({ name: 'get_listing', arguments: { id: 'nope' } });
    console.log(JSON.stringify(bad));
    await client.close();
    expect(result.isError).toBeFalsy();
  });
});
