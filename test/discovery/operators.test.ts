import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { testDialects } from '../helpers/databases.js';

const run = promisify(execFile);
/** Each CLI run starts Node with the TypeScript loader: seconds apiece on a busy machine. */
const CLI_TESTS_TIMEOUT = 120_000;

describe.each(testDialects)('operator command-line tool (%s)', (dialect) => {
  let t: TestApp;
  let receipt: { id: string; token: string };

  const cli = async (...args: string[]) => {
    try {
      const { stdout, stderr } = await run(
        process.execPath,
        ['--import', 'tsx', 'scripts/requests.ts', ...args],
        {
          env: { ...process.env, DATABASE_URL: t.database.url },
        },
      );
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  };

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

  it(
    'should list requests by status and show one, without token material',
    async () => {
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
      expect(readable.stderr).toContain(
        dialect === 'sqlite' ? 'SQLite file' : 'PostgreSQL database',
      );
      const shown = await cli('show', receipt.id);
      expect(shown.code).toBe(0);
      expect(JSON.parse(shown.stdout)).toMatchObject({
        id: receipt.id,
        task: 'Please list the Temporal workflow engine.',
      });
      expect(listed.stdout + shown.stdout).not.toMatch(/token|rq_/);
    },
    CLI_TESTS_TIMEOUT,
  );

  it(
    'should set a status and response that the requester then reads',
    async () => {
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
    },
    CLI_TESTS_TIMEOUT,
  );

  it(
    'should link a correction to the listing change it led to, shown on the receipt',
    async () => {
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
    },
    CLI_TESTS_TIMEOUT,
  );

  it(
    'should explain its usage and fail on bad input',
    async () => {
      expect((await cli('set', receipt.id, '--status', 'done')).code).toBe(2);
      expect((await cli('frobnicate')).code).toBe(2);
      expect((await cli('list', '--limit', '0')).code).toBe(2);
      const missing = await cli('show', '3f1c9a52-8e0b-4a43-9d2e-5b7d4c6a1e90');
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain('No request');
      if (dialect === 'sqlite') {
        const nowhere = await run(
          process.execPath,
          ['--import', 'tsx', 'scripts/requests.ts', 'list'],
          {
            env: { ...process.env, DATABASE_URL: `sqlite:${t.database.url.slice(7)}.missing` },
          },
        ).catch((error: unknown) => error as { code: number; stderr: string });
        expect(nowhere).toMatchObject({ code: 2, stderr: expect.stringContaining('no database') });
        expect(existsSync(`${t.database.url.slice(7)}.missing`)).toBe(false);
      }
      const help = await cli('--help');
      expect(help.stdout).toContain('npm run requests -- list');
    },
    CLI_TESTS_TIMEOUT,
  );
});
