// Gathers the search index of the listings a sync writes. For a large catalog file it starts on
// a thread of its own as soon as the file is read, while this one checks the listings and
// writes their rows.

import { Worker } from 'node:worker_threads';
import { PostingsBuilder, type PackedIndex } from './catalog.index.js';
import type { ListingEntry } from './catalog.schemas.js';

/** From this size on, a catalog file's index is gathered on another thread (about 500 listings). */
export const WORKER_FILE_BYTES = 1 << 20;

/**
 * The index of `entries`: `seqs[i]` is the seq entries[i] is written under, or 0 for a listing
 * left as it is, whose words count only for the vocabulary.
 */
export function indexEntries(entries: readonly ListingEntry[], seqs: Uint32Array): PostingsBuilder {
  const index = new PostingsBuilder();
  for (const [i, entry] of entries.entries()) {
    const seq = seqs[i] ?? 0;
    if (seq > 0) index.add(entry, seq);
    else index.observe(entry);
  }
  return index;
}

/** An index being gathered on another thread, for the listings of a catalog file. */
export interface FileIndexer {
  /**
   * The index, once told the seq of each of the file's listings (0 for one left as it is), as
   * `indexEntries` would gather it.
   */
  finish(seqs: Uint32Array): Promise<PostingsBuilder>;
  /** Stops the thread (a sync that fails does not wait for it). */
  stop(): void;
}

/**
 * Starts gathering the index of the listings in a catalog file's bytes (parsed as JSON, not
 * checked: the sync checks them, and only then asks for the index). The worker indexes every
 * listing under its position as a stand-in seq (catalog.index.worker.ts), then renumbers.
 */
export function indexFileInWorker(bytes: Uint8Array): FileIndexer {
  const worker = startWorker(bytes);
  // A start that fails meanwhile does not wait for the worker.
  worker.unref();
  const packed = new Promise<PackedIndex>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => {
      reject(new Error(`The index worker exited with ${code}`));
    });
  });
  // Awaited in finish(); until then a failure must not count as unhandled.
  packed.catch(() => undefined);
  return {
    finish: async (seqs) => {
      worker.postMessage(seqs);
      return PostingsBuilder.unpack(await packed);
    },
    stop: () => {
      void worker.terminate();
    },
  };
}

/** The compiled worker; from the TypeScript sources (tests, `npm run dev`), through tsx. */
function startWorker(bytes: Uint8Array): Worker {
  // No flags of this process's command line: some (`--input-type`, `--eval`) are refused by a
  // worker, and it needs none.
  const options = { workerData: { bytes }, execArgv: [] };
  if (!import.meta.url.endsWith('.ts'))
    return new Worker(new URL('./catalog.index.worker.js', import.meta.url), options);
  const tsx = import.meta.resolve('tsx/esm/api');
  const file = new URL('./catalog.index.worker.ts', import.meta.url).href;
  return new Worker(
    `import(${JSON.stringify(tsx)}).then(({ tsImport }) => tsImport(${JSON.stringify(file)}, ${JSON.stringify(import.meta.url)}))`,
    { ...options, eval: true },
  );
}
