import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { settingOrCreate } from '../../src/db/settings.js';
import { sha256Hex } from '../../src/http/secrets.js';
import {
  addressPseudonym,
  secondsToUtcMidnight,
} from '../../src/modules/requests/requests.service.js';
import { createTestApp } from '../helpers/app.js';
import { testDialects } from '../helpers/databases.js';
import { TASK, type Body, type Receipt } from '../helpers/requests.js';

describe.each(testDialects)('request limits and storage failures (%s)', (dialect) => {
  describe('daily limits', () => {
    it('should count requests per client address and answer 429 until midnight UTC', async () => {
      const limited = await createTestApp(dialect, {
        REQUESTS_DAILY_LIMIT_PER_CLIENT: '3',
        REQUESTS_DAILY_LIMIT_TOTAL: '100',
      });
      try {
        const post = (from: string) =>
          limited.app.inject({
            method: 'POST',
            url: '/api/requests',
            payload: { task: TASK, kind: 'capability' },
            remoteAddress: from,
          });
        const results = await Promise.all(Array.from({ length: 6 }, () => post('192.0.2.7')));
        expect(results.map((r) => r.statusCode).sort()).toEqual([201, 201, 201, 429, 429, 429]);
        const refused = results.find((r) => r.statusCode === 429);
        expect(refused?.json()).toMatchObject({ success: false, code: 'daily_limit_reached' });
        const retryAfter = Number(refused?.headers['retry-after']);
        expect(retryAfter).toBeGreaterThan(0);
        expect(retryAfter).toBeLessThanOrEqual(secondsToUtcMidnight(new Date()) + 1);
        // A refused request stores nothing; another address is still welcome; bad input uses no quota.
        const rows = await limited.store.db
          .selectFrom('capability_requests')
          .select('id')
          .execute();
        expect(rows).toHaveLength(3);
        expect((await post('192.0.2.8')).statusCode).toBe(201);
        const invalid = await limited.app.inject({
          method: 'POST',
          url: '/api/requests',
          payload: { task: 'short', kind: 'capability' },
          remoteAddress: '192.0.2.9',
        });
        expect(invalid.statusCode).toBe(400);
        const quota = await limited.store.db.selectFrom('request_quota').selectAll().execute();
        expect(JSON.stringify(quota)).not.toContain('192.0.2');
        // Counted under a keyed hash: the plain hash of an address (all IPv4 addresses can be
        // hashed in minutes) is not what is stored.
        const scopes = quota.map((row) => row.scope);
        const secret = await settingOrCreate(limited.store.db, 'address_secret', () => 'unused');
        expect(scopes).toContain(
          `client:${addressPseudonym(secret, quota[0]?.day ?? '', '192.0.2.7')}`,
        );
        for (const address of ['192.0.2.7', '192.0.2.8']) {
          expect(scopes).not.toContain(`client:${sha256Hex(address)}`);
        }
        expect(quota.find((row) => row.scope === 'all')?.used).toBe(4);
      } finally {
        await limited.close();
      }
    });

    it('should drop the counters of earlier days once they can no longer limit anything', async () => {
      const fresh = await createTestApp(dialect);
      try {
        await fresh.store.db
          .insertInto('request_quota')
          .values({ day: '2000-01-01', scope: 'all', used: 1000 })
          .execute();
        const created = await fresh.app.inject({
          method: 'POST',
          url: '/api/requests',
          payload: { task: TASK, kind: 'pilot' },
        });
        expect(created.statusCode).toBe(201);
        const days = await fresh.store.db.selectFrom('request_quota').select('day').execute();
        expect(days.every((row) => row.day === new Date().toISOString().slice(0, 10))).toBe(true);
      } finally {
        await fresh.close();
      }
    });

    it('should compute the seconds to the next UTC midnight', () => {
      expect(secondsToUtcMidnight(new Date('2026-11-23T23:59:59.500Z'))).toBe(1);
      expect(secondsToUtcMidnight(new Date('2026-11-23T00:00:00.000Z'))).toBe(86_400);
      expect(secondsToUtcMidnight(new Date('2026-12-31T12:00:00.000Z'))).toBe(43_200);
    });
  });

  describe('storage failure', () => {
    it('should answer 503 with nothing stored while the database cannot commit, and recover without a restart', async () => {
      const broken = await createTestApp(dialect);
      const admin =
        dialect === 'postgres'
          ? new pg.Client({ connectionString: process.env.TEST_DATABASE_URL })
          : null;
      await admin?.connect();
      const name =
        broken.config.database.dialect === 'postgres'
          ? new URL(broken.config.database.url).pathname.slice(1)
          : '';
      const setReadOnly = async (readOnly: boolean) => {
        if (admin === null) {
          await sql.raw(`pragma query_only = ${readOnly ? 'on' : 'off'}`).execute(broken.store.db);
          return;
        }
        await admin.query(
          `alter database ${name} ${readOnly ? 'set default_transaction_read_only = on' : 'reset default_transaction_read_only'}`,
        );
        // Open connections keep their settings; end them so the pool reconnects with the new ones.
        await admin.query(
          'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
          [name],
        );
      };
      const post = () =>
        broken.app.inject({
          method: 'POST',
          url: '/api/requests',
          payload: { task: TASK, kind: 'capability' },
        });
      try {
        await setReadOnly(true);
        const refused = await post();
        expect(refused.statusCode).toBe(503);
        expect(refused.json()).toMatchObject({ success: false, code: 'storage_unavailable' });
        expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
        expect(refused.body).not.toMatch(/sqlite|postgres|read-only|readonly|insert/i);
        await setReadOnly(false);
        // Connections ended by the switch are replaced as the pool meets them: a few requests at most.
        let accepted = await post();
        for (let attempt = 0; attempt < 10 && accepted.statusCode === 503; attempt++)
          accepted = await post();
        expect(accepted.statusCode).toBe(201);
        const rows = await broken.store.db.selectFrom('capability_requests').select('id').execute();
        expect(rows.map((row) => row.id)).toEqual([accepted.json<Body<Receipt>>().data.id]);
        const quota = await broken.store.db
          .selectFrom('request_quota')
          .select('used')
          .where('scope', '=', 'all')
          .execute();
        expect(quota).toEqual([{ used: 1 }]);
      } finally {
        await admin?.end();
        await broken.close();
      }
    });
  });
});
