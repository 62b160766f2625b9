import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolSpecs } from '../../src/mcp/tools.js';
import { DEFAULT_GAME_NUMBERS } from '../../src/mcp/words.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

/** Operations of the API that no tool calls, each for a reason the agent guide gives. */
const REST_ONLY = ['catalogFeed', 'listPlayers', 'getPlayer'];

interface OpenApi {
  paths: Record<string, Record<string, { operationId: string }>>;
}

describe('the capabilities every door lists', () => {
  let t: TestApp;
  const tools = toolSpecs('http', DEFAULT_GAME_NUMBERS);
  const guide = readFileSync(new URL('../../docs/agents.md', import.meta.url), 'utf8');

  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(() => t.close());

  it('should give every operation of the API a tool, or name it REST-only in the guide', async () => {
    const document = (await t.app.inject('/openapi.json')).json<OpenApi>();
    const operations = Object.entries(document.paths)
      .filter(([path]) => path.startsWith('/api/'))
      .flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, operation]) => ({
          id: operation.operationId,
          call: `${method.toUpperCase()} ${path}`,
        })),
      );
    const called = new Set(tools.map((tool) => `${tool.method} ${tool.path}`));
    const uncovered = operations.filter((operation) => !called.has(operation.call));
    expect(uncovered.map((operation) => operation.id).sort()).toEqual([...REST_ONLY].sort());
    for (const operation of uncovered) expect(guide).toContain(`\`${operation.call}\``);
    for (const call of called) {
      expect(operations.map((operation) => operation.call)).toContain(call);
    }
  });

  it('should list every tool with its operation in the agent guide and in llms.txt', async () => {
    const llms = (await t.app.inject('/llms.txt')).body;
    for (const tool of tools) {
      const row = guide.split('\n').find((line) => line.startsWith(`| \`${tool.name}\``));
      expect(row, tool.name).toContain(`\`${tool.method} ${tool.path}\``);
      expect(llms).toContain(`\`${tool.name}\` (\`${tool.method} ${tool.path}\`)`);
    }
    const rows = guide.split('\n').filter((line) => /^\| `[a-z_]+` +\|/.test(line));
    expect(rows).toHaveLength(tools.length);
  });
});
