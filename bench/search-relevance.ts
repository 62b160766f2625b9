/**
 * The relevance bars of catalog search, run against the API: the judged keyword queries of
 * `search-queries.json` (for each query, the listings a person would want to see), scored by
 * MRR@10 and recall@10; and the plain-language needs of `judged-needs.json` (written before the
 * ranking was tuned, each with the listings that fit it), split in two: ranking is tuned on the
 * `tune` half only, and reported on the `held` half: share with a fit in the top 3, MRR@10, and
 * needs with an empty answer. Used by `npm run bench:search` and by the CI tests.
 */
import { readFileSync } from 'node:fs';

export interface JudgedQuery {
  q: string;
  kind?: string;
  category?: string;
  protocol?: string;
  /** Ids of the listings that answer the query. */
  relevant: string[];
}

export interface QueryScore {
  query: JudgedQuery;
  /** 1 / rank of the first relevant listing in the top 10, 0 if none. */
  reciprocalRank: number;
  /** Relevant listings in the top 10 over min(10, number of relevant listings). */
  recall: number;
  top: string[];
}

export interface Relevance {
  mrr: number;
  recall: number;
  scores: QueryScore[];
}

export const judgedQueries = (): JudgedQuery[] =>
  JSON.parse(
    readFileSync(new URL('./search-queries.json', import.meta.url), 'utf8'),
  ) as JudgedQuery[];

export type Split = 'tune' | 'held';

/** The judged needs of one half, as queries. */
export const judgedNeeds = (split: Split): JudgedQuery[] =>
  (
    JSON.parse(readFileSync(new URL('./judged-needs.json', import.meta.url), 'utf8')) as {
      need: string;
      relevant: string[];
      split: Split;
    }[]
  )
    .filter((need) => need.split === split)
    .map(({ need, relevant }) => ({ q: need, relevant }));

/** Share of queries with a relevant listing in the top 3, and how many got no result at all. */
export function needScores(relevance: Relevance): { top3: number; empty: number } {
  const hits = relevance.scores.filter((score) => score.reciprocalRank >= 1 / 3).length;
  return {
    top3: hits / relevance.scores.length,
    empty: relevance.scores.filter((score) => score.top.length === 0).length,
  };
}

/** Anything that answers `GET /api/catalog?…` (a Fastify app's inject). */
export type Search = (path: string) => Promise<{ items: { id: string }[] }>;

export async function judge(search: Search, queries = judgedQueries()): Promise<Relevance> {
  const scores: QueryScore[] = [];
  for (const query of queries) {
    const params = new URLSearchParams({ q: query.q, limit: '10' });
    for (const key of ['kind', 'category', 'protocol'] as const) {
      const value = query[key];
      if (value !== undefined) params.set(key, value);
    }
    const top = (await search(`/api/catalog?${params.toString()}`)).items.map((item) => item.id);
    const relevant = new Set(query.relevant);
    const first = top.findIndex((id) => relevant.has(id));
    scores.push({
      query,
      reciprocalRank: first === -1 ? 0 : 1 / (first + 1),
      recall: top.filter((id) => relevant.has(id)).length / Math.min(10, relevant.size),
      top,
    });
  }
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  return {
    mrr: mean(scores.map((score) => score.reciprocalRank)),
    recall: mean(scores.map((score) => score.recall)),
    scores,
  };
}

/** The queries that miss: the first relevant listing is not first, or some are not in the top 10. */
export const failing = (relevance: Relevance): QueryScore[] =>
  relevance.scores.filter((score) => score.reciprocalRank < 1 || score.recall < 1);

export function describeQuery(query: JudgedQuery): string {
  const filters = (['kind', 'category', 'protocol'] as const)
    .filter((key) => query[key] !== undefined)
    .map((key) => `${key}=${query[key] ?? ''}`);
  return [JSON.stringify(query.q), ...filters].join(' ');
}
