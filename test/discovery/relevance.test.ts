import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  describeQuery,
  failing,
  judge,
  judgedNeeds,
  judgedQueries,
  needScores,
  type Search,
} from '../../bench/search-relevance.js';
import { loadCatalogFile } from '../../src/modules/catalog/catalog.loader.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { testDialects } from '../helpers/databases.js';

const searchOf =
  (t: TestApp): Search =>
  async (path) => {
    const response = await t.app.inject(path);
    expect(response.statusCode).toBe(200);
    return response.json<{ data: { items: { id: string }[] } }>().data;
  };

describe.each(testDialects)('catalog relevance bar (%s)', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  it('should judge at least 80 queries and 150 needs, each naming listings that exist', () => {
    const needs = [...judgedNeeds('tune'), ...judgedNeeds('held')];
    expect(judgedQueries().length).toBeGreaterThanOrEqual(80);
    expect(needs.length).toBeGreaterThanOrEqual(150);
    expect(judgedNeeds('held').length).toBeGreaterThanOrEqual(75);
    const ids = new Set(loadCatalogFile().map((listing) => listing.id));
    for (const query of [...judgedQueries(), ...needs]) {
      expect(query.relevant.length).toBeGreaterThan(0);
      for (const id of query.relevant) expect(ids, `${query.q}: ${id}`).toContain(id);
    }
  });

  it('should reach MRR@10 ≥ 0.85 and recall@10 ≥ 0.90 on the judged queries', async () => {
    const relevance = await judge(searchOf(t));
    const misses = failing(relevance).map(
      (score) => `${describeQuery(score.query)} → ${score.top.slice(0, 5).join(', ')}`,
    );
    expect(relevance.mrr, misses.join('\n')).toBeGreaterThanOrEqual(0.85);
    expect(relevance.recall, misses.join('\n')).toBeGreaterThanOrEqual(0.9);
  });

  it('should put a fitting listing in the top 3 of 90 % of the held-back needs, MRR@10 ≥ 0.85, none empty', async () => {
    const relevance = await judge(searchOf(t), judgedNeeds('held'));
    const { top3, empty } = needScores(relevance);
    const misses = relevance.scores
      .filter((score) => score.reciprocalRank < 1 / 3)
      .map((score) => `${describeQuery(score.query)} → ${score.top.slice(0, 3).join(', ')}`);
    expect(top3, misses.join('\n')).toBeGreaterThanOrEqual(0.9);
    expect(relevance.mrr, misses.join('\n')).toBeGreaterThanOrEqual(0.85);
    expect(empty).toBe(0);
  });
});

describe.runIf(testDialects.length > 1)('catalog search on both databases', () => {
  let sqlite: TestApp;
  let postgres: TestApp;

  beforeAll(async () => {
    [sqlite, postgres] = await Promise.all([createTestApp('sqlite'), createTestApp('postgres')]);
  });
  afterAll(async () => {
    await Promise.all([sqlite.close(), postgres.close()]);
  });

  it('should give the same results, totals and matches for every judged query and need', async () => {
    const queries = [...judgedQueries(), ...judgedNeeds('tune'), ...judgedNeeds('held')];
    for (const query of queries) {
      const params = new URLSearchParams({ q: query.q, limit: '20' });
      for (const key of ['kind', 'category', 'protocol'] as const) {
        const value = query[key];
        if (value !== undefined) params.set(key, value);
      }
      const answer = async (t: TestApp) => {
        const { data } = (await t.app.inject(`/api/catalog?${params.toString()}`)).json<{
          data: { items: { id: string; matched: unknown }[]; total: number; facets: unknown };
        }>();
        return {
          items: data.items.map((item) => [item.id, item.matched]),
          total: data.total,
          facets: data.facets,
        };
      };
      expect(await answer(postgres), query.q).toEqual(await answer(sqlite));
    }
  });
});
