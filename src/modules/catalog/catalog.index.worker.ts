// The thread that gathers a large catalog file's search index (catalog.indexing.ts starts it):
// every listing under its position, then, told the real seqs, renumbered and sent back.

import { parentPort, workerData } from 'node:worker_threads';
import { PostingsBuilder } from './catalog.index.js';
import type { ListingEntry } from './catalog.schemas.js';

function indexFile({ bytes }: { bytes: Uint8Array }): PostingsBuilder {
  const entries = JSON.parse(new TextDecoder().decode(bytes)) as (ListingEntry | undefined)[];
  const index = new PostingsBuilder();
  for (let i = 0; i < entries.length; i++) {
    index.add(entries[i] as ListingEntry, i + 1);
    // Let each listing go once counted: the other thread holds the catalog as well.
    entries[i] = undefined;
  }
  return index;
}

const index = indexFile(workerData as { bytes: Uint8Array });

parentPort?.once('message', (seqs: Uint32Array) => {
  index.renumber(seqs);
  const packed = index.pack();
  parentPort?.postMessage(packed, [
    packed.lengths.buffer,
    packed.seqs.buffer,
    packed.weights.buffer,
    packed.masks.buffer,
    packed.added.buffer,
  ]);
});
