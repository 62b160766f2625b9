// The controlled list of categories (catalog.taxonomy.json): ids, definitions, old names.

import { readFileSync } from 'node:fs';

export interface Category {
  id: string;
  /** One line: what belongs in it. */
  definition: string;
  /** Old category names and common synonyms; as a filter they mean this category. */
  aliases: string[];
}

export const TAXONOMY_FILE = new URL('./catalog.taxonomy.json', import.meta.url);

export const CATEGORIES: readonly Category[] = (
  JSON.parse(readFileSync(TAXONOMY_FILE, 'utf8')) as { categories: Category[] }
).categories;

export const CATEGORY_IDS: readonly string[] = CATEGORIES.map((category) => category.id);

const canonical = new Map<string, string>(
  CATEGORIES.flatMap((category) => [
    [category.id, category.id],
    ...category.aliases.map((alias): [string, string] => [alias, category.id]),
  ]),
);

/**
 * The category a filter value means: an id, or the id an old name or synonym stands for
 * (`transcription` → `speech-to-text`), ignoring case. Anything else is returned as given (it
 * then matches nothing).
 */
export function categoryFor(value: string): string {
  const key = value.trim().toLowerCase();
  return canonical.get(key) ?? key;
}
