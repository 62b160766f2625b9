import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { once } from 'node:events';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { testDialects, type TestDatabase } from '../helpers/databases.js';
import { serverProcesses } from '../helpers/process.js';
import { migrationsFor } from '../../src/db/migrations/index.js';

describe.each(testDialects)('server processes (%s)', (dialect) => {
  const processes = serverProcesses(dialect);

  it('should bring up two servers started at the same moment on one fresh database', async () => {
    const database = await processes.newDatabase();
    const started = await Promise.all([processes.start(), processes.start()]);
    for (const server of started) {
      const ready = await fetch(`${server.baseUrl}/readyz`);
      expect(ready.status).toBe(200);
    }
    // Every migration was applied exactly once.
    const applied = await appliedMigrations(database);
    expect(applied).toEqual(Object.keys(migrationsFor(dialect)).sort());
  });

  it('should finish a request in flight on SIGTERM, refuse new connections, close the database and exit 0', async () => {
    const database = await processes.newDatabase();
    const server = await processes.start();
    const { port } = new URL(server.baseUrl);

    // A request whose body is still arriving is in flight until its last byte is sent.
    const socket = connect(Number(port), '127.0.0.1');
    await once(socket, 'connect');
    const body = JSON.stringify({ probe: 'x'.repeat(1000) });
    socket.write(
      `POST /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
    );
    socket.write(body.slice(0, 10));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(chunks).toHaveLength(0);

    server.child.kill('SIGTERM');
    await waitFor(() => server.lines.some((line) => line.includes('shutting down')));
    await expect(fetch(`${server.baseUrl}/healthz`)).rejects.toThrow();

    socket.end(body.slice(10));
    await once(socket, 'close');
    // The request was answered (405: /healthz takes GET), not cut off by the shutdown.
    expect(Buffer.concat(chunks).toString()).toMatch(/^HTTP\/1\.1 405 /);
    expect(await server.exited).toBe(0);
    expect(server.lines.some((line) => line.includes('database closed'))).toBe(true);
    if (database.target.dialect === 'sqlite') {
      // The last connection to close checkpoints the WAL and removes it.
      expect(existsSync(`${database.target.path}-wal`)).toBe(false);
    } else {
      expect(await connectionsTo(database)).toBe(0);
    }
  });

  it('should answer a request that arrives during shutdown on an open connection with the 503 envelope', async () => {
    await processes.newDatabase();
    const server = await processes.start();
    const { port } = new URL(server.baseUrl);
    const socket = connect(Number(port), '127.0.0.1');
    await once(socket, 'connect');
    const body = JSON.stringify({ probe: 'x'.repeat(1000) });
    socket.write(
      `POST /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    socket.write(body.slice(0, 10));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    await new Promise((resolve) => setTimeout(resolve, 200));

    server.child.kill('SIGTERM');
    await waitFor(() => server.lines.some((line) => line.includes('shutting down')));
    // The rest of the first request, and a second one behind it on the same connection.
    socket.end(`${body.slice(10)}GET /api/catalog HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    await once(socket, 'close');
    const answers = Buffer.concat(chunks).toString();
    expect(answers).toMatch(/^HTTP\/1\.1 405 /);
    const second = answers.slice(answers.indexOf('HTTP/1.1 503 '));
    expect(second).toMatch(/^HTTP\/1\.1 503 /);
    expect(second).toMatch(/\r\nretry-after: 1\r\n/i);
    expect(second).toMatch(/\r\nx-request-id: /i);
    expect(second).toMatch(/\r\nconnection: close\r\n/i);
    expect(second).toContain('"success":false');
    expect(second).toContain('"code":"storage_unavailable"');
    expect(await server.exited).toBe(0);
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function appliedMigrations(database: TestDatabase): Promise<string[]> {
  if (database.target.dialect === 'sqlite') {
    const { BetterSqlite: Sqlite } = await import('../../src/db/better-sqlite3.js');
    const file = new Sqlite(database.target.path, { readonly: true });
    const rows = file.prepare('select name from kysely_migration order by name').all() as {
      name: string;
    }[];
    file.close();
    return rows.map((row) => row.name);
  }
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const { rows } = await client.query<{ name: string }>(
    'select name from kysely_migration order by name',
  );
  await client.end();
  return rows.map((row) => row.name);
}

async function connectionsTo(database: TestDatabase): Promise<number> {
  const name = new URL(database.url).pathname.slice(1);
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  const { rows } = await client.query<{ count: string }>(
    'select count(*) from pg_stat_activity where datname = $1',
    [name],
  );
  await client.end();
  return Number(rows[0]?.count);
}
