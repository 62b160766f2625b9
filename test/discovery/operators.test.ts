import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRequestsCli } from '../../scripts/requests-cli.js';
import { BetterSqlite } from '../../src/db/better-sqlite3.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { testDialects } from '../helpers/databases.js';

const run = promisify(execFile);
/** The one spawned run starts Node with the TypeScript loader: seconds on a busy machine. */
const SPAWN_TIMEOUT = 60_000;

/** The tool in-process on `url`, with what it prints collected as a terminal would show it. */
async function cliOn(url: string, ...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runRequestsCli(
    args,
    { ...process.env, DATABASE_URL: url },
    { out: (line) => out.push(line), err: (line) => err.push(line) },
  );
  const text = (lines: string[]) => lines.map((line) => `${line}\n`).join('');
  return { code, stdout: text(out), stderr: text(err) };
}

describe.each(testDialects)('operator command-line tool (%s)', (dialect) => {
  let t: TestApp;
  let receipt: { id: string; token: string };

  /** The tool in-process, with what it prints collected as a terminal would show it. */
  const cli = (...args: string[]) => cliOn(t.database.url, ...args);

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/requests',
      payload: { task: 'Please list the Temporal workflow engine.', kind: 'capability' },
    });
    receipt = response.json<{ data: { id: string; token: string } }>().data;
  });
  afterAll(() => t.close());

  it('should list requests by status and show one, without token material', async () => {
    const listed = await cli('list', '--status', 'received', '--json');
    expect(listed.code).toBe(0);
    const lines = listed.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: string; status: string });
    expect(lines.map((line) => line.id)).toContain(receipt.id);
    expect(lines.every((line) => line.status === 'received')).toBe(true);
    expect((await cli('list', '--status', 'declined', '--json')).stdout.trim()).toBe('');
    const readable = await cli('list');
    expect(readable.stdout).toMatch(/^ID +STATUS +KIND +CREATED \(UTC\) +LISTING +TASK/);
    expect(readable.stdout).toContain(`${receipt.id}  received  capability`);
    expect(readable.stderr).toContain(dialect === 'sqlite' ? 'SQLite file' : 'PostgreSQL database');
    const shown = await cli('show', receipt.id);
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({
      id: receipt.id,
      task: 'Please list the Temporal workflow engine.',
    });
    expect(listed.stdout + shown.stdout).not.toMatch(/token|rq_/);
    // An id in capitals is the same request, as for the API.
    expect(JSON.parse((await cli('show', receipt.id.toUpperCase())).stdout)).toMatchObject({
      id: receipt.id,
    });
  });

  it('should never let the text of a request drive the terminal', async () => {
    const hostile =
      'Clear \u001b[2J title \u001b]0;owned\u0007 red \u001b[31mFAKE\u001b[0m flip \u202eevil\u202c 8-bit \u009b31mred end';
    const filed = await t.app.inject({
      method: 'POST',
      url: '/api/requests',
      payload: { task: hostile, kind: 'pilot' },
    });
    expect(filed.statusCode).toBe(201);
    const table = (await cli('list', '--kind', 'pilot')).stdout;
    expect(table).toContain('Clear \ufffd[2J title');
    for (const line of table.split('\n')) expect(line).not.toMatch(/[\p{Cc}\u202a-\u202e]/u);
    // As JSON (a list, one request) the text is kept exactly, escaped.
    const id = (JSON.parse(filed.body) as { data: { id: string } }).data.id;
    for (const json of [
      (await cli('list', '--kind', 'pilot', '--json')).stdout,
      (await cli('show', id)).stdout,
    ]) {
      expect((JSON.parse(json.trim()) as { task: string }).task).toBe(hostile);
      expect(json.replaceAll('\n', '')).not.toMatch(/[\p{Cc}\u202a-\u202e]/u);
    }
  });

  it('should take an empty --response as no response', async () => {
    await cli('set', receipt.id, '--status', 'reviewing', '--response', 'Looking at it.');
    const cleared = await cli('set', receipt.id, '--status', 'reviewing', '--response', '  ');
    expect(cleared.code).toBe(0);
    expect(JSON.parse(cleared.stdout)).toMatchObject({ response: null });
  });

  it('should refuse, in one line, a database the service has not set up or cannot open', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'bazaar-cli-'));
    const empty = join(directory, 'empty.db');
    writeFileSync(empty, '');
    const unset = await cliOn(`sqlite:${empty}`, 'list');
    expect(unset.code).toBe(2);
    expect(unset.stderr).toMatch(/is not set up by this version of the service/);
    // Nothing was written into it: no schema of the service's.
    const file = new BetterSqlite(empty, { readonly: true });
    expect(
      file.prepare("select count(*) as n from sqlite_master where type = 'table'").get(),
    ).toEqual({ n: 0 });
    file.close();

    const notDatabase = join(directory, 'notes.db');
    writeFileSync(notDatabase, 'these are notes, not a database\n'.repeat(100));
    const refused = await cliOn(`sqlite:${notDatabase}`, 'list');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /^The SQLite file .*notes\.db is not a SQLite database; set DATABASE_URL to the service's database file/m,
    );
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    // Set up by a newer version: its tables may differ from what this version writes.
    await sql`insert into kysely_migration (name, timestamp) values ('9999_future', ${new Date().toISOString()})`.execute(
      t.store.db,
    );
    try {
      const newer = await cli('list');
      expect(newer.code).toBe(2);
      expect(newer.stderr).toMatch(
        /was set up by a newer version of the service \(migration 9999_future, unknown to this one\)/,
      );
      expect(newer.stdout).toBe('');
    } finally {
      await sql`delete from kysely_migration where name = '9999_future'`.execute(t.store.db);
    }
    if (dialect === 'postgres') {
      const url = new URL(t.database.url);
      url.pathname = '/bazaar_no_such_database';
      const absent = await cliOn(url.toString(), 'list');
      expect(absent.code).toBe(2);
      expect(absent.stderr).toMatch(/does not exist; create it/);
    }
  });

  it('should set a status and response that the requester then reads', async () => {
    const set = await cli(
      'set',
      receipt.id,
      '--status',
      'planned',
      '--response',
      'Listed in the next catalog update.',
    );
    expect(set.code).toBe(0);
    const read = await t.app.inject({
      url: `/api/requests/${receipt.id}`,
      headers: { authorization: `Bearer ${receipt.token}` },
    });
    expect(read.json()).toMatchObject({
      data: { status: 'planned', response: 'Listed in the next catalog update.' },
    });
  });

  it('should link a correction to the listing change it led to, shown on the receipt', async () => {
    const filed = await t.app.inject({
      method: 'POST',
      url: '/api/requests',
      payload: {
        task: 'The Qdrant listing misses the gRPC port.',
        kind: 'correction',
        capability_id: 'qdrant',
      },
    });
    const correction = filed.json<{ data: { id: string; token: string } }>().data;
    // The operators find corrections, each with the listing it is about.
    const corrections = await cli('list', '--kind', 'correction');
    expect(corrections.code).toBe(0);
    expect(corrections.stdout).toMatch(
      new RegExp(`${correction.id} +received +correction +\\S+ \\S+ +qdrant +The Qdrant listing`),
    );
    expect(corrections.stdout).not.toContain(receipt.id);
    expect((await cli('list', '--kind', 'complaint')).code).toBe(2);
    const listing = await t.app.inject('/api/catalog/qdrant');
    const [change] = listing.json<{ data: { history: { id: number }[] } }>().data.history;
    const other = await t.app.inject('/api/catalog/pgvector');
    const [otherChange] = other.json<{ data: { history: { id: number }[] } }>().data.history;

    // Only corrections, only a change of the listing they are about, only a number.
    const wrongKind = await cli(
      'set',
      receipt.id,
      '--status',
      'completed',
      '--change',
      String(change?.id),
    );
    expect(wrongKind.code).toBe(1);
    expect(wrongKind.stderr).toContain('Only a correction');
    const wrongListing = await cli(
      'set',
      correction.id,
      '--status',
      'completed',
      '--change',
      String(otherChange?.id),
    );
    expect(wrongListing.code).toBe(1);
    expect((await cli('set', correction.id, '--status', 'completed', '--change', 'x')).code).toBe(
      2,
    );

    const set = await cli(
      'set',
      correction.id,
      '--status',
      'completed',
      '--change',
      String(change?.id),
    );
    expect(set.code).toBe(0);
    const read = await t.app.inject({
      url: `/api/requests/${correction.id}`,
      headers: { authorization: `Bearer ${correction.token}` },
    });
    expect(read.json()).toMatchObject({
      data: { status: 'completed', capability_id: 'qdrant', listing_change_id: change?.id },
    });
  });

  it('should explain its usage and fail on bad input', async () => {
    expect((await cli('set', receipt.id, '--status', 'done')).code).toBe(2);
    expect((await cli('frobnicate')).code).toBe(2);
    expect((await cli('list', '--limit', '0')).code).toBe(2);
    const missing = await cli('show', '3f1c9a52-8e0b-4a43-9d2e-5b7d4c6a1e90');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('No request');
    const help = await cli('--help');
    expect(help.stdout).toContain('npm run requests -- list');
  });
});

describe('operator command-line tool as a command', () => {
  it(
    'should run from npm with an exit code, and never create a missing SQLite database',
    async () => {
      const missing = join(mkdtempSync(join(tmpdir(), 'bazaar-cli-')), 'none.db');
      const nowhere = await run(
        process.execPath,
        ['--import', 'tsx', 'scripts/requests.ts', 'list'],
        { env: { ...process.env, DATABASE_URL: `sqlite:${missing}` } },
      ).catch((error: unknown) => error as { code: number; stderr: string });
      expect(nowhere).toMatchObject({ code: 2, stderr: expect.stringContaining('no database') });
      expect(existsSync(missing)).toBe(false);
    },
    SPAWN_TIMEOUT,
  );
});
