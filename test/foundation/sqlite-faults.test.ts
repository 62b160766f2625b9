import { setTimeout as sleep } from 'node:timers/promises';
import { BetterSqlite } from '../../src/db/better-sqlite3.js';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

const fileRequest = (t: TestApp) =>
  t.app.inject({
    method: 'POST',
    url: '/api/requests',
    payload: {
      kind: 'capability',
      task: `An MCP server for our read replicas, please. ${'x'.repeat(1500)}`,
    },
  });

/** Another process's connection holding the write lock on the same file for `ms`. */
function holdWriteLock(t: TestApp, ms: number) {
  if (t.database.target.dialect !== 'sqlite') throw new Error('SQLite only');
  const holder = new BetterSqlite(t.database.target.path);
  holder.exec('begin exclusive');
  const released = sleep(ms).then(() => {
    holder.exec('commit');
    holder.close();
  });
  return { held: () => holder.open && holder.inTransaction, released };
}

describe('SQLite faults', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  describe('errors', () => {
    it('should answer a full disk with 503 storage_unavailable, not a failed rollback', async () => {
      t = await createTestApp('sqlite', { REQUESTS_DAILY_LIMIT_PER_CLIENT: '1000' });
      const pages = await sql<{ page_count: number }>`pragma page_count`.execute(t.store.db);
      await sql`create table filler (bytes blob)`.execute(t.store.db);
      await sql
        .raw(`pragma max_page_count = ${(pages.rows[0]?.page_count ?? 0) + 4}`)
        .execute(t.store.db);
      // Fill what is left, down to the last few bytes, so the next write needs a page it cannot have.
      for (const size of [4000, 500, 20]) {
        const fill = t.store.db;
        await expect(
          (async () => {
            for (;;) await sql`insert into filler values (randomblob(${size}))`.execute(fill);
          })(),
        ).rejects.toMatchObject({ code: 'SQLITE_FULL' });
      }

      // Requests still fit in their tables' free space for a while; the first one that needs a
      // new page meets the full disk.
      let response = await fileRequest(t);
      for (let tries = 0; response.statusCode === 201 && tries < 200; tries += 1) {
        response = await fileRequest(t);
      }
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({ success: false, code: 'storage_unavailable' });
      expect(t.logs.join('')).not.toMatch(/no transaction is active/);

      // Once space is back, the same connection writes again: nothing was left half-open.
      await sql`drop table filler`.execute(t.store.db);
      expect((await fileRequest(t)).statusCode).toBe(201);
    });
  });

  describe('another process holding the write lock', () => {
    it('should keep answering health checks and reads, then finish the write', async () => {
      t = await createTestApp('sqlite');
      const lock = holdWriteLock(t, 3000);
      let writeSettled = false as boolean;
      const write = fileRequest(t).finally(() => (writeSettled = true));

      let answeredWhileLocked = 0;
      while (lock.held()) {
        const [health, read] = await Promise.all([
          t.app.inject('/healthz'),
          t.app.inject('/api/catalog/langchain'),
        ]);
        expect(health.statusCode).toBe(200);
        expect(read.statusCode).toBe(200);
        if (lock.held() && !writeSettled) answeredWhileLocked += 1;
        await sleep(50);
      }
      await lock.released;
      // Answered all along the 3 s (one round every ~50 ms), not only once the lock was gone.
      expect(answeredWhileLocked).toBeGreaterThanOrEqual(20);
      expect((await write).statusCode).toBe(201);
    });

    it('should answer the write 503 once SQLITE_BUSY_TIMEOUT_MS has passed', async () => {
      t = await createTestApp('sqlite', { SQLITE_BUSY_TIMEOUT_MS: '300' });
      const lock = holdWriteLock(t, 1500);
      const response = await fileRequest(t);
      expect(lock.held()).toBe(true);
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({ code: 'storage_unavailable' });
      expect((await t.app.inject('/healthz')).statusCode).toBe(200);
      await lock.released;
      expect((await fileRequest(t)).statusCode).toBe(201);
    });
  });
});
