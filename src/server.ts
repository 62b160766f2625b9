import closeWithGrace from 'close-with-grace';
import { buildApp } from './app.js';
import { ConfigError, describeDatabase, loadConfig } from './config.js';
import { openStore, type Store } from './db/database.js';
import { databaseProblem } from './db/errors.js';
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
  let store: Store | undefined;
  try {
    store = openStore(config);
    await prepareStore(store, config);
  } catch (error) {
    logger.debug({ err: error }, 'database preparation failed');
    logger.fatal(databaseProblem(error, config.database));
    await store?.close();
    process.exit(1);
  }

  let app;
  try {
    app = await buildApp({ config, store, logger });
  } catch (error) {
    // Today only an unreachable REDIS_URL ends up here; its message says so.
    logger.fatal(`Could not start: ${(error as Error).message}`);
    await store.close();
    process.exit(1);
  }

  // On SIGTERM/SIGINT: stop accepting connections, let requests in flight finish, then close the
  // database. A second signal, or the grace period running out, ends the process at once.
  let stopping = false;
  const closing = closeWithGrace(
    { delay: config.shutdownGraceSeconds * 1000, logger },
    async ({ signal, err }) => {
      stopping = true;
      process.off('message', onMessage);
      if (err !== undefined) logger.error({ err }, 'shutting down after an error');
      else logger.info({ signal }, 'shutting down');
      await app.close();
      await store.close();
      logger.info('database closed, bye');
    },
  );
  // Under `npm run start:cluster` the primary asks its servers to stop by message, not by a
  // signal: a signal sent to the whole process group (Ctrl-C, systemd's default) has reached
  // them already, and a second one would mean "exit now", cutting requests in flight.
  function onMessage(message: unknown): void {
    if (message === 'shutdown' && !stopping) closing.close();
  }
  if (process.send !== undefined) process.on('message', onMessage);

  let address;
  try {
    address = await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    closing.uninstall();
    logger.fatal(listenProblem(error, config.host, config.port));
    await app.close();
    await store.close();
    process.exit(1);
  }
  logger.info(
    { database: describeDatabase(config.database), url: address, docs: `${address}/docs` },
    `Bazaar is serving ${describeDatabase(config.database)} at ${address} (docs: ${address}/docs)`,
  );
}

/** Why the server could not listen, in one line an operator can act on. */
function listenProblem(error: unknown, host: string, port: number): string {
  const where = `port ${String(port)} on ${host}`;
  if ((error as { code?: unknown }).code === 'EADDRINUSE') {
    return `Could not start: ${where} is already in use by another program; stop that program, or choose another port with PORT.`;
  }
  return `Could not start: cannot listen on ${where} (${(error as Error).message}); check PORT and HOST.`;
}

await main();
