import { describe, expect, it } from 'vitest';
import { loadCatalogFile } from '../../src/modules/catalog/catalog.loader.js';
import { categoryFor } from '../../src/modules/catalog/catalog.taxonomy.js';
import { catalogSuite, type Page } from '../helpers/catalog.js';
import { testDialects } from '../helpers/databases.js';

/** How well search finds: word forms, synonyms, spelling, ranking, and counts and facets. */
describe.each(testDialects)('catalog (%s)', (dialect) => {
  const catalog = catalogSuite(dialect);
  const { search } = catalog;

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

    it('should take reading text aloud for speech synthesis, not for reading text in images', async () => {
      expect((await ids('read text aloud'))[0]).toMatch(/tts/);
      expect((await ids('read text from images'))[0]).not.toMatch(/tts/);
    });

    it('should take text to image for image generation, and text from images for OCR', async () => {
      const category = async (query: string) => {
        const [first] = (await search(`?q=${encodeURIComponent(query)}&limit=1`)).body.data.items;
        return first?.categories;
      };
      expect(await category('text to image')).toContain('image-generation');
      expect(await category('text-to-image')).toContain('image-generation');
      expect(await category('extract text from images')).toContain('ocr');
      expect(await category('image to text')).toContain('ocr');
    });

    it('should find a brand however its name is split', async () => {
      expect((await ids('open ai embeddings'))[0]).toBe('openai-embeddings');
      expect((await ids('auto gen'))[0]).toBe('autogen');
      expect(await ids('huggingface')).toContain('smolagents');
      expect((await ids('open ai')).slice(0, 3)).toContain('openai-api');
    });

    it('should find an equivalent of several words only where they stand together', async () => {
      // `speech to text` is an equivalent of `dictation`; a text-to-speech engine that
      // "synthesises speech locally from text" has both words, but not the phrase.
      const found = (await search('?q=dictation&limit=50')).body.data.items;
      expect(found.map((item) => item.id)).toEqual(
        expect.arrayContaining(['vosk', 'deepgram', 'picovoice-leopard']),
      );
      for (const item of found) expect(item.categories, item.id).not.toEqual(['text-to-speech']);
      const phrases = /speech[\s-]+to[\s-]+text|self[\s-]+hosted/i;
      const listings = new Map(loadCatalogFile().map((listing) => [listing.id, listing]));
      for (const q of ['dictation', 'offline'])
        for (const item of (await search(`?q=${q}&limit=50`)).body.data.items)
          for (const { term } of item.matched ?? [])
            if (term === 'speech to text' || term === 'self hosted')
              expect(JSON.stringify(listings.get(item.id)), `${q}: ${item.id}`).toMatch(phrases);
    });

    it('should rank typed words of a concept phrase first where they stand together', async () => {
      // `text to speech` typed: speech-to-text APIs have both words, apart; they still match,
      // after the text-to-speech engines. Likewise a TTS engine's lone "speech".
      const is = (item: { categories: string[] }, category: string) =>
        item.categories.includes(category);
      for (const [query, wanted, other] of [
        ['text to speech', 'text-to-speech', 'speech-to-text'],
        ['speech recognition', 'speech-to-text', 'text-to-speech'],
      ] as const) {
        const found = (await search(`?q=${encodeURIComponent(query)}&limit=50`)).body.data.items;
        const last = found.findLastIndex((item) => is(item, wanted));
        const firstOther = found.findIndex((item) => is(item, other) && !is(item, wanted));
        expect(firstOther, `${query}: the other kind still matches`).toBeGreaterThan(-1);
        expect(last, `${query}: ${found.map((item) => item.id).join(', ')}`).toBeLessThan(
          firstOther,
        );
      }
    });

    it('should leave out what an apostrophe leaves of a word, as a stop word', async () => {
      const ids = async (q: string) =>
        (await search(`?q=${encodeURIComponent(q)}&limit=50`)).body.data.items.map(
          (item) => item.id,
        );
      for (const [typed, meant] of [
        ["what's the best OCR", 'OCR'],
        ['what’s the best OCR', 'OCR'],
        ["check my agent's tool calls", 'check agent tool calls'],
        ["I'll need a tts that doesn't need a GPU", 'tts doesn need GPU'],
      ] as const) {
        expect(await ids(typed), typed).toEqual(await ids(meant));
      }
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
      const matching = (filter: Record<string, string>) =>
        listings.filter(
          (listing) =>
            (filter.kind === undefined || listing.kind === filter.kind) &&
            (filter.category === undefined ||
              listing.categories.includes(categoryFor(filter.category))) &&
            (filter.protocol === undefined || listing.protocols.includes(filter.protocol)) &&
            (filter.status === undefined || listing.status === filter.status) &&
            (filter.license_kind === undefined ||
              listing.provenance.license_kind === filter.license_kind),
        );
      /** Each facet counts the listings that pass every filter but its own. */
      const facetsOf = (filter: Record<string, string>): Page['facets'] => {
        const without = (name: string) =>
          matching(Object.fromEntries(Object.entries(filter).filter(([key]) => key !== name)));
        const count = (name: string, values: (listing: (typeof listings)[number]) => string[]) => {
          const counts: Record<string, number> = {};
          for (const listing of without(name))
            for (const value of values(listing)) counts[value] = (counts[value] ?? 0) + 1;
          return counts;
        };
        return {
          kind: count('kind', (listing) => [listing.kind]),
          category: count('category', (listing) => listing.categories),
          protocol: count('protocol', (listing) => listing.protocols),
          status: count('status', (listing) => [listing.status]),
          license_kind: count('license_kind', (listing) => [listing.provenance.license_kind]),
        };
      };
      for (const filter of filters) {
        const matches = matching(filter);
        const facets = facetsOf(filter);
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
      // Facets follow the filters, each but its own: filtered by kind, the kinds are those of
      // the query without that filter, and the other facets count the agents only.
      const agents = (await search('?q=agent&kind=agent')).body.data;
      expect(agents.total).toBe(body.data.facets.kind.agent);
      expect(agents.facets.kind).toEqual(body.data.facets.kind);
      const agentStatuses = Object.values(agents.facets.status).reduce((sum, n) => sum + n, 0);
      expect(agentStatuses).toBe(agents.total);
    });

    it('should give the same answers on every database for the listing order of a query', async () => {
      // Tiers are computed alike on both engines; the first result of these never depends on scores.
      expect((await ids('langchain'))[0]).toBe('langchain');
      expect((await ids('mcp inspector'))[0]).toBe('mcp-inspector');
    });
  });
});
