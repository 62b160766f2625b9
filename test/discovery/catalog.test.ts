import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CatalogDataError,
  loadCatalogFile,
  parseCatalog,
} from '../../src/modules/catalog/catalog.loader.js';
import type { ListingEntry } from '../../src/modules/catalog/catalog.schemas.js';
import { seedCatalogFile } from '../../src/modules/catalog/catalog.seeder.js';
import { catalogFileHash, syncCatalog } from '../../src/modules/catalog/catalog.sync.js';
import { categoryFor } from '../../src/modules/catalog/catalog.taxonomy.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { testDialects } from '../helpers/databases.js';

interface ListingData {
  id: string;
  use_cases?: string[];
  matched?: { term: string; fields: string[] }[];
  name: string;
  kind: string;
  categories: string[];
  protocols: string[];
  provenance: { source_url: string; license: string | null; license_kind: string };
  status: string;
  successor: string | null;
  authentication: { required: boolean; schemes: string[] };
  limitations: string[];
  aliases: string[];
  sources: string[];
  checked_at: string;
  created_at: string;
  updated_at: string;
}
interface Page {
  items: ListingData[];
  count: number;
  total: number;
  limit: number;
  next_cursor: string | null;
  facets: Record<
    'kind' | 'category' | 'protocol' | 'status' | 'license_kind',
    Record<string, number>
  >;
  corrected_query: string | null;
  suggestions: string[];
  related_categories: { category: string; listings: number }[];
  total_is_estimate: boolean;
  capability_request: { method: string; url: string; body: { kind: string; task: string } } | null;
}
interface ListingChange {
  id: number;
  listing_id: string;
  change: string;
  fields: string[];
  changed_at: string;
}

/**
 * Queries and what must come first (or which listings the first results are, in any order, or
 * exactly which listings match). Both dialects must give these same answers.
 */
const searchTable: {
  q: string;
  top?: string;
  first?: string[];
  only?: string[];
  includes?: string[];
}[] = [
  { q: 'langchain', top: 'langchain' }, // exact name before LangChain4j
  { q: 'LANGGRAPH', top: 'langgraph' }, // case
  { q: 'Playwright', top: 'playwright' },
  { q: 'playw', top: 'playwright-mcp' }, // prefix: names matching first, then by name
  { q: 'fastm', only: ['fastmcp', 'mcp-python-sdk'] }, // prefix, in a name and a description
  { q: 'Qdránt', top: 'qdrant' }, // accents ignored
  { q: 'ELASTIC LICENSE', includes: ['arize-phoenix'] }, // words from limitations
  { q: 'knowledge graph', top: 'mcp-server-memory' }, // words from a description
  { q: 'prompt injection', includes: ['guardrails-ai', 'llm-guard', 'nemo-guardrails', 'rebuff'] }, // a concept
  { q: 'sandbox docker', includes: ['openhands', 'e2b', 'daytona', 'gvisor'] },
  { q: 'faithfulness', only: ['ragas'] },
  { q: 'hugging face', top: 'smolagents' },
  { q: 'openapi lint', top: 'redocly-cli' }, // both words first, then either
  { q: 'is there something that lets me lint openapi', top: 'redocly-cli' }, // scaffolding ignored
  { q: 'a2a', top: 'a2a-python-sdk' }, // a protocol
  { q: 'gpt-researcher', top: 'gpt-researcher' }, // punctuation splits words
  { q: 'NEAR', includes: ['pgvector', 'qdrant'] }, // FTS5 operator, searched as a word
  { q: 'langchain OR crewai', includes: ['crewai', 'langchain'] }, // not an operator
  { q: 'ollama*', top: 'ollama' }, // * is not a wildcard of its own
  { q: '"zzqq"', only: [] },
  { q: 'qqzz:yyxx', only: [] }, // a column filter in FTS5 syntax
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
      async ({ q, top, first, only, includes }) => {
        const { status, body } = await search(`?q=${encodeURIComponent(q)}&limit=50`);
        expect(status).toBe(200);
        const ids = body.data.items.map((item) => item.id);
        if (top !== undefined) expect(ids[0]).toBe(top);
        if (first !== undefined)
          expect(ids.slice(0, first.length).sort()).toEqual([...first].sort());
        if (only !== undefined) expect([...ids].sort()).toEqual([...only].sort());
        if (includes !== undefined) expect(ids).toEqual(expect.arrayContaining(includes));
      },
    );

    it('should list by name without q, with the default limit of 20', async () => {
      const { body } = await search('');
      expect(body.data.limit).toBe(20);
      expect(body.data.count).toBe(20);
      const listings = loadCatalogFile();
      expect(body.data.total).toBe(listings.length);
      const kinds: Record<string, number> = {};
      for (const listing of listings) kinds[listing.kind] = (kinds[listing.kind] ?? 0) + 1;
      expect(body.data.facets.kind).toEqual(kinds);
      const mcp = listings.filter((listing) => listing.protocols.includes('mcp')).length;
      expect(body.data.facets.protocol.mcp).toBe(mcp);
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
      const { matched, ...hit } = listing ?? { matched: [] };
      expect(page).toEqual(hit);
      // A hit says why it was found: which words matched in which fields.
      expect(matched).toEqual([
        { term: 'qdrant', fields: expect.arrayContaining(['name', 'aliases']) as string[] },
      ]);
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
      for (const query of ['', 'q=mcp', 'kind=tool', 'protocol=mcp']) {
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

  describe('search quality', () => {
    const ids = async (query: string) =>
      (await search(`?q=${encodeURIComponent(query)}&limit=50`)).body.data.items.map(
        (item) => item.id,
      );

    it('should match plural and singular forms alike', async () => {
      for (const [plural, singular] of [
        ['vector databases', 'vector database'],
        ['coding agents', 'coding agent'],
        ['embeddings', 'embedding'],
        ['optimisation', 'optimization'],
      ] as const) {
        const found = await ids(plural);
        expect(found.length, plural).toBeGreaterThan(0);
        expect([...found].sort(), plural).toEqual([...(await ids(singular))].sort());
      }
      expect(await ids('vector databases')).toEqual(
        expect.arrayContaining(['qdrant', 'pgvector', 'pinecone', 'weaviate', 'milvus']),
      );
    });

    it('should find the equivalents of a synonym-table phrase', async () => {
      const store = await ids('vector store');
      expect(store).toEqual(expect.arrayContaining(['qdrant', 'pgvector', 'chroma']));
      expect(await ids('model context protocol')).toEqual(
        expect.arrayContaining(['mcp-python-sdk', 'github-mcp-server']),
      );
    });

    it('should correct a misspelt name and say so, still offering the request', async () => {
      const { body } = await search('?q=playwrite');
      expect(body.data.corrected_query).toBe('playwright');
      expect(body.data.items[0]?.id).toBe('playwright');
      expect(body.data.items[0]?.matched?.[0]?.term).toBe('playwright');
      expect(body.data.suggestions).toEqual(['playwright']);
      expect(body.data.capability_request?.body.task).toBe('A capability for: playwrite');
      expect((await search('?q=playwright')).body.data.corrected_query).toBeNull();
      expect((await search('?q=playwright')).body.data.capability_request).toBeNull();
    });

    it('should rank listings that are what was asked above listings about it', async () => {
      const found = (await search('?q=mcp%20servers&limit=50')).body.data.items;
      // MCP servers first; the SDKs for building them come after.
      for (const item of found.slice(0, 10))
        expect(item.categories, item.id).toContain('mcp-server');
      const firstSdk = found.findIndex((item) => item.id === 'mcp-python-sdk');
      if (firstSdk !== -1) expect(firstSdk).toBeGreaterThan(10);
    });

    it('should count and facet searches by filters alone as the listings themselves do', async () => {
      const listings = loadCatalogFile();
      const filters: Record<string, string>[] = [
        { kind: 'tool' },
        { category: 'Vector-Database' },
        { protocol: 'mcp' },
        { kind: 'framework', protocol: 'http' },
        { kind: 'agent', category: 'coding-agent', protocol: 'mcp' },
        { category: 'no-such-category' },
        // An old category name means its category of the taxonomy.
        { category: 'Transcription', license_kind: 'open_source' },
        { status: 'maintenance' },
        { kind: 'tool', license_kind: 'proprietary' },
      ];
      for (const filter of filters) {
        const matches = listings.filter(
          (listing) =>
            (filter.kind === undefined || listing.kind === filter.kind) &&
            (filter.category === undefined ||
              listing.categories.includes(categoryFor(filter.category))) &&
            (filter.protocol === undefined || listing.protocols.includes(filter.protocol)) &&
            (filter.status === undefined || listing.status === filter.status) &&
            (filter.license_kind === undefined ||
              listing.provenance.license_kind === filter.license_kind),
        );
        const facets: Page['facets'] = {
          kind: {},
          category: {},
          protocol: {},
          status: {},
          license_kind: {},
        };
        for (const listing of matches) {
          facets.kind[listing.kind] = (facets.kind[listing.kind] ?? 0) + 1;
          facets.status[listing.status] = (facets.status[listing.status] ?? 0) + 1;
          const licence = listing.provenance.license_kind;
          facets.license_kind[licence] = (facets.license_kind[licence] ?? 0) + 1;
          for (const value of listing.categories)
            facets.category[value] = (facets.category[value] ?? 0) + 1;
          for (const value of listing.protocols)
            facets.protocol[value] = (facets.protocol[value] ?? 0) + 1;
        }
        const { body } = await search(`?${new URLSearchParams({ ...filter, limit: '50' })}`);
        const label = JSON.stringify(filter);
        expect(body.data.total, label).toBe(matches.length);
        expect(body.data.facets, label).toEqual(facets);
        // The page holds matches only (all of them when they fit on one page).
        const ids = body.data.items.map((item) => item.id);
        const expected = matches.map((listing) => listing.id);
        expect(ids.length, label).toBe(Math.min(matches.length, 50));
        expect(expected, label).toEqual(expect.arrayContaining(ids));
      }
    });

    it('should count all matches and facet them by kind, category and protocol', async () => {
      const { body } = await search('?q=agent&limit=3');
      expect(body.data.count).toBe(3);
      expect(body.data.total).toBeGreaterThan(20);
      const kinds = Object.values(body.data.facets.kind).reduce((sum, n) => sum + n, 0);
      expect(kinds).toBe(body.data.total);
      expect(body.data.facets.category['coding-agent']).toBeGreaterThan(5);
      // Counted by hand from every match of a narrower query.
      const vector = (await search('?q=reranking&limit=50')).body.data;
      expect(vector.next_cursor).toBeNull();
      const expected: Record<string, number> = {};
      for (const item of vector.items)
        for (const protocol of item.protocols) expected[protocol] = (expected[protocol] ?? 0) + 1;
      expect(vector.facets.protocol).toEqual(expected);
      expect(vector.total).toBe(vector.items.length);
      // Facets follow the filters too.
      const agents = (await search('?q=agent&kind=agent')).body.data;
      expect(agents.facets.kind).toEqual({ agent: agents.total });
      expect(agents.total).toBe(body.data.facets.kind.agent);
    });

    it('should give the same answers on every database for the listing order of a query', async () => {
      // Tiers are computed alike on both engines; the first result of these never depends on scores.
      expect((await ids('langchain'))[0]).toBe('langchain');
      expect((await ids('mcp inspector'))[0]).toBe('mcp-inspector');
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

  describe('taxonomy and lifecycle', () => {
    it('should list the categories with definitions, old names and counts', async () => {
      const response = await t.app.inject('/api/catalog/categories');
      expect(response.statusCode).toBe(200);
      const { items } = response.json<{
        data: { items: { id: string; definition: string; aliases: string[]; count: number }[] };
      }>().data;
      expect(items.length).toBeLessThanOrEqual(30);
      const listings = loadCatalogFile();
      for (const category of items) {
        expect(category.definition.length, category.id).toBeGreaterThan(10);
        expect(category.count, category.id).toBe(
          listings.filter((listing) => listing.categories.includes(category.id)).length,
        );
      }
      const speech = items.find((category) => category.id === 'speech-to-text');
      expect(speech?.aliases).toContain('transcription');
      // Every category a listing has is one of the taxonomy's.
      const ids = new Set(items.map((category) => category.id));
      expect(listings.flatMap((listing) => listing.categories).every((id) => ids.has(id))).toBe(
        true,
      );
    });

    it('should find listings by an old category name, and show status and licence kind', async () => {
      const old = (await search('?category=transcription&limit=50')).body.data;
      const current = (await search('?category=speech-to-text&limit=50')).body.data;
      expect(old.total).toBeGreaterThan(0);
      expect(old.items.map((item) => item.id)).toEqual(current.items.map((item) => item.id));
      // Every status and licence kind of the data, as a filter: exactly its listings.
      const listings = loadCatalogFile();
      for (const status of ['active', 'maintenance', 'deprecated', 'archived'] as const) {
        const expected = listings.filter((listing) => listing.status === status);
        const found = (await search(`?status=${status}&limit=50`)).body.data;
        expect(found.total, status).toBe(expected.length);
        if (expected.length > 0) expect(found.facets.status).toEqual({ [status]: expected.length });
        for (const item of found.items) expect(item.status).toBe(status);
      }
      const [retired] = listings.filter((listing) => listing.status !== 'active');
      expect(retired, 'a listing no longer active').toBeDefined();
      const page = (await t.app.inject(`/api/catalog/${retired?.id}`)).json<{ data: ListingData }>()
        .data;
      expect(page).toMatchObject({ status: retired?.status, successor: retired?.successor });
      const open = (await search('?license_kind=open_source&limit=1')).body.data;
      expect(open.total).toBe(
        listings.filter((listing) => listing.provenance.license_kind === 'open_source').length,
      );
      expect(open.items[0]?.provenance.license_kind).toBe('open_source');
    });
  });

  describe('lifecycle changes', () => {
    it('should record a change of status in the history and the feed', async () => {
      const entries = loadCatalogFile();
      await syncCatalog(
        t.store,
        entries.map((entry) =>
          entry.id === 'bark'
            ? { ...entry, status: 'deprecated' as const, successor: 'kokoro-tts' }
            : entry,
        ),
      );
      try {
        const page = (await t.app.inject('/api/catalog/bark')).json<{
          data: ListingData & { history: ListingChange[] };
        }>().data;
        expect(page).toMatchObject({ status: 'deprecated', successor: 'kokoro-tts' });
        expect(page.history[0]).toMatchObject({
          change: 'changed',
          fields: ['status', 'successor'],
        });
        const feed = (await t.app.inject('/api/catalog/feed.atom')).body;
        const entry = feed.split('<entry>')[1] ?? '';
        expect(entry).toContain('<category term="status:deprecated"/>');
        expect(entry).toContain('Changed: status, successor. Deprecated; replaced by kokoro-tts.');
      } finally {
        await syncCatalog(t.store, entries);
      }
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
      const uncategorised = sample();
      (uncategorised[0] as ListingEntry).categories = ['transcription'];
      expect(() => parseCatalog(uncategorised)).toThrow(/entry 1 .*field "categories\.0"/);
    });

    it('should want a successor that exists, only on a listing no longer active', () => {
      const [first, second] = sample() as [ListingEntry, ListingEntry];
      const retired = (status: ListingEntry['status'], successor: string) => [
        { ...first, status, successor },
        second,
      ];
      expect(parseCatalog(retired('deprecated', second.id))[0]?.successor).toBe(second.id);
      expect(() => parseCatalog(retired('archived', 'no-such-listing'))).toThrow(
        /entry 1 .*field "successor" must be the id of another listing/,
      );
      expect(() => parseCatalog(retired('active', second.id))).toThrow(
        /field "successor" must be null while the status is active/,
      );
    });

    it("should reject an alias that is another listing's id or name", () => {
      const [first, second] = sample() as [ListingEntry, ListingEntry];
      const borrowing = { ...second, aliases: [first.name.toUpperCase()] };
      expect(() => parseCatalog([first, borrowing])).toThrow(
        new RegExp(`entry 2 .*field "aliases" repeats "${first.name.toUpperCase()}"`),
      );
      const connected = {
        ...first,
        categories: ['rag' as const],
        connection: { packages: [], remotes: [] },
      };
      expect(() => parseCatalog([connected])).toThrow(/field "connection" is only for/);
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
      // A changed listing's words are replaced in the index, not added to.
      await syncCatalog(
        t.store,
        edited.map((entry) =>
          entry.id === changed.id ? { ...entry, summary: 'Another summary.' } : entry,
        ),
      );
      expect((await search('?q=zyxwvut')).body.data.total).toBe(0);
      await syncCatalog(t.store, entries);
      expect((await t.app.inject(`/api/catalog/${removed.id}`)).statusCode).toBe(200);
    });

    it('should record what changed when, and show it by updated_since, on the listing and in the Atom feed', async () => {
      const entries = loadCatalogFile();
      const original = entries.find((entry) => entry.id === 'ollama');
      await new Promise((resolve) => setTimeout(resolve, 5));
      const before = new Date().toISOString();
      await new Promise((resolve) => setTimeout(resolve, 5));
      const edited = entries.map((entry) =>
        entry.id === 'ollama'
          ? {
              ...entry,
              summary: 'Runs open-weight models locally.',
              aliases: ['Llama runner'],
              sources: ['https://ollama.com', 'https://github.com/ollama/ollama'],
              checked_at: '2026-11-21',
            }
          : entry,
      );
      await syncCatalog(t.store, edited);

      const page = (await t.app.inject('/api/catalog/ollama')).json<{
        data: ListingData & { history: ListingChange[] };
      }>().data;
      expect(page).toMatchObject({
        aliases: ['Llama runner'],
        sources: ['https://ollama.com', 'https://github.com/ollama/ollama'],
        checked_at: '2026-11-21',
      });
      expect(page.updated_at > before).toBe(true);
      expect(page.created_at < before).toBe(true);
      expect(page.history.map((change) => [change.change, change.fields])).toEqual([
        ['changed', ['aliases', 'checked_at', 'sources', 'summary']],
        ['added', Object.keys(original ?? {}).sort()],
      ]);
      expect(page.history[0]?.id).toBeGreaterThan(page.history[1]?.id ?? Infinity);

      const since = await search(`?updated_since=${encodeURIComponent(before)}`);
      expect(since.body.data.items.map((item) => item.id)).toEqual(['ollama']);
      expect(since.body.data.total).toBe(1);
      expect((await search('?updated_since=yesterday')).status).toBe(400);

      // An alias is searched like a name, typos included.
      expect((await search('?q=llama%20runner')).body.data.items[0]?.id).toBe('ollama');
      const typo = (await search('?q=lama%20runer')).body.data;
      expect(typo.corrected_query).toBe('llama runner');
      expect(typo.items[0]?.id).toBe('ollama');

      const feed = await t.app.inject('/api/catalog/feed.atom');
      expect(feed.statusCode).toBe(200);
      expect(feed.headers['content-type']).toMatch(/^application\/atom\+xml/);
      expect(feed.body).toContain('<feed xmlns="http://www.w3.org/2005/Atom">');
      const firstEntry = feed.body.split('<entry>')[1] ?? '';
      expect(firstEntry).toContain('/api/catalog/ollama#change-');
      expect(firstEntry).toContain('Changed: aliases, checked_at, sources, summary.');
      expect(firstEntry).toContain(`<updated>${page.updated_at}</updated>`);

      await syncCatalog(t.store, entries);
      const restored = (await t.app.inject('/api/catalog/ollama')).json<{ data: ListingData }>()
        .data;
      expect(restored.aliases).toEqual(original?.aliases ?? []);
      expect(restored.sources).toEqual(original?.sources ?? [restored.provenance.source_url]);
    });

    it('should not even read a data file again that is unchanged since the last start', async () => {
      const directory = mkdtempSync(join(tmpdir(), 'bazaar-catalog-'));
      const file = join(directory, 'catalog.json');
      try {
        writeFileSync(file, JSON.stringify(loadCatalogFile()));
        await seedCatalogFile(t.store, file);
        const loaded = await t.store.db
          .selectFrom('settings')
          .select('value')
          .where('key', '=', 'catalog_file_hash')
          .executeTakeFirstOrThrow();
        expect(loaded.value).toBe(catalogFileHash(readFileSync(file)));
        // Removed behind the loader's back while the same file is recorded as loaded: the next
        // start skips the file, so the listing stays removed…
        await syncCatalog(
          t.store,
          loadCatalogFile().filter((entry) => entry.id !== 'qdrant'),
          loaded.value,
        );
        await seedCatalogFile(t.store, file);
        expect((await t.app.inject('/api/catalog/qdrant')).statusCode).toBe(404);
        // …while a file that differs in any byte is loaded.
        writeFileSync(file, JSON.stringify(loadCatalogFile(), null, 1));
        await seedCatalogFile(t.store, file);
        expect((await t.app.inject('/api/catalog/qdrant')).statusCode).toBe(200);
      } finally {
        await syncCatalog(t.store, loadCatalogFile());
        rmSync(directory, { recursive: true, force: true });
      }
    });
  });
});
