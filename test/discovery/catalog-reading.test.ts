import { describe, expect, it } from 'vitest';
import { loadCatalogFile } from '../../src/modules/catalog/catalog.loader.js';
import { syncCatalog } from '../../src/modules/catalog/catalog.sync.js';
import { catalogSuite, type ListingChange, type ListingData } from '../helpers/catalog.js';
import { testDialects } from '../helpers/databases.js';

/**
 * Reading the catalog: a whole listing, the categories, lifecycle status and licence kinds, and a
 * listing's history. (catalog-loading.test.ts: loading the data file.)
 */
describe.each(testDialects)('catalog (%s)', (dialect) => {
  const catalog = catalogSuite(dialect);
  const { search } = catalog;

  describe('happy', () => {
    it('should return complete listings with provenance, authentication and limitations', async () => {
      const { body } = await search('?q=qdrant');
      const [listing] = body.data.items;
      expect(listing).toMatchObject({ id: 'qdrant', kind: 'tool', status: 'active' });
      expect(listing?.provenance.source_url).toMatch(/^https:\/\//);
      expect(listing?.authentication.schemes.length).toBeGreaterThan(0);
      expect(listing?.limitations.length).toBeGreaterThan(0);
      expect(listing?.updated_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      const one = await catalog.t.app.inject('/api/catalog/qdrant');
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

    it('should read a listing by its id written in any case', async () => {
      const response = await catalog.t.app.inject('/api/catalog/LangChain');
      expect(response.statusCode).toBe(200);
      expect(response.json<{ data: { id: string } }>().data.id).toBe('langchain');
    });
  });

  describe('errors', () => {
    it('should answer 404 for an unknown listing', async () => {
      const response = await catalog.t.app.inject('/api/catalog/no-such-tool');
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
      const response = await catalog.t.app.inject('/api/catalog/categories');
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
      // A category folded into another (api-tools, into developer-tools) filters as that one.
      const folded = (await search('?category=api-tools&limit=50')).body.data;
      const into = (await search('?category=developer-tools&limit=50')).body.data;
      expect(folded.items.map((item) => item.id)).toEqual(into.items.map((item) => item.id));
      expect(folded.items.map((item) => item.id)).toContain('postman');
      // Every status and licence kind of the data, as a filter: exactly its listings.
      const listings = loadCatalogFile();
      for (const status of ['active', 'maintenance', 'deprecated', 'archived'] as const) {
        const expected = listings.filter((listing) => listing.status === status);
        const found = (await search(`?status=${status}&limit=50`)).body.data;
        expect(found.total, status).toBe(expected.length);
        // The status facet counts every status, as if it were not filtered: the others to choose.
        if (expected.length > 0) expect(found.facets.status[status]).toBe(expected.length);
        expect(Object.values(found.facets.status).reduce((sum, n) => sum + n, 0)).toBe(
          listings.length,
        );
        for (const item of found.items) expect(item.status).toBe(status);
      }
      const [retired] = listings.filter((listing) => listing.status !== 'active');
      expect(retired, 'a listing no longer active').toBeDefined();
      const page = (await catalog.t.app.inject(`/api/catalog/${retired?.id}`)).json<{
        data: ListingData;
      }>().data;
      expect(page).toMatchObject({ status: retired?.status, successor: retired?.successor });
      const open = (await search('?license_kind=open_source&limit=1')).body.data;
      expect(open.total).toBe(
        listings.filter((listing) => listing.provenance.license_kind === 'open_source').length,
      );
      expect(open.items[0]?.provenance.license_kind).toBe('open_source');
    });

    it('should filter by status and licence kind with words too: the same hits, fewer', async () => {
      const all = (await search('?q=speech&limit=50')).body.data;
      expect(all.total_is_estimate).toBe(false);
      expect(all.total).toBeLessThanOrEqual(50);
      const cases = [
        ['status', 'deprecated', (item: ListingData) => item.status],
        ['license_kind', 'proprietary', (item: ListingData) => item.provenance.license_kind],
      ] as const;
      for (const [name, value, of] of cases) {
        const expected = all.items.filter((item) => of(item) === value).map((item) => item.id);
        expect(expected.length, value).toBeGreaterThan(0);
        expect(expected.length, value).toBeLessThan(all.total);
        const found = (await search(`?q=speech&${name}=${value}&limit=50`)).body.data;
        expect(found.items.map((item) => item.id)).toEqual(expected);
        expect(found.total).toBe(expected.length);
        // Its own facet counts the hits of the query without it: what each value would find.
        expect(found.facets[name]).toEqual(all.facets[name]);
        expect(found.facets[name][value]).toBe(expected.length);
      }
    });
  });

  describe('lifecycle changes', () => {
    it('should record a change of status in the history and the feed', async () => {
      const entries = loadCatalogFile();
      await syncCatalog(
        catalog.t.store,
        entries.map((entry) =>
          entry.id === 'bark'
            ? { ...entry, status: 'deprecated' as const, successor: 'kokoro-tts' }
            : entry,
        ),
      );
      try {
        const page = (await catalog.t.app.inject('/api/catalog/bark')).json<{
          data: ListingData & { history: ListingChange[] };
        }>().data;
        expect(page).toMatchObject({ status: 'deprecated', successor: 'kokoro-tts' });
        expect(page.history[0]).toMatchObject({
          change: 'changed',
          fields: ['status', 'successor'],
        });
        const feed = (await catalog.t.app.inject('/api/catalog/feed.atom')).body;
        const entry = feed.split('<entry>')[1] ?? '';
        expect(entry).toContain('<category term="status:deprecated"/>');
        expect(entry).toContain('Changed: status, successor. Deprecated; replaced by kokoro-tts.');
      } finally {
        await syncCatalog(catalog.t.store, entries);
      }
    });
  });
});
