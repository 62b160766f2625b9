import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeQuery, failing, judge, judgedQueries } from '../../bench/search-relevance.js';
import { loadCatalogFile } from '../../src/modules/catalog/catalog.loader.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { testDialects } from '../helpers/databases.js';

describe.each(testDialects)('catalog relevance bar (%s)', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  it('should judge at least 80 queries, each naming listings that exist', () => {
    const queries = judgedQueries();
    expect(queries.length).toBeGreaterThanOrEqual(80);
    const ids = new Set(loadCatalogFile().map((listing) => listing.id));
    for (const query of queries) {
      expect(query.relevant.length).toBeGreaterThan(0);
      for (const id of query.relevant) expect(ids, `${query.q}: ${id}`).toContain(id);
    }
  });

  it('should reach MRR@10 ≥ 0.85 and recall@10 ≥ 0.90 on the judged queries', async () => {
    const relevance = await judge(async (path) => {
      const response = await t.app.inject(path);
      expect(response.statusCode).toBe(200);
      return response.json<{ data: { items: { id: string }[] } }>().data;
    });
    const misses = failing(relevance).map(
      (score) => `${describeQuery(score.query)} → ${score.top.slice(0, 5).join(', ')}`,
    );
    expect(relevance.mrr, misses.join('\n')).toBeGreaterThanOrEqual(0.85);
    expect(relevance.recall, misses.join('\n')).toBeGreaterThanOrEqual(0.9);
  });
});
