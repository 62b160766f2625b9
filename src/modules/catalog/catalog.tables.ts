export interface CatalogListingsTable {
  id: string;
  name: string;
  kind: 'tool' | 'agent' | 'framework';
  document: string;
  content_hash: string;
  categories_key: string;
  protocols_key: string;
  name_words: string;
  body_words: string;
  updated_at: string;
}

/** SQLite only: the FTS5 index of the listings (PostgreSQL keeps a tsvector column instead). */
export interface CatalogSearchTable {
  id: string;
  name_words: string;
  body_words: string;
}
