import { Writable } from 'node:stream';
import { buildApp, type App } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { openStore, type Store } from '../../src/db/database.js';
import { prepareStore } from '../../src/setup.js';
import { createLogger } from '../../src/logger.js';
import { createSeededTestDatabase, type DialectName, type TestDatabase } from './databases.js';

export interface TestApp {
  app: App;
  store: Store;
  config: Config;
  database: TestDatabase;
  /** Every log line the app wrote, as text (for asserting what never reaches the logs). */
  logs: string[];
  close(): Promise<void>;
}

/**
 * Builds the whole service on a new, migrated and seeded database of `dialect`: a copy of the
 * run's template (see databases.ts), on which `prepareStore` then runs as on every later start
 * of the service (nothing left to migrate, the catalog file already loaded). `env` takes
 * the same variables as the real process (limits, secrets); DATABASE_URL is set here. `extend`
 * may add routes before the app is sealed (only for testing shared mechanisms).
 */
export async function createTestApp(
  dialect: DialectName,
  env: Record<string, string> = {},
  extend?: (app: App) => void,
): Promise<TestApp> {
  const database = await createSeededTestDatabase(dialect);
  const config = loadConfig({ LOG_LEVEL: 'info', ...env, DATABASE_URL: database.url });
  const store = openStore(config);
  await prepareStore(store, config);
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logs.push(chunk.toString());
      done();
    },
  });
  let app: App;
  try {
    app = await buildApp({ config, store, logger: createLogger(config.logLevel, sink) });
    extend?.(app);
    await app.ready();
  } catch (error) {
    // A test of a failing start must not leave its database behind.
    await store.close();
    await database.drop();
    throw error;
  }
  return {
    app,
    store,
    config,
    database,
    logs,
    close: async () => {
      await app.close();
      await store.close();
      await database.drop();
    },
  };
}
