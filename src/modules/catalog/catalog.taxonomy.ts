import { readFileSync } from 'node:fs';

export interface TaxonomyCategory {
  id: string;
  definition: string;
  /** Old category names and common synonyms that mean this category. */
  aliases: string[];
}

/** The catalog's categories with their definitions (catalog.taxonomy.json). */
export const TAXONOMY: readonly TaxonomyCategory[] = (
  JSON.parse(readFileSync(new URL('./catalog.taxonomy.json', import.meta.url), 'utf8')) as {
    categories: TaxonomyCategory[];
  }
).categories;
