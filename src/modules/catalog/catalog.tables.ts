import type { Generated } from 'kysely';

export interface CatalogListingsTable {
  /** Internal row number: how the search index names a listing. */
  seq: Generated<number>;
  id: string;
  kind: 'tool' | 'agent' | 'framework';
  document: string;
  content_hash: string;
  categories_key: string;
  protocols_key: string;
  name_key: string;
  names_key: string;
  /** The document's `status` and `provenance.license_kind`, for filters, facets and ranking. */
  status: 'active' | 'maintenance' | 'deprecated' | 'archived';
  license_kind: 'open_source' | 'source_available' | 'proprietary' | 'unknown';
  created_at: string;
  updated_at: string;
}

/**
 * The search index (migration 0015): a term's postings, heaviest first, in blocks of 500
 * (catalog.index.ts encodes them). `df` is the number of listings with the term.
 */
export interface CatalogPostingsTable {
  term: string;
  block: number;
  df: number;
  entries: Uint8Array;
}

/** The words a misspelt query word may be corrected to. */
export interface CatalogTermsTable {
  term: string;
}

export interface CatalogChangesTable {
  id: Generated<number>;
  listing_id: string;
  change: 'added' | 'changed' | 'removed';
  /** JSON array of the top-level fields that changed. */
  fields: string;
  changed_at: string;
}
