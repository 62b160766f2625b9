import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect, createServer, type AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLogger, redactUrl, requestLoggerFactory } from '../../src/logger.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { BetterSqlite } from '../../src/db/better-sqlite3.js';
import { databaseProblem } from '../../src/db/errors.js';
import {
  createSeededTestDatabase,
  createTestDatabase,
  openTestStore,
  testDialects,
} from '../helpers/databases.js';
import { startServer } from '../helpers/process.js';

const run = promisify(execFile);

/** The one line a failed start logs, read as JSON (the test fails on any other output). */
function onlyLine(output: string): { level: number; msg: string } {
  const lines = output.trim().split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0] ?? '') as { level: number; msg: string };
}

/** Starts the server with `env` and returns its exit code and output (for failed starts). */
async function failedStart(env: Record<string, string>) {
  try {
    await run(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env },
      timeout: 60_000,
    });
    return { code: 0, output: '' };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

describe('operating the service', () => {
  describe('request logs', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp('sqlite', {}, (app) => {
        // Storage that fails after the client has hung up.
        app.get('/test/late-storage-failure', async () => {
          await new Promise((resolve) => setTimeout(resolve, 300));
          throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
        });
      });
    });
    afterAll(() => t.close());
    /** Sends `raw` to the app on a real socket and closes it 100 ms later, answered or not. */
    async function sendAndHangUp(raw: string): Promise<void> {
      if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = t.app.server.address() as AddressInfo;
      await new Promise<void>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => {
          socket.write(raw);
          setTimeout(() => {
            socket.destroy();
            resolve();
          }, 100);
        });
        socket.on('error', reject);
      });
    }

    it('should log one line per request with method, route, status, code and duration', async () => {
      await t.app.inject({ url: '/api/catalog/nothing-here', headers: { 'x-request-id': 'r-1' } });
      const lines = t.logs
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((line) => line.reqId === 'r-1');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({
        method: 'GET',
        route: '/api/catalog/:id',
        status: 404,
        code: 'not_found',
        ms: expect.any(Number),
      });
    });

    it('should log a client that hangs up mid-body as that, not as a storage failure', async () => {
      await sendAndHangUp(
        'POST /api/requests HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
          'Content-Length: 100\r\nX-Request-Id: cut-1\r\n\r\n{"task":',
      );
      const cut = () =>
        t.logs
          .map((line) => JSON.parse(line) as Record<string, unknown>)
          .filter((line) => line.reqId === 'cut-1');
      await vi.waitFor(() => {
        expect(cut()).toHaveLength(1);
      });
      expect(cut()[0]).toMatchObject({
        level: 30,
        method: 'POST',
        route: '/api/requests',
        code: 'malformed_request',
      });
      expect(t.logs.join('')).not.toContain('storage_unavailable');
    });

    it('should log a storage failure as one, even when its client has hung up meanwhile', async () => {
      await sendAndHangUp(
        'GET /test/late-storage-failure HTTP/1.1\r\nHost: x\r\nX-Request-Id: gone-1\r\n\r\n',
      );
      const failed = () =>
        t.logs
          .map((line) => JSON.parse(line) as Record<string, unknown>)
          .filter((line) => line.reqId === 'gone-1' && line.level === 50);
      await vi.waitFor(() => {
        expect(failed()).toHaveLength(1);
      });
      expect(failed()[0]).toMatchObject({ code: 'storage_unavailable', msg: 'request failed' });
      const gone = t.logs.filter((line) => line.includes('gone-1'));
      expect(gone.join('')).not.toContain('malformed_request');
    });

    it('should write request lines in the format of every other line', async () => {
      await t.app.inject({ url: '/healthz', headers: { 'x-request-id': 'r-2' } });
      const line = t.logs
        .map((text) => JSON.parse(text) as Record<string, unknown>)
        .find((fields) => fields.reqId === 'r-2');
      const other = JSON.parse(t.logs[0] ?? '{}') as Record<string, unknown>;
      expect(line).toEqual({
        level: 30,
        time: expect.any(Number),
        pid: other.pid,
        hostname: other.hostname,
        reqId: 'r-2',
        method: 'GET',
        route: '/healthz',
        url: '/healthz',
        status: 200,
        ms: expect.any(Number),
        msg: 'GET /healthz 200',
      });
      expect(Math.abs((line?.time as number) - Date.now())).toBeLessThan(60_000);
    });

    it('should leave request lines out when the log level is above info', async () => {
      const quiet = await createTestApp('sqlite', { LOG_LEVEL: 'warn' });
      try {
        await quiet.app.inject({ url: '/healthz', headers: { 'x-request-id': 'r-quiet' } });
        expect(quiet.logs.join('')).not.toContain('r-quiet');
      } finally {
        await quiet.close();
      }
    });

    it('should make a request’s own logger only when something logs through it', () => {
      const lines: string[] = [];
      const parent = createLogger('info', { write: (line: string) => lines.push(line) });
      const made = vi.spyOn(parent, 'child');
      const quiet = requestLoggerFactory(parent, { reqId: 'r-lazy' }, {});
      const loud = requestLoggerFactory(parent, { reqId: 'r-loud' }, { level: 'warn' });
      expect(quiet.level).toBe('info');
      expect(loud.level).toBe('warn');
      expect(made).not.toHaveBeenCalled();
      loud.info('below its level');
      loud.warn({ code: 'x' }, 'at its level');
      loud.error('and %s', 'formatted');
      expect(made).toHaveBeenCalledTimes(1);
      expect(lines.map((line) => JSON.parse(line) as Record<string, unknown>)).toMatchObject([
        { level: 40, reqId: 'r-loud', code: 'x', msg: 'at its level' },
        { level: 50, reqId: 'r-loud', msg: 'and formatted' },
      ]);
    });

    it('should hide credentials in logged query strings', async () => {
      await t.app.inject('/api/catalog?token=rq_secretvalue&q=x&api_key=hg_abc');
      expect(t.logs.join('')).not.toMatch(/rq_secretvalue|hg_abc/);
      expect(redactUrl('/a?key=1&b=2')).toBe('/a?key=[redacted]&b=2');
      // Any parameter named like a credential, in any case.
      expect(
        redactUrl('/a?secret=s1&client_secret=s2&passwd=s3&X-API-Key=s4&bearer=s5&q=x&Password=s6'),
      ).toBe(
        '/a?secret=[redacted]&client_secret=[redacted]&passwd=[redacted]&X-API-Key=[redacted]&bearer=[redacted]&q=x&Password=[redacted]',
      );
      // A key or token anywhere (another parameter, the path), and e-mail addresses.
      const key = `hg_${'0a'.repeat(24)}`;
      const token = `rq_${'A'.repeat(43)}`;
      await t.app.inject(`/api/catalog/${token}?q=${key}&apikey=x&auth=Bearer%20${key}`);
      await t.app.inject('/api/players?email=alice@example.com');
      expect(t.logs.join('')).not.toMatch(/hg_0a|rq_AAAA|alice@example/);
      expect(redactUrl(`/x/${token}?q=${key}&email=a@b.c`)).toBe(
        '/x/[redacted]?q=[redacted]&email=[redacted]',
      );
      // Other services' secrets pasted into a search, too.
      const pasted = `sk-proj-${'x'.repeat(30)}`;
      await t.app.inject(`/api/catalog?q=why%20does%20${pasted}%20fail`);
      expect(t.logs.join('')).not.toContain(pasted);
      expect(redactUrl(`/api/catalog?q=${pasted}`)).toBe('/api/catalog?q=[redacted]');
    });

    it('should hide what percent-encoding or a search would have let through', async () => {
      const key = `hg_${'0a'.repeat(24)}`;
      const token = `rq_${'A'.repeat(43)}`;
      for (const url of [
        `/api/catalog?q=${key.replace('_', '%5F')}`,
        `/api/catalog?q=%68g_${'0a'.repeat(24)}`,
        `/api/catalog?q=${token.replace('rq_', 'rq%5F')}`,
        '/api/players?%65mail=alice%40example.com',
        '/api/catalog?q=alice@example.com',
        '/api/catalog?q=write+to+alice@example.com+please',
        '/api/catalog?q=alice%40example.com',
      ]) {
        const logged = redactUrl(url);
        expect(logged, url).toContain('[redacted]');
        expect(logged, url).not.toMatch(/0a0a0a0a|AAAAAAAA|alice/);
        await t.app.inject(url);
      }
      expect(t.logs.join('')).not.toMatch(/0a0a0a0a|AAAAAAAA|alice/);
      // What hides nothing is logged as it came, encoding and all.
      expect(redactUrl('/api/catalog?q=speech+to+text%21')).toBe(
        '/api/catalog?q=speech+to+text%21',
      );
      expect(redactUrl('/api/catalog?q=%E2%82%AC%ZZ')).toBe('/api/catalog?q=%E2%82%AC%ZZ');
      expect(redactUrl('/api/catalog?q=user@host')).toBe('/api/catalog?q=user@host');
      // A long run of characters an address is made of costs one pass, not one per character.
      const long = `/api/catalog?q=${'a'.repeat(8000)}@${'b'.repeat(8000)}`;
      expect(redactUrl(long)).toBe(long);
    });
  });

  describe('start-up', () => {
    it('should log a start-up line naming the database, the URL and the docs', async () => {
      const database = await createTestDatabase('sqlite');
      const server = await startServer({ DATABASE_URL: database.url });
      try {
        // Fastify's "listening" line comes first; the start-up line follows right after it.
        const startUp = () => server.lines.find((text) => text.includes('Bazaar is serving'));
        for (let waited = 0; startUp() === undefined && waited < 100; waited += 1) {
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        const line = startUp();
        expect(line).toBeDefined();
        expect(line).toContain('SQLite file');
        expect(line).toContain(`${server.baseUrl}/docs`);
      } finally {
        await server.stop();
        await database.drop();
      }
    });

    it('should stop with one clear line and exit code 1 when Redis is unreachable', async () => {
      const database = await createTestDatabase('sqlite');
      const result = await failedStart({
        DATABASE_URL: database.url,
        REDIS_URL: 'redis://127.0.0.1:1',
      });
      await database.drop();
      expect(result.code).toBe(1);
      expect(result.output).toContain('Redis at REDIS_URL is not reachable');
      expect(result.output).not.toMatch(/\bat .*\.(ts|js):\d+/);
    });

    it.skipIf(process.env.TEST_DATABASE_URL === undefined)(
      'should say to create a PostgreSQL database that does not exist',
      async () => {
        const url = new URL(process.env.TEST_DATABASE_URL ?? '');
        url.pathname = '/bazaar_missing_database';
        const result = await failedStart({ DATABASE_URL: url.toString() });
        expect(result.code).toBe(1);
        expect(result.output).toContain('bazaar_missing_database');
        expect(result.output).toContain('does not exist');
        expect(result.output).toContain('createdb bazaar_missing_database');
        expect(result.output.trim().split('\n')).toHaveLength(1);
      },
    );

    it.each([
      {
        case: 'a file that is not a database',
        file: 'notes.txt',
        says: 'is not a SQLite database',
      },
      {
        case: 'a directory',
        file: '.',
        says: 'is a directory; set DATABASE_URL to a file in it',
      },
      {
        case: 'a path through a file',
        file: 'notes.txt/bazaar.db',
        says: 'Could not create the directory',
      },
      {
        case: 'a link to itself',
        file: 'loop.db',
        says: 'cannot be opened or created',
      },
    ])('should stop with one line, not a stack trace, when the SQLite file is $case', async (t) => {
      const database = await createTestDatabase('sqlite');
      const dir = dirname(database.target.dialect === 'sqlite' ? database.target.path : '');
      writeFileSync(join(dir, 'notes.txt'), 'not a database\n');
      symlinkSync('loop.db', join(dir, 'loop.db'));
      const file = join(dir, t.file);
      const result = await failedStart({ DATABASE_URL: `sqlite:${file}` });
      await database.drop();
      expect(result.code).toBe(1);
      const line = onlyLine(result.output);
      expect(line.level).toBe(60);
      expect(line.msg).toContain(`SQLite file ${file}`);
      expect(line.msg).toContain(t.says);
    });

    it('should stop with one line when another process holds the new SQLite file', async () => {
      const database = await createTestDatabase('sqlite');
      const path = database.target.dialect === 'sqlite' ? database.target.path : '';
      const holder = new BetterSqlite(path);
      holder.exec('create table held (x); begin exclusive; insert into held values (1)');
      try {
        const result = await failedStart({
          DATABASE_URL: database.url,
          SQLITE_BUSY_TIMEOUT_MS: '100',
        });
        expect(result.code).toBe(1);
        const line = onlyLine(result.output);
        expect(line.level).toBe(60);
        expect(line.msg).toContain(`SQLite file ${path} was held by another process`);
        expect(line.msg).toContain('SQLITE_BUSY_TIMEOUT_MS');
      } finally {
        holder.close();
        await database.drop();
      }
    });

    it('should say what to do about a SQLite file it may not write', async () => {
      // The service's own start cannot be refused a file here (tests may run as root), so the
      // driver's error comes from a connection opened read-only.
      const database = await createTestDatabase('sqlite');
      const path = database.target.dialect === 'sqlite' ? database.target.path : '';
      new BetterSqlite(path).close();
      const readOnly = new BetterSqlite(path, { readonly: true });
      let error: unknown;
      try {
        readOnly.exec('create table t (x)');
      } catch (caught) {
        error = caught;
      }
      readOnly.close();
      await database.drop();
      expect(databaseProblem(error, database.target)).toBe(
        `The SQLite file ${path} cannot be written (attempt to write a readonly database); let the service write the file and its directory, or set DATABASE_URL to another file.`,
      );
    });

    it('should stop with one line naming the port in use, and close the database', async () => {
      const taken = createServer();
      taken.listen(0, '127.0.0.1');
      await once(taken, 'listening');
      const { port } = taken.address() as AddressInfo;
      const database = await createTestDatabase('sqlite');
      const path = database.target.dialect === 'sqlite' ? database.target.path : '';
      try {
        const result = await failedStart({ DATABASE_URL: database.url, PORT: String(port) });
        expect(result.code).toBe(1);
        const line = onlyLine(result.output);
        expect(line.level).toBe(60);
        expect(line.msg).toContain(`port ${String(port)} on 127.0.0.1 is already in use`);
        expect(line.msg).toContain('choose another port with PORT');
        // The database was prepared, then closed: the last connection removes the WAL.
        expect(existsSync(path)).toBe(true);
        expect(existsSync(`${path}-wal`)).toBe(false);
      } finally {
        taken.close();
        await database.drop();
      }
    });

    it.each(testDialects)(
      'should say that a database set up by a newer version needs that version (%s)',
      async (dialect) => {
        const database = await createSeededTestDatabase(dialect);
        const store = openTestStore(database);
        await sql`insert into kysely_migration (name, timestamp) values (${'9999_future'}, ${new Date().toISOString()})`.execute(
          store.db,
        );
        await store.close();
        const result = await failedStart({ DATABASE_URL: database.url });
        await database.drop();
        expect(result.code).toBe(1);
        const line = onlyLine(result.output);
        expect(line.level).toBe(60);
        expect(line.msg).toContain('was set up by a newer version of the service');
        expect(line.msg).toContain('migration 9999_future');
        expect(line.msg).toContain('run that version');
        expect(line.msg).not.toContain('corrupted');
      },
    );
  });
});
