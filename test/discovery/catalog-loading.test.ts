import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CatalogDataError,
  loadCatalogFile,
  parseCatalog,
  QUICK_CHECK_ENTRIES,
} from '../../src/modules/catalog/catalog.loader.js';
import type { ListingEntry } from '../../src/modules/catalog/catalog.schemas.js';
import { seedCatalogFile } from '../../src/modules/catalog/catalog.seeder.js';
import { catalogFileHash, syncCatalog } from '../../src/modules/catalog/catalog.sync.js';
import { catalogSuite, type ListingChange, type ListingData } from '../helpers/catalog.js';
import { testDialects } from '../helpers/databases.js';
import { syntheticCatalog } from '../helpers/synthetic-catalog.js';

/**
 * Loading the catalog's data file: what it refuses, how a changed file updates the listings and
 * their history and feed, and that an unchanged file is not read again.
 */
describe.each(testDialects)('catalog (%s)', (dialect) => {
  const catalog = catalogSuite(dialect);
  const { search } = catalog;

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

    it('should measure a field in characters, however many code units each one takes', () => {
      // A small file, and one large enough for the quick check that runs before the exact one.
      for (const entries of [sample().slice(0, 1), syntheticCatalog(QUICK_CHECK_ENTRIES)]) {
        const last = entries.length - 1;
        const withSummary = (summary: string) =>
          parseCatalog(entries.map((entry, i) => (i === last ? { ...entry, summary } : entry)));
        // 200 characters of two UTF-16 code units each: at the summary's limit, not over it.
        expect(withSummary('𝔸'.repeat(200))[last]?.summary).toHaveLength(400);
        expect(() => withSummary('𝔸'.repeat(201))).toThrow(
          new RegExp(`entry ${last + 1} .*field "summary" must NOT have more than 200 characters`),
        );
        expect(() => withSummary('')).toThrow(new RegExp(`entry ${last + 1} .*field "summary"`));
      }
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
      await syncCatalog(catalog.t.store, edited);
      await syncCatalog(catalog.t.store, edited); // idempotent
      const found = (await search('?q=zyxwvut')).body.data.items;
      expect(found.map((item) => item.id)).toEqual([changed.id]);
      expect(found[0]?.updated_at).not.toBe(
        before.find((item) => item.id === changed.id)?.updated_at,
      );
      expect((await catalog.t.app.inject(`/api/catalog/${removed.id}`)).statusCode).toBe(404);
      expect(
        (await search(`?q=${encodeURIComponent(removed.name)}`)).body.data.items.map(
          (item) => item.id,
        ),
      ).not.toContain(removed.id);
      const keptNow = (await catalog.t.app.inject(`/api/catalog/${kept.id}`)).json<{
        data: ListingData;
      }>().data;
      expect(keptNow.updated_at).toBe(before.find((item) => item.id === kept.id)?.updated_at);
      // A changed listing's words are replaced in the index, not added to.
      await syncCatalog(
        catalog.t.store,
        edited.map((entry) =>
          entry.id === changed.id ? { ...entry, summary: 'Another summary.' } : entry,
        ),
      );
      expect((await search('?q=zyxwvut')).body.data.total).toBe(0);
      await syncCatalog(catalog.t.store, entries);
      expect((await catalog.t.app.inject(`/api/catalog/${removed.id}`)).statusCode).toBe(200);
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
      await syncCatalog(catalog.t.store, edited);

      const page = (await catalog.t.app.inject('/api/catalog/ollama')).json<{
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
      // Filtered by another kind too, nothing matches, and the kind facet says which one would.
      const otherKind = await search(
        `?updated_since=${encodeURIComponent(before)}&kind=${since.body.data.items[0]?.kind === 'tool' ? 'agent' : 'tool'}`,
      );
      expect(otherKind.body.data.total).toBe(0);
      expect(otherKind.body.data.facets.kind).toEqual({
        [since.body.data.items[0]?.kind ?? '']: 1,
      });
      expect((await search('?updated_since=yesterday')).status).toBe(400);
      // A date alone is no instant: the answer shows one.
      const dateOnly = await search('?updated_since=2026-11-01');
      expect(dateOnly.status).toBe(400);
      expect(dateOnly.body).toMatchObject({
        details: [
          {
            field: 'updated_since',
            message: 'must be an ISO 8601 date and time, such as 2026-11-01T00:00:00Z',
          },
        ],
      });
      // What the date-time format lets through but names no instant: a leap second, the year 0.
      for (const time of ['2016-12-31T23:59:60Z', '0000-01-01T00:00:00Z']) {
        const refused = await search(`?updated_since=${encodeURIComponent(time)}`);
        expect(refused.status, time).toBe(400);
        expect(refused.body).toMatchObject({ details: [{ field: 'updated_since' }] });
      }

      // An alias is searched like a name, typos included.
      expect((await search('?q=llama%20runner')).body.data.items[0]?.id).toBe('ollama');
      const typo = (await search('?q=lama%20runer')).body.data;
      expect(typo.corrected_query).toBe('llama runner');
      expect(typo.items[0]?.id).toBe('ollama');

      const feed = await catalog.t.app.inject('/api/catalog/feed.atom');
      expect(feed.statusCode).toBe(200);
      expect(feed.headers['content-type']).toMatch(/^application\/atom\+xml/);
      expect(feed.body).toContain('<feed xmlns="http://www.w3.org/2005/Atom">');
      const firstEntry = feed.body.split('<entry>')[1] ?? '';
      expect(firstEntry).toContain('/api/catalog/ollama#change-');
      expect(firstEntry).toContain('Changed: aliases, checked_at, sources, summary.');
      expect(firstEntry).toContain(`<updated>${page.updated_at}</updated>`);

      await syncCatalog(catalog.t.store, entries);
      const restored = (await catalog.t.app.inject('/api/catalog/ollama')).json<{
        data: ListingData;
      }>().data;
      expect(restored.aliases).toEqual(original?.aliases ?? []);
      expect(restored.sources).toEqual(original?.sources ?? [restored.provenance.source_url]);
    });

    it('should hash a data file by its bytes, across the chunks it is read in', () => {
      const directory = mkdtempSync(join(tmpdir(), 'bazaar-catalog-'));
      try {
        // Two and a half chunks of 1 MiB: the last one is short.
        const bytes = Buffer.alloc(2.5 * 1024 * 1024, 'listing ');
        const [a, b, c] = [
          join(directory, 'a.json'),
          join(directory, 'b.json'),
          join(directory, 'c.json'),
        ];
        writeFileSync(a, bytes);
        writeFileSync(b, bytes);
        bytes[bytes.length - 1] = 0x21;
        writeFileSync(c, bytes);
        expect(catalogFileHash(a)).toBe(catalogFileHash(b));
        expect(catalogFileHash(c)).not.toBe(catalogFileHash(a));
        expect(catalogFileHash(a)).toMatch(/^[0-9a-f]{64}$/);
      } finally {
        rmSync(directory, { recursive: true, force: true });
      }
    });

    it('should not even read a data file again that is unchanged since the last start', async () => {
      const directory = mkdtempSync(join(tmpdir(), 'bazaar-catalog-'));
      const file = join(directory, 'catalog.json');
      try {
        writeFileSync(file, JSON.stringify(loadCatalogFile()));
        await seedCatalogFile(catalog.t.store, file);
        const loaded = await catalog.t.store.db
          .selectFrom('settings')
          .select('value')
          .where('key', '=', 'catalog_file_hash')
          .executeTakeFirstOrThrow();
        expect(loaded.value).toBe(catalogFileHash(file));
        // Removed behind the loader's back while the same file is recorded as loaded: the next
        // start skips the file, so the listing stays removed…
        await syncCatalog(
          catalog.t.store,
          loadCatalogFile().filter((entry) => entry.id !== 'qdrant'),
          loaded.value,
        );
        await seedCatalogFile(catalog.t.store, file);
        expect((await catalog.t.app.inject('/api/catalog/qdrant')).statusCode).toBe(404);
        // …while a file that differs in any byte is loaded.
        writeFileSync(file, JSON.stringify(loadCatalogFile(), null, 1));
        await seedCatalogFile(catalog.t.store, file);
        expect((await catalog.t.app.inject('/api/catalog/qdrant')).statusCode).toBe(200);
      } finally {
        await syncCatalog(catalog.t.store, loadCatalogFile());
        rmSync(directory, { recursive: true, force: true });
      }
    });
  });
});
