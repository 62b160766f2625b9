import type { Generated } from 'kysely';

export interface CatalogListingsTable {
  /** Internal row number: the full-text row's key on SQLite. */
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
  /** The stemmed words: PostgreSQL only (its tsvector is generated from them); SQLite keeps them in its index alone. */
  name_words: string;
  alias_words: string;
  tag_words: string;
  body_words: string;
  created_at: string;
  updated_at: string;
}

/**
 * SQLite only: the contentless FTS5 index of the listings' words, rowid = seq (PostgreSQL keeps
 * a tsvector column). It answers matches and ranks them; its columns cannot be read back.
 */
export interface CatalogSearchTable {
  rowid: number;
  name_words: string;
  alias_words: string;
  tag_words: string;
  body_words: string;
}

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
