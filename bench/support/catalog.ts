// Synthetic catalogs and the timed start-up of the compiled service, for bench/search.ts and
// bench/first-start.ts.

import { spawn } from 'node:child_process';
import { once } from 'node:events';
export { syntheticCatalog } from '../../test/helpers/synthetic-catalog.js';

/**
 * What a server's start does with the catalog, timed in a process of its own running the
 * compiled service (as `npm start` does; not in the benchmark's, whose heap holds the synthetic
 * catalog): migrate, then load the file. Milliseconds, and the process's CPU milliseconds.
 */
export async function startUp(url: string, file: string): Promise<{ ms: number; cpuMs: number }> {
  const script = `
    import { loadConfig } from './dist/config.js';
    import { openStore } from './dist/db/database.js';
    import { migrateToLatest } from './dist/db/migrate.js';
    import { seedCatalogFile } from './dist/modules/catalog/catalog.seeder.js';
    const store = openStore(loadConfig(process.env));
    const started = performance.now();
    const cpu = process.cpuUsage();
    await migrateToLatest(store);
    await seedCatalogFile(store, process.env.BENCH_CATALOG_FILE);
    const used = process.cpuUsage(cpu);
    console.log(JSON.stringify({ ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000 }));
    await store.close();`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    // No time limit on statements, as a start's setup has none (prepareStore).
    env: {
      ...process.env,
      DATABASE_URL: url,
      LOG_LEVEL: 'silent',
      BENCH_CATALOG_FILE: file,
      DATABASE_STATEMENT_TIMEOUT_MS: '0',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`the start-up process exited with ${String(code)}`);
  return JSON.parse(output.trim().split('\n').pop() ?? '{}') as { ms: number; cpuMs: number };
}
