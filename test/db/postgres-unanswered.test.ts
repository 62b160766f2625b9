import { createServer, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/db/database.js';
import { isStorageUnavailable } from '../../src/db/errors.js';

// A "PostgreSQL server" that accepts connections and never says a word: a hung or overloaded
// server as the service sees it. Nothing may wait on it forever.
describe('a PostgreSQL server that does not answer', { timeout: 30_000 }, () => {
  const sockets = new Set<Socket>();
  const silent = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  let store: Store;

  beforeAll(async () => {
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    store = openStore({
      database: { dialect: 'postgres', url: `postgres://postgres@127.0.0.1:${port}/none` },
      sqliteBusyTimeoutMs: 1000,
      sqliteSynchronous: 'NORMAL',
      databasePoolSize: 2,
    });
  });
  afterAll(async () => {
    await store.close();
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });

  it('should say it is not ready instead of waiting for the ping', async () => {
    expect(await store.ping()).toBe(false);
  });

  it('should fail a query as storage unavailable (503) instead of holding it', async () => {
    const failure = await store.db
      .selectFrom('players')
      .select('id')
      .execute()
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(failure).toBeInstanceOf(Error);
    expect(isStorageUnavailable(failure)).toBe(true);
  });
});
