import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCodes, type ErrorCode } from '../../src/http/errors.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

const root = resolve(import.meta.dirname, '../../src');

/**
 * Codes some code path can answer with: every error-code literal in src/, leaving out the code
 * table itself and the `errorResponses(…)` declarations (those are what is being checked).
 */
function codesInCode(): Set<ErrorCode> {
  const known = new Set<string>(errorCodes);
  const found = new Set<ErrorCode>();
  for (const file of readdirSync(root, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.ts')) continue;
    let source = readFileSync(join(root, file), 'utf8');
    source = source.replace(/export const statusOfCode = \{[\s\S]*?\} as const;/, '');
    source = source.replace(/errorResponses\([^)]*\)/g, '');
    for (const [, literal] of source.matchAll(/'([a-z_]+)'/g)) {
      if (literal !== undefined && known.has(literal)) found.add(literal as ErrorCode);
    }
  }
  return found;
}

describe('error codes', () => {
  let t: TestApp;
  let declared: Set<string>;

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    const document = (await t.app.inject({ url: '/openapi.json' })).body;
    declared = new Set(
      [...document.matchAll(/"description":"Error: ([a-z_, ]+)"/g)].flatMap(([, codes]) =>
        (codes ?? '').split(', '),
      ),
    );
  });
  afterAll(async () => {
    await t.close();
  });

  it('should declare in the OpenAPI document only codes the code can answer with', () => {
    const thrown = codesInCode();
    expect([...declared].filter((code) => !thrown.has(code as ErrorCode))).toEqual([]);
  });

  it('should declare on some route every code the code can answer with', () => {
    // Answered before a route's own handling starts (Node's HTTP parser, the router, the body
    // parser), for any route: listed in the Error schema and the README, not per route.
    const routerLevel = new Set<string>([
      'method_not_allowed',
      'payload_too_large',
      'unsupported_media_type',
      'malformed_request',
      'request_timeout',
      'uri_too_long',
      'headers_too_large',
    ]);
    // Answered only by the MCP endpoint, which the OpenAPI document does not describe (its
    // refusals are JSON-RPC errors; docs/agents.md lists them).
    const mcpOnly = new Set<string>(['not_acceptable']);
    const undeclared = [...codesInCode()].filter(
      (code) => !declared.has(code) && !routerLevel.has(code) && !mcpOnly.has(code),
    );
    expect(undeclared).toEqual([]);
  });

  it('should have no code in the table that nothing answers with', () => {
    const thrown = codesInCode();
    expect(errorCodes.filter((code) => !thrown.has(code))).toEqual([]);
  });
});
