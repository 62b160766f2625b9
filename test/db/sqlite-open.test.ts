import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqlite } from '../../src/db/sqlite-connection.js';

// Another process that holds a new file while this one opens it, played by a thread: it takes
// the file whole (as switching it to WAL or migrating does), then lets go after 400 ms.
const HOLDER = `
const { parentPort, workerData } = require('node:worker_threads');
const name = Number(process.versions.node.split('.')[0]) >= 22 ? 'better-sqlite3-napi' : 'better-sqlite3';
let Database;
try { Database = require(name); } catch { Database = require('better-sqlite3'); }
const db = new Database(workerData.path);
db.exec('BEGIN EXCLUSIVE');
parentPort.postMessage('holding');
Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 400);
db.exec('COMMIT');
db.close();
`;

describe('opening a SQLite file another process holds', () => {
  const directory = mkdtempSync(join(tmpdir(), 'bazaar-open-'));
  afterAll(() => {
    rmSync(directory, { recursive: true, force: true });
  });

  it('should wait for it at start, as long as the busy timeout allows, and not fail', async () => {
    const path = join(directory, 'new.db');
    const holder = new Worker(HOLDER, { eval: true, workerData: { path } });
    const [message] = (await once(holder, 'message')) as [string];
    expect(message).toBe('holding');
    const database = openSqlite({ path, busyTimeoutMs: 5000, synchronous: 'NORMAL' });
    try {
      expect(database.pragma('journal_mode', { simple: true })).toBe('wal');
      // Serving, SQLite itself waits only a few milliseconds (the driver waits without blocking).
      expect(database.pragma('busy_timeout', { simple: true })).toBe(5);
    } finally {
      database.close();
      await once(holder, 'exit');
    }
  });
});
