import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { injectedApi } from '../../src/mcp/api.js';
import { createTestApp } from '../helpers/app.js';
import { testDialects } from '../helpers/databases.js';

describe.each(testDialects)('MCP tools while the service shuts down (%s)', (dialect) => {
  it('should answer a call as the API answers a late request: 503 storage_unavailable, retry', async () => {
    const t = await createTestApp(dialect);
    const outer = { headers: {}, socket: { remoteAddress: '127.0.0.1' }, ip: '127.0.0.1' };
    const api = injectedApi(t.app, outer as unknown as FastifyRequest);
    const call = {
      method: 'GET' as const,
      path: '/api/catalog',
      query: {},
      body: undefined,
      authorization: undefined,
    };
    expect((await api(call)).status).toBe(200);

    // Closing begins on a later turn of the event loop; a call made then is refused by Fastify.
    const closed = t.close();
    await new Promise((resolve) => setImmediate(resolve));
    const late = await api(call);
    await closed;
    expect(late).toMatchObject({
      status: 503,
      body: { success: false, code: 'storage_unavailable' },
      retryAfter: '1',
    });
    expect(JSON.stringify(late.body)).not.toMatch(/Fastify|closed and cannot be reopened/);
  });
});
