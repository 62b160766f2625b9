import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/db/database.js';
import { WORKER_FILE_BYTES } from '../../src/modules/catalog/catalog.indexing.js';
import type { ListingEntry } from '../../src/modules/catalog/catalog.schemas.js';
import { seedCatalogFile } from '../../src/modules/catalog/catalog.seeder.js';
import { loadedCatalogHash, syncCatalog } from '../../src/modules/catalog/catalog.sync.js';
import { CatalogDataError, catalogFromJson } from '../../src/modules/catalog/catalog.loader.js';
import {
  createTestDatabase,
  openTestStore,
  suiteStore,
  testDialects,
} from '../helpers/databases.js';
import { syntheticCatalog } from '../helpers/synthetic-catalog.js';

/** `size` listings; a few copies' summaries have accented words (read by the slower path). */
const largeCatalog = (size: number): ListingEntry[] =>
  syntheticCatalog(size).map((entry, i) =>
    // Within the 200 characters a summary may have, whatever the listing copied.
    i % 5 === 1 ? { ...entry, summary: `${entry.summary.slice(0, 185)} Café édition.` } : entry,
  );

/** What a sync stored, in a stable order (the search index by term and block). */
async function stored(store: Store) {
  const { db } = store;
  const postings = await sql<{ term: string; block: number; df: number; entries: Uint8Array }>`
    select term, block, df, entries from catalog_postings order by term, block`.execute(db);
  const terms = await sql<{ term: string }>`select term from catalog_terms order by term`.execute(
    db,
  );
  // PostgreSQL's bigint seq arrives as a string.
  const listings = await sql<{
    seq: number | string;
    id: string;
    document: string;
    names_key: string;
  }>`
    select seq, id, document, names_key from catalog_listings order by seq`.execute(db);
  return {
    postings: postings.rows.map((row) => ({
      ...row,
      entries: Buffer.from(row.entries).toString('base64'),
    })),
    terms: terms.rows.map((row) => row.term),
    listings: listings.rows.map((row) => ({ ...row, seq: Number(row.seq) })),
  };
}

/**
 * The service compiled as `npm run build:server` compiles it, once for the file, into a
 * directory under node_modules (so that its imports resolve) removed after the tests.
 */
let compiled: Promise<string> | undefined;
const builds = resolve('node_modules/.cache/bazaar-test-builds');
afterAll(() => {
  rmSync(builds, { recursive: true, force: true });
});
function compiledBuild(): Promise<string> {
  compiled ??= (async () => {
    mkdirSync(builds, { recursive: true });
    const outDir = mkdtempSync(join(builds, 'dist-'));
    const tsc = resolve('node_modules/typescript/bin/tsc');
    await promisify(execFile)(process.execPath, [
      tsc,
      '-p',
      'tsconfig.build.json',
      '--outDir',
      outDir,
    ]);
    cpSync('src', outDir, { recursive: true, filter: (file) => !file.endsWith('.ts') });
    return outDir;
  })();
  return compiled;
}

/** Migrates the database at `url` and loads `file` into it, in a process running `build`. */
async function loadWithBuild(build: string, url: string, file: string): Promise<void> {
  const module = (path: string) => JSON.stringify(new URL(`file://${build}/${path}`).href);
  const script = `
    import { loadConfig } from ${module('config.js')};
    import { openStore } from ${module('db/database.js')};
    import { migrateToLatest } from ${module('db/migrate.js')};
    import { seedCatalogFile } from ${module('modules/catalog/catalog.seeder.js')};
    const store = openStore(loadConfig(process.env));
    await migrateToLatest(store);
    await seedCatalogFile(store, process.env.CATALOG_FILE);
    await store.close();`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'silent', CATALOG_FILE: file },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  expect(stderr).toBe('');
  expect(code).toBe(0);
}

async function indexDefinitions(store: Store): Promise<string[]> {
  const { rows } =
    store.dialect === 'postgres'
      ? await sql<{ definition: string }>`select indexdef as definition from pg_indexes
          where tablename like 'catalog%' order by indexname`.execute(store.db)
      : await sql<{ definition: string | null }>`select coalesce(sql, name) as definition
          from sqlite_master where type = 'index' and tbl_name like 'catalog%'
          order by name`.execute(store.db);
  return rows.map((row) => String(row.definition));
}

/**
 * A catalog file of a megabyte or more has its search index gathered on another thread while
 * the listings are checked and written, and a first load builds the listing indexes after the
 * rows. Neither may change what is stored: the same listings, postings and vocabulary as the
 * same entries synced in one thread, on a first load and on a load that changes some listings.
 */
describe.each(testDialects)('a large catalog file (%s)', (dialect) => {
  const fromFile = suiteStore(dialect);
  const inThread = suiteStore(dialect);
  const failing = suiteStore(dialect);
  const reference = suiteStore(dialect);
  const directory = mkdtempSync(join(tmpdir(), 'bazaar-bulk-'));
  afterAll(() => {
    rmSync(directory, { recursive: true, force: true });
  });

  const first = largeCatalog(800);
  // Some listings changed, some removed, some new.
  const second = [
    ...first
      .filter((_, i) => i % 9 !== 4)
      .map((entry, i) =>
        i % 7 === 0 ? { ...entry, description: `${entry.description} Now with webhooks.` } : entry,
      ),
    ...largeCatalog(900).slice(800),
  ];

  const load = async (entries: ListingEntry[], name: string) => {
    const file = join(directory, name);
    writeFileSync(file, JSON.stringify(entries));
    await seedCatalogFile(fromFile(), file);
    await syncCatalog(inThread(), entries);
  };

  it('should store the same listings and index as a sync in one thread', async () => {
    expect(JSON.stringify(first).length).toBeGreaterThan(WORKER_FILE_BYTES);
    const indexes = await indexDefinitions(fromFile());
    await load(first, 'first.json');
    const loaded = await stored(fromFile());
    expect(loaded.listings).toHaveLength(800);
    expect(loaded.listings.map((row) => row.seq)).toEqual(
      Array.from({ length: 800 }, (_, i) => i + 1),
    );
    expect(loaded.postings.length).toBeGreaterThan(800);
    expect(loaded.terms).toContain('webhook');
    expect(loaded).toEqual(await stored(inThread()));
    // The indexes dropped for the first load are back, as the migrations made them.
    expect(await indexDefinitions(fromFile())).toEqual(indexes);

    await load(second, 'second.json');
    const changed = await stored(fromFile());
    expect(changed.listings).toHaveLength(second.length);
    // New listings take the seqs after the last one, with no gap.
    expect(changed.listings.at(-1)?.seq).toBe(900);
    expect(changed).toEqual(await stored(inThread()));
    expect(changed.postings).not.toEqual(loaded.postings);
  });

  it('should store the same from the compiled build, whose second thread runs compiled code', async () => {
    const file = join(directory, 'compiled.json');
    writeFileSync(file, JSON.stringify(first));
    const database = await createTestDatabase(dialect);
    const store = openTestStore(database);
    try {
      await loadWithBuild(await compiledBuild(), database.url, file);
      const loaded = await stored(store);
      expect(loaded.listings).toHaveLength(800);
      await syncCatalog(reference(), first);
      expect(loaded).toEqual(await stored(reference()));
    } finally {
      await store.close();
      await database.drop();
    }
  }, 120_000);

  it('should refuse a file that fails the checks with their own error, storing nothing of it', async () => {
    const store = failing();
    const file = join(directory, 'failing.json');
    writeFileSync(file, JSON.stringify(first));
    await seedCatalogFile(store, file);
    const before = await stored(store);
    const hash = await loadedCatalogHash(store);
    const { provenance: _provenance, ...unsourced } = first[10] as ListingEntry;
    const broken: unknown[] = [
      // Refused by the schema, in the middle of the file.
      first.map((entry, i) => (i === 400 ? { ...entry, kind: 'robot' } : entry)),
      // A field the rows are made from, missing.
      first.map((entry, i) => (i === 10 ? unsourced : entry)),
      // Every listing as stored, one of them twice: nothing to write, and still refused.
      [...first, first[0]],
      // Not a list of listings at all.
      { listings: first },
    ];
    for (const data of broken) {
      const text = JSON.stringify(data);
      expect(text.length).toBeGreaterThan(WORKER_FILE_BYTES);
      const expected = (() => {
        try {
          catalogFromJson(text);
        } catch (error) {
          return error;
        }
        throw new Error('the broken file passed the checks');
      })();
      expect(expected).toBeInstanceOf(CatalogDataError);
      writeFileSync(file, text);
      const refused = seedCatalogFile(store, file);
      await expect(refused).rejects.toBeInstanceOf(CatalogDataError);
      await expect(refused).rejects.toThrow((expected as Error).message);
      expect(await stored(store)).toEqual(before);
      expect(await loadedCatalogHash(store)).toBe(hash);
    }
  });

  it.runIf(dialect === 'sqlite')('should give the page cache back after a sync', async () => {
    const cache = async () =>
      (await sql<{ cache_size: number }>`pragma cache_size`.execute(fromFile().db)).rows[0];
    const before = await cache();
    await syncCatalog(fromFile(), first);
    expect(await cache()).toEqual(before);
  });

  it.runIf(dialect === 'postgres')('should compress documents and postings with LZ4', async () => {
    const { rows } = await sql<{ attname: string; attcompression: string }>`
        select attname, attcompression from pg_attribute
        where (attrelid, attname) in (('catalog_listings'::regclass, 'document'),
          ('catalog_postings'::regclass, 'entries')) order by attname`.execute(fromFile().db);
    expect(rows).toEqual([
      { attname: 'document', attcompression: 'l' },
      { attname: 'entries', attcompression: 'l' },
    ]);
  });
});
