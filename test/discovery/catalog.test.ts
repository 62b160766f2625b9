import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CatalogDataError,
  loadCatalogFile,
  parseCatalog,
} from '../../src/modules/catalog/catalog.loader.js';
import type { ListingEntry } from '../../src/modules/catalog/catalog.schemas.js';
import { syncCatalog } from '../../src/modules/catalog/catalog.service.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { testDialects } from '../helpers/databases.js';

interface ListingData {
  id: string;
  name: string;
  kind: string;
  categories: string[];
  protocols: string[];
  provenance: { source_url: string; license: string | null };
  authentication: { required: boolean; schemes: string[] };
  limitations: string[];
  updated_at: string;
}
interface Page {
  items: ListingData[];
  count: number;
  limit: number;
  next_cursor: string | null;
}

/**
 * Queries and what must come first (or, where two listings tie on relevance in one engine and
 * not the other, exactly which listings match). Both dialects must give these same answers.
 */
const searchTable: { q: string; top?: string; only?: string[] }[] = [
  { q: 'langchain', top: 'langchain' }, // exact name before LangChain4j
  { q: 'LANGGRAPH', top: 'langgraph' }, // case
  { q: 'Playwright', top: 'playwright' },
  { q: 'playw', top: 'playwright-mcp' }, // prefix: names matching first, then by name
  { q: 'fastm', only: ['fastmcp', 'mcp-python-sdk'] }, // prefix, in a name and a description
  { q: 'Qdránt', only: ['qdrant'] }, // accents ignored
  { q: 'ELASTIC LICENSE', only: ['arize-phoenix'] }, // words from limitations
  { q: 'knowledge graph', top: 'mcp-server-memory' }, // words from a description
  { q: 'prompt injection', only: ['promptfoo'] },
  { q: 'sandbox docker', top: 'openhands' },
  { q: 'faithfulness', only: ['ragas'] },
  { q: 'hugging face', top: 'smolagents' },
  { q: 'openapi lint', top: 'redocly-cli' },
  { q: 'a2a', top: 'a2a-python-sdk' }, // a protocol
  { q: 'gpt-researcher', only: ['gpt-researcher'] }, // punctuation splits words
  { q: 'NEAR', only: ['pgvector', 'qdrant'] }, // FTS5 operator, searched as a word
  { q: 'langchain OR crewai', only: ['crewai'] }, // OR is a word, not an operator
  { q: 'ollama*', only: ['ollama'] }, // * is not a wildcard of its own
  { q: '"quoted"', only: [] },
  { q: 'col:umn', only: [] },
  { q: '%', only: [] },
  { q: '_', only: [] },
  { q: '-', only: [] },
];

describe.each(testDialects)('catalog (%s)', (dialect) => {
  let t: TestApp;
  const search = async (query: string) => {
    const response = await t.app.inject(`/api/catalog${query}`);
    return {
      status: response.statusCode,
      body: response.json<{
        success: boolean;
        data: Page;
        code?: string;
        details?: { field: string }[];
      }>(),
    };
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  describe('happy', () => {
    it('should ship at least 60 listings, 15 or more of each kind', () => {
      const listings = loadCatalogFile();
      expect(listings.length).toBeGreaterThanOrEqual(60);
      for (const kind of ['tool', 'agent', 'framework']) {
        expect(listings.filter((listing) => listing.kind === kind).length).toBeGreaterThanOrEqual(
          15,
        );
      }
    });

    it.each(searchTable)(
      'should answer $q the same on every database',
      async ({ q, top, only }) => {
        const { status, body } = await search(`?q=${encodeURIComponent(q)}&limit=50`);
        expect(status).toBe(200);
        const ids = body.data.items.map((item) => item.id);
        if (top !== undefined) expect(ids[0]).toBe(top);
        if (only !== undefined) expect([...ids].sort()).toEqual([...only].sort());
      },
    );

    it('should list by name without q, with the default limit of 20', async () => {
      const { body } = await search('');
      expect(body.data.limit).toBe(20);
      expect(body.data.count).toBe(20);
      const names = body.data.items.map((item) => item.name.normalize('NFKD').toLowerCase());
      expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    });

    it('should return complete listings with provenance, authentication and limitations', async () => {
      const { body } = await search('?q=qdrant');
      const [listing] = body.data.items;
      expect(listing).toMatchObject({ id: 'qdrant', kind: 'tool', status: 'active' });
      expect(listing?.provenance.source_url).toMatch(/^https:\/\//);
      expect(listing?.authentication.schemes.length).toBeGreaterThan(0);
      expect(listing?.limitations.length).toBeGreaterThan(0);
      expect(listing?.updated_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      const one = await t.app.inject('/api/catalog/qdrant');
      expect(one.statusCode).toBe(200);
      const { history, ...page } = one.json<{ data: ListingData & { history: unknown[] } }>().data;
      expect(page).toEqual(listing);
      expect(history).toEqual([expect.objectContaining({ listing_id: 'qdrant', change: 'added' })]);
    });

    it('should filter by kind exactly and by category and protocol ignoring case', async () => {
      const agents = await search('?kind=agent&limit=50');
      expect(agents.body.data.items.length).toBeGreaterThanOrEqual(15);
      expect(agents.body.data.items.every((item) => item.kind === 'agent')).toBe(true);
      const vector = await search('?category=Vector-Database&limit=50');
      expect(vector.body.data.items.map((item) => item.id)).toEqual(
        expect.arrayContaining(['pgvector', 'qdrant', 'pinecone']),
      );
      expect(
        vector.body.data.items.every((item) => item.categories.includes('vector-database')),
      ).toBe(true);
      const mcpAgents = await search('?protocol=MCP&kind=agent&limit=50');
      expect(mcpAgents.body.data.items.length).toBeGreaterThan(3);
      expect(
        mcpAgents.body.data.items.every(
          (item) => item.kind === 'agent' && item.protocols.includes('mcp'),
        ),
      ).toBe(true);
      // A filter matches whole elements: part of a value, or LIKE wildcards, match nothing.
      for (const filter of [
        'category=vector',
        'category=%25',
        'protocol=_cp',
        'category=rag%7Cmcp',
      ]) {
        expect((await search(`?${filter}`)).body.data.items).toEqual([]);
      }
    });

    it('should walk the whole result set with the cursor, with no duplicates and no gaps', async () => {
      for (const query of ['', 'q=mcp', 'kind=tool']) {
        const all = (await search(`?${query}&limit=50`)).body.data;
        const expected = all.items.map((item) => item.id);
        expect(all.next_cursor === null || expected.length === 50).toBe(true);
        const seen: string[] = [];
        let cursor: string | null = null;
        do {
          const page: { body: { data: Page } } = await search(
            `?${query}&limit=7${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`,
          );
          expect(page.body.data.count).toBe(page.body.data.items.length);
          seen.push(...page.body.data.items.map((item) => item.id));
          cursor = page.body.data.next_cursor;
        } while (cursor !== null);
        expect(new Set(seen).size).toBe(seen.length);
        if (all.next_cursor === null) expect(seen).toEqual(expected);
        else expect(seen.slice(0, 50)).toEqual(expected);
      }
    });
  });

  describe('errors', () => {
    it.each([
      ['limit=0', 400],
      ['limit=1', 200],
      ['limit=50', 200],
      ['limit=51', 400],
      ['limit=2.5', 400],
      ['limit=x', 400],
      ['kind=robot', 400],
      ['kind=Tool', 400],
      [`q=${'a'.repeat(300)}`, 200],
      [`q=${'a'.repeat(301)}`, 400],
      [`category=${'c'.repeat(100)}`, 200],
      [`category=${'c'.repeat(101)}`, 400],
      [`protocol=${'p'.repeat(101)}`, 400],
      ['cursor=not-a-cursor', 400],
    ])('should answer %s with %i', async (query, status) => {
      const response = await search(`?${query}`);
      expect(response.status).toBe(status);
      if (status === 400)
        expect(response.body).toMatchObject({ success: false, code: 'validation_error' });
    });

    it('should refuse a cursor from another search', async () => {
      const first = await search('?q=mcp&limit=2');
      const cursor = first.body.data.next_cursor ?? '';
      const other = await search(`?q=vector&limit=2&cursor=${encodeURIComponent(cursor)}`);
      expect(other.status).toBe(400);
      expect(other.body.details?.[0]?.field).toBe('cursor');
    });

    it('should answer 404 for an unknown listing', async () => {
      const response = await t.app.inject('/api/catalog/no-such-tool');
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({
        success: false,
        error: 'Listing not found.',
        code: 'not_found',
      });
    });
  });

  describe('loading', () => {
    const sample = (): ListingEntry[] => structuredClone(loadCatalogFile().slice(0, 3));

    it('should stop on a bad entry, naming the entry and the field', () => {
      const broken = sample() as unknown as Record<string, unknown>[];
      (broken[1] as { provenance: { license: number } }).provenance.license = 42;
      expect(() => parseCatalog(broken)).toThrow(CatalogDataError);
      expect(() => parseCatalog(broken)).toThrow(
        new RegExp(`entry 2 \\("${String(broken[1]?.id)}"\\).*provenance\\.license`),
      );
      const missing = sample() as unknown as Record<string, unknown>[];
      delete missing[0]?.limitations;
      expect(() => parseCatalog(missing)).toThrow(/entry 1 .*field "limitations"/);
      const twice = sample();
      twice.push(structuredClone(twice[0] as ListingEntry));
      expect(() => parseCatalog(twice)).toThrow(/entry 4 .*field "id"/);
      const inconsistent = sample();
      (inconsistent[0] as ListingEntry).authentication = {
        required: true,
        schemes: ['none'],
        notes: 'x',
      };
      expect(() => parseCatalog(inconsistent)).toThrow(/authentication\.schemes/);
    });

    it('should refresh changed listings, drop removed ones and leave the rest untouched', async () => {
      const before = (await search('?limit=50')).body.data.items;
      const entries = loadCatalogFile();
      const [changed, removed, kept] = entries as [ListingEntry, ListingEntry, ListingEntry];
      const edited = entries
        .filter((entry) => entry.id !== removed.id)
        .map((entry) =>
          entry.id === changed.id
            ? { ...entry, summary: 'A summary with the word zyxwvut.' }
            : entry,
        );
      await new Promise((resolve) => setTimeout(resolve, 5));
      await syncCatalog(t.store, edited);
      await syncCatalog(t.store, edited); // idempotent
      const found = (await search('?q=zyxwvut')).body.data.items;
      expect(found.map((item) => item.id)).toEqual([changed.id]);
      expect(found[0]?.updated_at).not.toBe(
        before.find((item) => item.id === changed.id)?.updated_at,
      );
      expect((await t.app.inject(`/api/catalog/${removed.id}`)).statusCode).toBe(404);
      expect(
        (await search(`?q=${encodeURIComponent(removed.name)}`)).body.data.items.map(
          (item) => item.id,
        ),
      ).not.toContain(removed.id);
      const keptNow = (await t.app.inject(`/api/catalog/${kept.id}`)).json<{ data: ListingData }>()
        .data;
      expect(keptNow.updated_at).toBe(before.find((item) => item.id === kept.id)?.updated_at);
      await syncCatalog(t.store, entries);
      expect((await t.app.inject(`/api/catalog/${removed.id}`)).statusCode).toBe(200);
    });
  });
});
