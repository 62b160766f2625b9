import { afterAll, beforeAll } from 'vitest';
import { createTestApp, type TestApp } from './app.js';
import type { DialectName } from './databases.js';

/** A listing as the catalog API answers it. */
export interface ListingData {
  id: string;
  use_cases?: string[];
  matched?: { term: string; fields: string[] }[];
  name: string;
  kind: string;
  categories: string[];
  protocols: string[];
  provenance: { source_url: string; license: string | null; license_kind: string };
  status: string;
  successor: string | null;
  authentication: { required: boolean; schemes: string[] };
  limitations: string[];
  aliases: string[];
  sources: string[];
  checked_at: string;
  created_at: string;
  updated_at: string;
}

/** A page of /api/catalog. */
export interface Page {
  items: ListingData[];
  count: number;
  total: number;
  limit: number;
  next_cursor: string | null;
  facets: Record<
    'kind' | 'category' | 'protocol' | 'status' | 'license_kind',
    Record<string, number>
  >;
  corrected_query: string | null;
  suggestions: string[];
  related_categories: { category: string; listings: number }[];
  total_is_estimate: boolean;
  capability_request: { method: string; url: string; body: { kind: string; task: string } } | null;
}

/** One entry of a listing's history. */
export interface ListingChange {
  id: number;
  listing_id: string;
  change: string;
  fields: string[];
  changed_at: string;
}

/** The answer to GET /api/catalog. */
export interface SearchAnswer {
  status: number;
  body: { success: boolean; data: Page; code?: string; details?: { field: string }[] };
}

export interface CatalogSuite {
  readonly t: TestApp;
  /** GET /api/catalog with `query` (empty, or starting with `?`). */
  search: (query: string) => Promise<SearchAnswer>;
}

/** The service on a fresh, seeded database of `dialect` for the enclosing `describe`. */
export function catalogSuite(dialect: DialectName): CatalogSuite {
  let t: TestApp | undefined;
  const started = () => {
    if (t === undefined) throw new Error('the service starts before the tests run');
    return t;
  };
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t?.close());
  return {
    get t() {
      return started();
    },
    search: async (query) => {
      const response = await started().app.inject(`/api/catalog${query}`);
      return { status: response.statusCode, body: response.json<SearchAnswer['body']>() };
    },
  };
}
