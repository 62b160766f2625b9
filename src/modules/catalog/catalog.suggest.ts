// A way forward when a search finds little: related categories and a request to file.

import type { MatchGroup } from './catalog.facets.js';
import { TASK_MIN_CHARACTERS } from '../requests/requests.limits.js';
import { CATEGORIES, CATEGORY_IDS } from './catalog.taxonomy.js';
import { contentWords, nearest, searchWords, stem } from './catalog.text.js';
import { withoutSecrets } from '../../http/secrets.js';

const RELATED = 3;

/** The words that describe a category: its id, its aliases and its definition. */
const described = new Map(
  CATEGORIES.flatMap((category) => {
    const stems = new Set(
      searchWords([category.id, ...category.aliases, category.definition].join(' ')).map(stem),
    );
    return [category.id, ...category.aliases].map((name) => [name, stems] as const);
  }),
);

/**
 * Categories of the catalog related to a query, most related first: a point for each of the
 * query's stems its definition shares, and points for being a category of the best results (the
 * first result's 1.5, the second's 1, any other's 0.5), so that the category of what was found
 * comes before one that only shares a common word ("text") of the query. Only categories that
 * have listings, each with how many.
 */
export function relatedCategories(
  stems: readonly string[],
  hits: readonly (readonly string[])[],
  groups: readonly MatchGroup[],
): { category: string; listings: number }[] {
  const counts = new Map<string, number>();
  for (const group of groups)
    for (const category of group.categories_key.split('|').filter(Boolean))
      counts.set(category, (counts.get(category) ?? 0) + group.n);
  const scored = [...counts.keys()].map((category) => {
    const own = described.get(category) ?? new Set(searchWords(category).map(stem));
    const shared = stems.filter((term) => own.has(term)).length;
    const rank = hits.findIndex((categories) => categories.includes(category));
    const fromHits = rank === -1 ? 0 : (HIT_POINTS[rank] ?? 0.5);
    return { category, score: shared + fromHits };
  });
  return scored
    .filter(({ score }) => score > 0)
    .sort((a, b) => b.score - a.score || (a.category < b.category ? -1 : 1))
    .slice(0, RELATED)
    .map(({ category }) => ({ category, listings: counts.get(category) ?? 0 }));
}

/** Points of a category of the first and second results; any later result's give 0.5. */
const HIT_POINTS = [1.5, 1];

/** Every stem that describes a category. */
const vocabulary = [...new Set([...described.values()].flatMap((stems) => [...stems]))];

/**
 * For a `category` filter that names no category of the taxonomy (nor one of its aliases),
 * which it may have meant: those sharing its words, a word one typo away counted as that word
 * (`speach-to-text`); none for a value like none of them. Undefined for a category it names.
 */
export function categoriesLike(
  value: string,
  groups: readonly MatchGroup[],
): { category: string; listings: number }[] | undefined {
  if (CATEGORY_IDS.includes(value)) return undefined;
  const stems = contentWords(value).map((word) => {
    const own = stem(word);
    return vocabulary.includes(own) ? own : (nearest(vocabulary, word) ?? own);
  });
  return relatedCategories(stems, [], groups);
}

/**
 * A capability request's task taken from the query and the filters that narrowed it (what is
 * missing is the need with them: `vector database (protocol: ruby)`), long enough to be
 * accepted as it is, and without any credential the query held.
 */
export function requestTask(
  q: string,
  filters: {
    kind?: string | undefined;
    category?: string | undefined;
    protocol?: string | undefined;
  } = {},
): string {
  const narrowed = (['kind', 'category', 'protocol'] as const)
    .filter((name) => filters[name] !== undefined)
    .map((name) => `${name}: ${String(filters[name])}`);
  const need = q.trim().replace(/\s+/g, ' ');
  // A credential typed into the search or a filter stays out of the request, which would be
  // refused with it.
  const task = withoutSecrets(
    narrowed.length === 0 ? need : `${need} (${narrowed.join(', ')})`.trim(),
  );
  return task.length >= TASK_MIN_CHARACTERS ? task : `A capability for: ${task}`;
}
