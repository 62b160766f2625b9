import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codesOfResponse } from '../../src/http/openapi.js';
import { statusOfCode } from '../../src/http/errors.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { GameClient, UNLIMITED } from '../helpers/game.js';

type Json = Record<string, unknown>;

interface Response {
  description: string;
  headers?: Record<string, unknown>;
  content?: Record<string, { schema?: Json; example?: unknown }>;
}

interface Operation {
  operationId?: string;
  parameters?: { in: string; name: string }[];
  requestBody?: unknown;
  summary?: string;
  description?: string;
  security?: unknown[];
  responses: Record<string, Response>;
}

interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Json> };
}

/** Every operation of the document, as `METHOD path` with the operation. */
function operations(document: Document): [string, Operation][] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]): [string, Operation] => [
      `${method.toUpperCase()} ${path}`,
      operation,
    ]),
  );
}

/** Every schema node that carries an `example`, with where it is. */
function examples(node: unknown, where: string, found: [string, Json][] = []): [string, Json][] {
  if (Array.isArray(node)) node.forEach((item, i) => examples(item, `${where}/${i}`, found));
  else if (node !== null && typeof node === 'object') {
    const object = node as Json;
    if ('example' in object && ('type' in object || 'anyOf' in object || 'enum' in object)) {
      found.push([where, object]);
    }
    for (const [key, value] of Object.entries(object)) examples(value, `${where}/${key}`, found);
  }
  return found;
}

describe('OpenAPI document for tools', () => {
  let t: TestApp;
  let document: Document;
  beforeAll(async () => {
    t = await createTestApp('sqlite', UNLIMITED);
    document = (await t.app.inject('/openapi.json')).json<Document>();
  });
  afterAll(() => t.close());

  it('should be valid OpenAPI 3.1', async () => {
    const result = await new Validator().validate(document as never);
    expect(result.errors ?? []).toEqual([]);
  });

  it('should give every operation a unique operationId, a summary and a description', () => {
    const ids = new Set<string>();
    for (const [name, operation] of operations(document)) {
      expect(operation.operationId, name).toMatch(/^[a-z][A-Za-z]+$/);
      expect(ids.has(operation.operationId ?? ''), `${name}: duplicate operationId`).toBe(false);
      ids.add(operation.operationId ?? '');
      expect(operation.summary?.length ?? 0, `${name}: summary`).toBeGreaterThan(5);
      expect(operation.description?.length ?? 0, `${name}: description`).toBeGreaterThan(20);
    }
  });

  it('should describe every success response for real', () => {
    for (const [name, operation] of operations(document)) {
      const successes = Object.entries(operation.responses).filter(([status]) =>
        status.startsWith('2'),
      );
      expect(successes.length, name).toBeGreaterThan(0);
      for (const [status, response] of successes) {
        expect(response.description, `${name} ${status}`).not.toBe('Default Response');
        expect(response.description.length, `${name} ${status}`).toBeGreaterThan(10);
      }
    }
  });

  it('should list under each error status only codes of that status, and the ones every route can answer', () => {
    for (const [name, operation] of operations(document)) {
      const errors = Object.entries(operation.responses).filter(([status]) => status >= '400');
      const codes = errors.flatMap(([, response]) => codesOfResponse(response.description));
      for (const [status, response] of errors) {
        const named = codesOfResponse(response.description);
        expect(named.length, `${name} ${status}`).toBeGreaterThan(0);
        for (const code of named) {
          expect(statusOfCode[code as keyof typeof statusOfCode], `${name} ${code}`).toBe(
            Number(status),
          );
        }
      }
      // Every handler can fail on the database, and the page about itself excepted, everything is in the envelope.
      if (name.startsWith('GET /api') || name.startsWith('POST') || name.startsWith('DELETE')) {
        expect(codes, name).toEqual(
          expect.arrayContaining(['internal_error', 'storage_unavailable']),
        );
      }
      // A route behind an API key can refuse it, and counts requests per player.
      if (operation.security?.some((entry) => 'apiKey' in (entry as Json)) === true) {
        expect(codes, name).toEqual(expect.arrayContaining(['unauthorized', 'rate_limited']));
      }
    }
  });

  const publicReads = [
    'GET /api/catalog',
    'GET /api/catalog/categories',
    'GET /api/catalog/feed.atom',
    'GET /api/catalog/{id}',
    'GET /api/products',
    'GET /api/products/{id}',
    'GET /images/products/{id}.svg',
  ];

  it('should document the rate-limit headers on rate-limited operations', () => {
    for (const [name, operation] of operations(document)) {
      const limited = operation.responses['429'];
      if (limited === undefined) continue;
      expect(Object.keys(limited.headers ?? {}), name).toContain('Retry-After');
      if (!codesOfResponse(limited.description).includes('rate_limited')) continue;
      for (const [status, response] of Object.entries(operation.responses)) {
        if (!status.startsWith('2')) continue;
        const paged = ['GET /api/players', 'GET /api/products', 'GET /api/transactions'].includes(
          name,
        );
        expect(Object.keys(response.headers ?? {}), `${name} ${status}`).toEqual([
          'RateLimit-Limit',
          'RateLimit-Remaining',
          'RateLimit-Reset',
          ...(paged ? ['Link'] : []),
          ...(status === '201' ? ['Location'] : []),
          ...(publicReads.includes(name) ? ['ETag'] : []),
        ]);
      }
    }
  });

  it('should document Retry-After wherever an answer carries it, naming the codes that do', () => {
    const waitCodes = ['rate_limited', 'daily_limit_reached', 'cooling_down', 'too_many_active'];
    for (const [name, operation] of operations(document)) {
      for (const [status, response] of Object.entries(operation.responses)) {
        const codes = codesOfResponse(response.description);
        const waiting = codes.filter((code) => waitCodes.includes(code));
        const header = response.headers?.['Retry-After'] as { description?: string } | undefined;
        if (status !== '503' && waiting.length === 0) {
          expect(header, `${name} ${status}`).toBeUndefined();
          continue;
        }
        expect(header, `${name} ${status}`).toBeDefined();
        if (status !== '503' && waiting.length < codes.length) {
          for (const code of waiting) {
            expect(header?.description, `${name} ${status}`).toContain(`\`${code}\``);
          }
        }
      }
    }
    // Starting a negotiation can be told to wait (cooling down, too many active) with a 409.
    const start = operations(document).find(([name]) => name === 'POST /api/haggle/start')?.[1];
    expect(start?.responses['409']?.headers?.['Retry-After']).toMatchObject({
      description: expect.stringMatching(/^With `cooling_down` or `too_many_active`: /),
    });
  });

  it('should document the ETag and 304 of public reads, and 415 wherever a body may be sent', () => {
    for (const [name, operation] of operations(document)) {
      if (publicReads.includes(name)) {
        expect(Object.keys(operation.responses['200']?.headers ?? {}), name).toContain('ETag');
        expect(operation.responses['304'], name).toBeDefined();
      } else {
        expect(operation.responses['304'], name).toBeUndefined();
      }
      if (!name.startsWith('GET ')) {
        expect(operation.responses['415'], name).toBeDefined();
        expect(operation.responses['413'], name).toBeDefined();
      }
    }
  });

  it('should declare Location on every 201', () => {
    const created = operations(document).filter(([, operation]) => operation.responses['201']);
    expect(created.map(([name]) => name).sort()).toEqual([
      'POST /api/haggle/start',
      'POST /api/players',
      'POST /api/requests',
    ]);
    for (const [name, operation] of created) {
      expect(Object.keys(operation.responses['201']?.headers ?? {}), name).toContain('Location');
    }
  });

  it('should have every example valid against its own schema', () => {
    const ajv = addFormats.default(new Ajv2020({ strict: false, allErrors: true }));
    const found = examples(document.paths, '#/paths');
    expect(found.length).toBeGreaterThan(20);
    for (const [where, schema] of found) {
      const { example, ...rest } = schema;
      const validate = ajv.compile(rest);
      expect(validate(example) ? [] : validate.errors, where).toEqual([]);
    }
  });

  it('should declare every error code an operation answers to missing, unknown and malformed input', async () => {
    const player = await new GameClient(t).newPlayer('doc');
    const undeclared: string[] = [];
    for (const [name, operation] of operations(document)) {
      const [method, path] = name.split(' ') as [string, string];
      const declared = Object.values(operation.responses).flatMap((response) =>
        codesOfResponse(response.description),
      );
      const url = (id: string) => path.replace(/\{[^}]+\}/g, id);
      const attempts: { url: string; auth?: string; payload?: string; type?: string }[] = [
        // No key, and ids that name nothing: a UUID, then text that is no id at all.
        { url: url('00000000-0000-4000-8000-000000000000') },
        { url: url('00000000-0000-4000-8000-000000000000'), auth: player.auth.authorization },
        { url: url('not-an-id'), auth: player.auth.authorization },
        { url: url('not-an-id'), auth: 'Bearer hg_wrong' },
        // A query string that cannot be decoded, which any route may be sent.
        {
          url: `${url('00000000-0000-4000-8000-000000000000')}?x=%ZZ`,
          auth: player.auth.authorization,
        },
      ];
      // A body that is not JSON, sent where a body may be sent, even to an operation that takes none.
      if (method === 'POST' || method === 'DELETE') {
        attempts.push({ url: url('x'), auth: player.auth.authorization, payload: '{' });
      }
      if (operation.requestBody !== undefined) {
        attempts.push(
          { url: url('x'), auth: player.auth.authorization, payload: '{' },
          { url: url('x'), auth: player.auth.authorization, payload: '{"unexpected":true}' },
          { url: url('x'), auth: player.auth.authorization, payload: 'x=1', type: 'text/plain' },
          {
            url: url('x'),
            auth: player.auth.authorization,
            payload: JSON.stringify({ task: 'x'.repeat(70_000) }),
          },
        );
      }
      for (const attempt of attempts) {
        const response = await t.app.inject({
          method: method as 'GET',
          url: attempt.url,
          headers: {
            ...(attempt.auth === undefined ? {} : { authorization: attempt.auth }),
            ...(method === 'POST' || attempt.payload !== undefined
              ? { 'content-type': attempt.type ?? 'application/json' }
              : {}),
          },
          ...(method === 'POST' || attempt.payload !== undefined
            ? { payload: attempt.payload ?? '{}' }
            : {}),
        });
        if (response.statusCode < 400) continue;
        const { code } = response.json<{ code: string }>();
        if (!declared.includes(code)) undeclared.push(`${name} → ${response.statusCode} ${code}`);
      }
    }
    expect(undeclared).toEqual([]);
  });
});
