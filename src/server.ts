import closeWithGrace from 'close-with-grace';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { openStore } from './db/database.js';
import { prepareStore } from './setup.js';
import { createLogger } from './logger.js';

/** Starts the service: the only place that listens on a port and handles signals. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`Configuration error:\n${error.message.replace(/^/gm, '  ')}\n`);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel);
  const store = openStore(config);
  try {
    await prepareStore(store, config);
  } catch (error) {
    logger.fatal({ err: error }, 'could not prepare the database');
    await store.close();
    process.exit(1);
  }

  const app = await buildApp({ config, store, logger });
  app.server.keepAliveTimeout = 5_000;
  app.server.requestTimeout = 30_000;

  // On SIGTERM/SIGINT: stop accepting connections, let requests in flight finish, then close the
  // database. A second signal, or the grace period running out, ends the process at once.
  closeWithGrace({ delay: config.shutdownGraceSeconds * 1000, logger }, async ({ signal, err }) => {
    if (err !== undefined) logger.error({ err }, 'shutting down after an error');
    else logger.info({ signal }, 'shutting down');
    await app.close();
    await store.close();
    logger.info('database closed, bye');
  });

  await app.listen({ port: config.port, host: config.host });
}

await main();
