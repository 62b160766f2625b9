// Makes the stored catalog equal to the data file at start-up.

import { createHash, randomUUID } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';
import type { Store } from '../../db/database.js';
import {
  loadedFileHash,
  setCatalogGroups,
  setCatalogVersion,
  setLoadedFileHash,
} from './catalog.repository.js';
import { createIndexes, dropIndexes, withPageCache } from '../../db/bulk.js';
import {
  deleteListings,
  insertChanges,
  listingDocuments,
  storedListings,
  lockCatalog,
  newSeqs,
  refreshStatistics,
  replaceTerms,
  saveListings,
  type ListingRow,
  type NewChange,
} from './catalog.sync.repository.js';
import { CONCEPT_PHRASES } from './catalog.concepts.js';
import { groupsOf } from './catalog.facets.js';
import { indexEntries, type FileIndexer } from './catalog.indexing.js';
import { writePostings } from './catalog.postings.js';
import type { ListingEntry } from './catalog.schemas.js';
import { elementKey, nameKey, searchWords } from './catalog.text.js';

/**
 * Part of every content hash: bump it when the indexed words are derived differently, so the
 * next start rewrites every listing. The concept map's phrases are indexed as terms of their
 * own, so a change to them rewrites every listing too.
 */
const INDEX_FORMAT = `search-5 ${CONCEPT_PHRASES.map((stems) => stems.join(' ')).join('|')}`;

/** Tables whose secondary indexes a first load builds after writing its rows. */
const BULK_TABLES = ['catalog_listings', 'catalog_changes'];

/** SQLite: the writing connection's page cache during a sync (its default is 2 MiB). */
const PAGE_CACHE_MIB = 256;

/** How much of a catalog file is read at a time to hash it. */
const HASH_CHUNK_BYTES = 1 << 20;

/**
 * The hash of a catalog file's bytes, as stored once the file is loaded. Read a chunk at a time
 * into one buffer: an unchanged start reads nothing else. On one 2-core machine, reading a
 * 194 MB file whole into fresh memory and hashing it took 1.07 s; in chunks, 0.14 s.
 */
export function catalogFileHash(file: URL | string): string {
  const digest = createHash('sha256').update(INDEX_FORMAT);
  const chunk = Buffer.allocUnsafe(HASH_CHUNK_BYTES);
  const descriptor = openSync(file, 'r');
  try {
    for (;;) {
      const read = readSync(descriptor, chunk, 0, chunk.length, null);
      if (read === 0) break;
      digest.update(chunk.subarray(0, read));
    }
  } finally {
    closeSync(descriptor);
  }
  return digest.digest('hex');
}

/** The file hash given to the last sync, or undefined after a sync of other entries. */
export async function loadedCatalogHash(store: Store): Promise<string | undefined> {
  return (await loadedFileHash(store.db)) ?? undefined;
}

/** A listing as stored: its JSON document, and the hash that tells a later sync if it changed. */
interface Version {
  document: string;
  hash: string;
}

/** SHA-256 having read INDEX_FORMAT: each listing's hash goes on from a copy of it. */
const afterFormat = createHash('sha256').update(INDEX_FORMAT);

function versionOf(entry: ListingEntry): Version {
  const document = JSON.stringify(entry);
  // The hash of INDEX_FORMAT + document, without joining (and hashing) the 1.7 KB prefix each time.
  return { document, hash: afterFormat.copy().update(document).digest('hex') };
}

function rowOf(
  entry: ListingEntry,
  seq: number,
  { document, hash }: Version,
  now: string,
): ListingRow {
  const aliases = entry.aliases ?? [];
  return {
    seq,
    id: entry.id,
    kind: entry.kind,
    document,
    content_hash: hash,
    categories_key: elementKey(entry.categories),
    protocols_key: elementKey(entry.protocols),
    name_key: searchWords(entry.name).join(' '),
    names_key: `|${[entry.name, ...aliases].map(nameKey).join('|')}|`,
    status: entry.status,
    license_kind: entry.provenance.license_kind,
    created_at: now,
    updated_at: now,
  };
}

function changedFields(before: string | undefined, after: ListingEntry): string[] {
  const now = after as unknown as Record<string, unknown>;
  // A new listing: every field it has is new (no need to compare each with nothing).
  if (before === undefined)
    return Object.keys(now)
      .filter((key) => now[key] !== undefined)
      .sort();
  const old = JSON.parse(before) as Record<string, unknown>;
  return [...new Set([...Object.keys(old), ...Object.keys(now)])]
    .filter((key) => JSON.stringify(old[key]) !== JSON.stringify(now[key]))
    .sort();
}

/**
 * Makes the database's catalog equal to `entries`: new and changed listings are written (their
 * `updated_at` moves, a change is recorded), unchanged ones are left alone, listings no longer in
 * the data are removed. Only what changed is written, in batches. Idempotent, and safe when
 * several processes start at once. `fileHash` records which file the catalog now holds;
 * `indexer`, when given, is gathering the index of the file's listings (`entries`) meanwhile.
 */
export async function syncCatalog(
  store: Store,
  entries: readonly ListingEntry[],
  fileHash: string | null = null,
  indexer?: FileIndexer,
): Promise<void> {
  const now = new Date().toISOString();
  const changed = await store.db.transaction().execute((trx) =>
    withPageCache(trx, store.dialect, PAGE_CACHE_MIB, async () => {
      await lockCatalog(trx, store.dialect);
      await setLoadedFileHash(trx, fileHash);
      const known = await storedListings(trx);
      // Into an empty catalog every listing is written, and made into a row as it is (on
      // PostgreSQL while the server writes the batch before); otherwise the listings whose
      // version differs from the stored one.
      const written: { entry: ListingEntry; version?: Version }[] =
        known.size === 0
          ? entries.map((entry) => ({ entry }))
          : entries.flatMap((entry) => {
              const version = versionOf(entry);
              return known.get(entry.id)?.hash === version.hash ? [] : [{ entry, version }];
            });
      const kept = new Set(entries.map((entry) => entry.id));
      const removed = [...known.keys()].filter((id) => !kept.has(id));
      if (written.length === 0 && removed.length === 0) return 0;

      const before = await listingDocuments(trx, [
        ...written.filter(({ entry }) => known.has(entry.id)).map(({ entry }) => entry.id),
        ...removed,
      ]);
      const changes: NewChange[] = written.map(({ entry }) => ({
        listing_id: entry.id,
        change: known.has(entry.id) ? 'changed' : 'added',
        fields: JSON.stringify(changedFields(before.get(entry.id), entry)),
        changed_at: now,
      }));
      for (const id of removed) {
        changes.push({ listing_id: id, change: 'removed', fields: '[]', changed_at: now });
      }
      // A stored listing keeps its seq, a new one takes the next: known before anything is
      // written, so that an indexer on another thread can finish while the rows are written.
      const added = written.filter(({ entry }) => !known.has(entry.id)).length;
      const fresh = await newSeqs(trx, store.dialect, known, added);
      const seqOf = new Map<string, number>();
      let next = 0;
      for (const { entry } of written)
        seqOf.set(entry.id, known.get(entry.id)?.seq ?? (fresh[next++] as number));
      const seqs = Uint32Array.from(entries, (entry) => seqOf.get(entry.id) ?? 0);
      const indexing = indexer?.finish(seqs) ?? Promise.resolve(indexEntries(entries, seqs));
      // Awaited below; a failed write meanwhile must not leave its failure unhandled.
      indexing.catch(() => undefined);
      // A first load (nothing stored yet) builds the indexes once, after the rows are in.
      const rebuilt = known.size === 0 ? await dropIndexes(trx, store.dialect, BULK_TABLES) : [];
      await saveListings(
        trx,
        store,
        (function* () {
          for (const { entry, version } of written)
            yield rowOf(entry, seqOf.get(entry.id) ?? 0, version ?? versionOf(entry), now);
        })(),
        known,
      );
      const index = await indexing;
      await writePostings(
        trx,
        store,
        index,
        [...before].map(([id, document]) => ({
          entry: JSON.parse(document) as ListingEntry,
          seq: known.get(id)?.seq ?? 0,
        })),
      );
      await deleteListings(trx, removed);
      await insertChanges(trx, store, changes);
      await createIndexes(trx, rebuilt);
      await replaceTerms(trx, index.vocabulary());
      // What searches by filters alone are counted from, instead of counting listings.
      await setCatalogGroups(
        trx,
        groupsOf(
          entries.map((entry) => ({
            kind: entry.kind,
            categories_key: elementKey(entry.categories),
            protocols_key: elementKey(entry.protocols),
            status: entry.status,
            license_kind: entry.provenance.license_kind,
          })),
        ),
      );
      await setCatalogVersion(trx, randomUUID());
      return written.length + removed.length;
    }),
  );
  await refreshStatistics(store.db, store.dialect, changed, entries.length);
}
