import { afterAll, beforeAll, expect } from 'vitest';
import { statusOfCode } from '../../src/http/errors.js';
import { createTestApp, type TestApp } from './app.js';
import type { DialectName } from './databases.js';
import { GameClient, UNLIMITED } from './game.js';

/** Cases per operation: FUZZ_RUNS, 300 in the suite (`npm run fuzz` runs 1000). */
export const RUNS = Number(process.env.FUZZ_RUNS ?? 300);

export interface Operation {
  method: string;
  path: string;
  pathParams: string[];
  query: string[];
  bodyFields: string[];
}

interface OpenApi {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { in: string; name: string }[];
        requestBody?: {
          content: Record<string, { schema: { properties?: Record<string, unknown> } }>;
        };
      }
    >
  >;
}

function operationsOf(document: OpenApi): Operation[] {
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]) => {
      const parameters = operation.parameters ?? [];
      const byPlace = (place: string) =>
        parameters.filter((parameter) => parameter.in === place).map((p) => p.name);
      return {
        method: method.toUpperCase(),
        path,
        pathParams: byPlace('path'),
        query: byPlace('query'),
        bodyFields: Object.keys(
          operation.requestBody?.content['application/json']?.schema.properties ?? {},
        ),
      };
    }),
  );
}

export interface HostileSuite {
  readonly t: TestApp;
  /** Every operation of /openapi.json. */
  readonly operations: Operation[];
  /** Ids that exist: a player, a product, a negotiation, a request, a listing. */
  readonly known: string[];
  /** The player's keys (the last one current) and the request's receipt token. */
  readonly secrets: { keys: string[]; tokens: string[] };
  /**
   * Refuses the case if the answer breaks the contract; returns nothing otherwise. `url` is what
   * the request asked for: an error may quote it, so text it sent is not taken for a leak.
   */
  checkAnswer: (
    operation: Operation,
    status: number,
    bodyText: string,
    contentType: string,
    url: string,
  ) => void;
}

/** `bodyText` without the parts of `url` (its path and query values, raw or decoded) it quotes. */
function withoutEchoes(bodyText: string, url: string): string {
  const [path = '', query = ''] = url.split('?', 2);
  const sent = [path, ...query.split('&').map((pair) => pair.slice(pair.indexOf('=') + 1))];
  const forms = sent.flatMap((part) => {
    let decoded = part;
    try {
      decoded = decodeURIComponent(part);
    } catch {
      // Not valid percent-encoding: the service can only have quoted it as sent.
    }
    return [part, decoded].flatMap((text) => [text, JSON.stringify(text).slice(1, -1)]);
  });
  return forms
    .filter((form) => form.length > 0)
    .sort((a, b) => b.length - a.length)
    .reduce((text, form) => text.replaceAll(form, ''), bodyText);
}

/**
 * The whole service on a fresh database of `dialect` for the enclosing `describe`, with a
 * player, a negotiation and a filed request to aim at, and the contract every answer keeps:
 * never a 5xx, every error the envelope with a documented code, no secret in any answer.
 */
export function hostileSuite(dialect: DialectName): HostileSuite {
  let t: TestApp | undefined;
  let operations: Operation[] = [];
  let known: string[] = [];
  const secrets: { keys: string[]; tokens: string[] } = { keys: [], tokens: [] };

  beforeAll(async () => {
    t = await createTestApp(dialect, {
      ...UNLIMITED,
      REQUESTS_DAILY_LIMIT_PER_CLIENT: '1000000',
      REQUESTS_DAILY_LIMIT_TOTAL: '100000000',
    });
    operations = operationsOf((await t.app.inject('/openapi.json')).json<OpenApi>());
    const game = new GameClient(t);
    const player = await game.newPlayer('fuzz');
    const [product] = await game.inStockProducts();
    const session = await game.start(player, product?.id ?? '');
    const filed = await t.app.inject({
      method: 'POST',
      url: '/api/requests',
      payload: { kind: 'capability', task: 'A capability the hostile test asks for.' },
    });
    const receipt = filed.json<{ data: { id: string; token: string } }>().data;
    known = [player.id, product?.id ?? '', session.body.data.id, receipt.id, 'langchain'];
    secrets.keys.push(player.key);
    secrets.tokens.push(receipt.token);
  });
  afterAll(() => t?.close());

  return {
    get t() {
      if (t === undefined) throw new Error('the service starts before the tests run');
      return t;
    },
    get operations() {
      return operations;
    },
    get known() {
      return known;
    },
    secrets,
    checkAnswer: (operation, status, bodyText, contentType, url) => {
      const where = `${operation.method} ${operation.path} → ${status} ${bodyText.slice(0, 300)}`;
      expect(status, where).toBeLessThan(500);
      // Secret fields never appear; internal names are looked for in errors only, since catalog
      // listings may well mention SQLite or a technology stack.
      expect(bodyText, where).not.toMatch(/_hash|floor_|floorcents|seller_secret/i);
      for (const token of secrets.tokens) expect(bodyText, where).not.toContain(token);
      if (status >= 400) {
        expect(withoutEchoes(bodyText, url), where).not.toMatch(/\bstack\b|FST_|SQLITE|pg_/i);
        expect(contentType, where).toMatch(/application\/json/);
        const envelope = JSON.parse(bodyText) as { success: unknown; error: unknown; code: string };
        expect(envelope.success, where).toBe(false);
        expect(typeof envelope.error, where).toBe('string');
        expect(statusOfCode[envelope.code as keyof typeof statusOfCode], where).toBe(status);
      }
    },
  };
}
