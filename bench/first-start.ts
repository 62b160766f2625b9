/**
 * The first and unchanged start at one catalog size, a few times on each database, without the
 * search latency that bench/search.ts goes on to measure:
 *
 *   npm run bench:first-start [-- --size 100000 --runs 3]
 *
 * Each run is a fresh database; start-up runs in a process of its own (the compiled service).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createTestDatabase, testDialects } from '../test/helpers/databases.js';
import { startUp, syntheticCatalog } from './support/catalog.js';

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '3' },
  },
});
const size = Number(values.size);
const directory = mkdtempSync(join(tmpdir(), 'bazaar-first-start-'));
const file = join(directory, 'catalog.json');
writeFileSync(file, JSON.stringify(syntheticCatalog(size)));
const seconds = (ms: number) => (ms / 1000).toFixed(2);
try {
  for (const dialect of testDialects) {
    for (let run = 1; run <= Number(values.runs); run++) {
      const database = await createTestDatabase(dialect);
      try {
        const first = await startUp(database.url, file);
        const again = await startUp(database.url, file);
        const load = loadavg()[0]?.toFixed(1) ?? '?';
        console.log(
          `${dialect}, ${size.toLocaleString('en')} listings, run ${run}: first start ${seconds(first.ms)} s (process CPU ${seconds(first.cpuMs)} s), unchanged start ${seconds(again.ms)} s; load average ${load}`,
        );
      } finally {
        await database.drop();
      }
    }
  }
} finally {
  rmSync(directory, { recursive: true, force: true });
}
