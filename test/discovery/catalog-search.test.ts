import { describe, expect, it } from 'vitest';
import { loadCatalogFile } from '../../src/modules/catalog/catalog.loader.js';
import { catalogSuite, type Page } from '../helpers/catalog.js';
import { testDialects } from '../helpers/databases.js';

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
  { q: 'playw', first: ['playwright', 'playwright-mcp'] }, // prefix: the names it starts first
  { q: 'fastm', only: ['fastmcp', 'mcp-python-sdk'] }, // prefix, in a name and a description
  { q: 'comp', top: 'composio' }, // the start of a rare name, among common words it starts
  { q: 'cont', top: 'context7' },
  { q: 'l', includes: ['anythingllm'] }, // its alias llm: a short name, past many others of l
  { q: 'lang', first: ['langchain', 'langgraph', 'langsmith'] }, // the word first (in aliases)
  { q: 'lang', includes: ['langfuse', 'langflow', 'langchain4j'] }, // then what it starts
  { q: 'go', first: ['stagehand', 'localai', 'baml', 'gvisor'] }, // a short common word: not google
  {
    q: 'sdk for c',
    first: ['semantic-kernel', 'whisper-cpp', 'stable-diffusion-cpp', 'piper-tts'],
  },
  { q: '11labs', top: 'elevenlabs' }, // an alias
  { q: 'Qdránt', top: 'qdrant' }, // accents ignored
  { q: 'ELASTIC LICENSE', includes: ['arize-phoenix'] }, // words from limitations
  { q: 'knowledge graph', top: 'mcp-server-memory' }, // words from a description
  { q: 'prompt injection', includes: ['guardrails-ai', 'llm-guard', 'nemo-guardrails', 'rebuff'] }, // a concept
  { q: 'sandbox docker', includes: ['openhands', 'e2b', 'daytona', 'gvisor'] },
  { q: 'faithfulness', only: ['ragas'] },
  { q: 'hugging face', top: 'transformers' }, // its name says Hugging Face
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

/**
 * Searching the catalog: the answers both databases must agree on, filters, paging with the
 * cursor, and the queries it refuses. (catalog-search-quality.test.ts: ranking, spelling, facets.)
 */
describe.each(testDialects)('catalog (%s)', (dialect) => {
  const catalog = catalogSuite(dialect);
  const { search } = catalog;

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
  });
});
