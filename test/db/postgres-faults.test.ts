import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { openStore } from '../../src/db/database.js';
import { isStorageUnavailable } from '../../src/db/errors.js';
import { prepareStore } from '../../src/setup.js';
import { sql } from 'kysely';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { adminQuery, createTestDatabase, testDialects } from '../helpers/databases.js';
import { GameClient, type TestPlayer, UNLIMITED } from '../helpers/game.js';

/**
 * PostgreSQL failing under a request: a statement held up past the time limit, a connection
 * lost under a turn or inside a transaction. Each is answered 503 with Retry-After, as storage
 * that cannot commit, and leaves nothing written.
 */
describe.runIf(testDialects.includes('postgres'))('PostgreSQL faults under a request', () => {
  let t: TestApp;
  let client: GameClient;
  /** A connection of another process (an administrator's psql, say). */
  let other: pg.Client;

  beforeAll(async () => {
    t = await createTestApp('postgres', { ...UNLIMITED, DATABASE_STATEMENT_TIMEOUT_MS: '1000' });
    client = new GameClient(t);
    other = new pg.Client({ connectionString: t.database.url });
    await other.connect();
  });
  afterAll(async () => {
    await other.end();
    await t.close();
  });

  /** Holds the player's row locked from the other connection while `during` runs. */
  async function withPlayerLocked<T>(player: TestPlayer, during: () => Promise<T>): Promise<T> {
    await other.query('begin');
    await other.query('select id from players where id = $1 for update', [player.id]);
    try {
      return await during();
    } finally {
      await other.query('rollback');
    }
  }

  /** A player with an open negotiation, and that negotiation's id. */
  async function negotiating(): Promise<{ player: TestPlayer; sessionId: string }> {
    const player = await client.newPlayer('fault');
    const product = (await client.inStockProducts()).at(-1);
    const started = await client.start(player, product?.id ?? '');
    expect(started.status).toBe(201);
    return { player, sessionId: started.body.data.id };
  }

  const roundsOf = async (sessionId: string) =>
    (
      await t.store.db
        .selectFrom('haggle_sessions')
        .select('rounds_count')
        .where('id', '=', sessionId)
        .executeTakeFirstOrThrow()
    ).rounds_count;

  it('should answer 503 when a lock holds a turn past the time limit, and write nothing', async () => {
    const { player, sessionId } = await negotiating();
    const offer = await withPlayerLocked(player, () => client.offer(player, sessionId, 1));
    expect(offer.status).toBe(503);
    expect(offer.body).toMatchObject({ success: false, code: 'storage_unavailable' });
    expect(offer.response.headers['retry-after']).toMatch(/^\d+$/);
    expect(await roundsOf(sessionId)).toBe(0);
    expect((await client.offer(player, sessionId, 1)).status).toBe(200);
    expect(await roundsOf(sessionId)).toBe(1);
  });

  it('should answer 503, not 500, when the connection is lost while a turn waits, and not reuse it', async () => {
    const { player, sessionId } = await negotiating();
    const offer = await withPlayerLocked(player, async () => {
      const pending = client.offer(player, sessionId, 1);
      // The turn's write waits for the lock: its connection is ended there.
      let waiting: number | undefined;
      for (let tries = 0; waiting === undefined && tries < 200; tries += 1) {
        // Inside this connection's transaction the view would keep its first snapshot.
        await other.query('select pg_stat_clear_snapshot()');
        const { rows } = await other.query<{ pid: number }>(
          `select pid from pg_stat_activity
            where datname = current_database() and pid <> pg_backend_pid() and wait_event_type = 'Lock'`,
        );
        waiting = rows[0]?.pid;
        if (waiting === undefined) await new Promise((resolve) => setTimeout(resolve, 5));
      }
      expect(waiting).toBeDefined();
      await other.query('select pg_terminate_backend($1)', [waiting]);
      return pending;
    });
    expect(offer.status).toBe(503);
    expect(offer.body).toMatchObject({ success: false, code: 'storage_unavailable' });
    expect(offer.response.headers['retry-after']).toMatch(/^\d+$/);
    // The pool closed the ended connection instead of handing it to the next query.
    expect(await roundsOf(sessionId)).toBe(0);
    expect((await client.offer(player, sessionId, 1)).status).toBe(200);
  });

  it('should take a connection lost between two statements of a transaction as storage unavailable', async () => {
    const failure = await t.store.db
      .transaction()
      .execute(async (trx) => {
        const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
        await other.query('select pg_terminate_backend($1)', [rows[0]?.pid]);
        // The client learns of it before its next statement, which it refuses ("not queryable"),
        // and so does the rollback that follows, whose error takes the statement's place.
        await new Promise((resolve) => setTimeout(resolve, 100));
        await sql`select 1`.execute(trx);
      })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect((failure as Error | undefined)?.message).toMatch(/not queryable/);
    expect(isStorageUnavailable(failure)).toBe(true);
  });

  it('should keep a connection whose statement went past the time limit', async () => {
    const database = await createTestDatabase('postgres');
    const config = loadConfig({ DATABASE_URL: database.url, DATABASE_STATEMENT_TIMEOUT_MS: '200' });
    // One connection: the same one serves every query unless the pool closes it.
    const store = openStore({ ...config, databasePoolSize: 1 });
    const pid = async () =>
      (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(store.db)).rows[0]?.pid;
    try {
      const before = await pid();
      const failure = await sql`select pg_sleep(1)`.execute(store.db).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect((failure as { code?: string } | undefined)?.code).toBe('57014');
      expect(await pid()).toBe(before);
    } finally {
      await store.close();
      await database.drop();
    }
  });

  it('should set a database up without the time limit, which serving keeps', async () => {
    const database = await createTestDatabase('postgres');
    // A limit of the database's own, which neither the setup nor `0` may inherit.
    const name = new URL(database.url).pathname.slice(1);
    await adminQuery(database.url, `alter database ${name} set statement_timeout = '20ms'`);
    // Far too short for a first start's migrations and catalog load, which do not have it.
    const config = loadConfig({ DATABASE_URL: database.url, DATABASE_STATEMENT_TIMEOUT_MS: '1' });
    const store = openStore(config);
    const unlimited = openStore({ ...config, databaseStatementTimeoutMs: 0 });
    try {
      await prepareStore(store, config);
      const failure = await sql`select pg_sleep(0.2)`.execute(store.db).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect((failure as { code?: string } | undefined)?.code).toBe('57014');
      expect(isStorageUnavailable(failure)).toBe(true);
      // 0 is no limit, not the database's.
      const { rows } = await sql<{ slept: string }>`select pg_sleep(0.2)::text as slept`.execute(
        unlimited.db,
      );
      expect(rows).toEqual([{ slept: '' }]);
    } finally {
      await store.close();
      await unlimited.close();
      await database.drop();
    }
  });
});
