import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { openStore } from '../../src/db/database.js';
import { prepareStore } from '../../src/setup.js';
import { createTestDatabase, testDialects, type TestDatabase } from '../helpers/databases.js';
import { startServer, type ServerProcess } from '../helpers/process.js';

describe.each(testDialects)('daily request limit across processes (%s)', (dialect) => {
  let database: TestDatabase | undefined;
  const servers: ServerProcess[] = [];

  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.stop('SIGKILL')));
    await database?.drop();
    database = undefined;
  });

  it('should give exactly L successes to N > L concurrent creates spread over two servers', async () => {
    const limit = 7;
    const attempts = 24;
    database = await createTestDatabase(dialect);
    const config = loadConfig({ DATABASE_URL: database.url });
    const store = openStore(config);
    await prepareStore(store, config);
    const env = {
      DATABASE_URL: database.url,
      REQUESTS_DAILY_LIMIT_TOTAL: String(limit),
      REQUESTS_DAILY_LIMIT_PER_CLIENT: '1000',
    };
    servers.push(...(await Promise.all([startServer(env), startServer(env)])));

    const responses = await Promise.all(
      Array.from({ length: attempts }, (_, i) =>
        fetch(`${servers[i % 2]?.baseUrl ?? ''}/api/requests`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ task: `Concurrent request number ${i}.`, kind: 'capability' }),
        }),
      ),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(limit);
    expect(statuses.filter((status) => status === 429)).toHaveLength(attempts - limit);
    const refused = responses.find((response) => response.status === 429);
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThan(0);
    // Both processes answered some of the successes or refusals: the count is shared, not per process.
    const stored = await store.db.selectFrom('capability_requests').select('id').execute();
    expect(stored).toHaveLength(limit);
    const quota = await store.db
      .selectFrom('request_quota')
      .select('used')
      .where('scope', '=', 'all')
      .execute();
    expect(quota).toEqual([{ used: limit }]);
    await store.close();
  });
});
