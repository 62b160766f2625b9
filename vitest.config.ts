import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One migrated and seeded database per dialect, copied for each test app.
    globalSetup: ['test/helpers/templates.ts'],
    // Test files share their worker's loaded modules instead of importing the whole service
    // again per file (that import was the largest single cost of the suite). Nothing in the
    // tests replaces modules or globals, and every app and database is built per file.
    isolate: false,
    // Integration files each build their own databases; two workers keep the 2-core box busy
    // without starving the PostgreSQL server they share.
    maxWorkers: 2,
    testTimeout: 30_000,
    // A browser page waited for (expect.poll) may take seconds on a busy 2-core machine; a
    // passing poll returns as soon as it holds, so only a failure waits this long.
    expect: { poll: { timeout: 10_000 } },
    hookTimeout: 60_000,
  },
});
