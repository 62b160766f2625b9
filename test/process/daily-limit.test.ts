import { describe, expect, it } from 'vitest';
import { testDialects } from '../helpers/databases.js';
import { serverProcesses } from '../helpers/process.js';

describe.each(testDialects)('daily request limit across processes (%s)', (dialect) => {
  const processes = serverProcesses(dialect);

  it('should give exactly L successes to N > L concurrent creates spread over two servers', async () => {
    const limit = 7;
    const attempts = 24;
    const { store, via } = await processes.startPair({
      REQUESTS_DAILY_LIMIT_TOTAL: String(limit),
      REQUESTS_DAILY_LIMIT_PER_CLIENT: '1000',
    });

    const responses = await Promise.all(
      Array.from({ length: attempts }, (_, i) =>
        fetch(`${via(i).baseUrl}/api/requests`, {
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
  });
});
