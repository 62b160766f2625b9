/**
 * The database as Kysely sees it. Each area declares its tables in its own module's
 * `*.tables.ts` and adds them here; only repositories use these types.
 */
import type { Kysely } from 'kysely';
import type {
  CatalogChangesTable,
  CatalogListingsTable,
  CatalogPostingsTable,
  CatalogTermsTable,
} from '../modules/catalog/catalog.tables.js';
import type {
  CapabilityRequestsTable,
  RequestQuotaTable,
} from '../modules/requests/requests.tables.js';
import type { HaggleMessagesTable, HaggleSessionsTable } from '../modules/haggle/haggle.tables.js';
import type { LeaderboardScoresTable } from '../modules/leaderboard/leaderboard.tables.js';
import type { PlayersTable } from '../modules/players/players.tables.js';
import type { ProductsTable } from '../modules/products/products.tables.js';
import type { TransactionsTable } from '../modules/transactions/transactions.tables.js';

/** Values the service creates once and every process shares (such as the seller's secret). */
export interface SettingsTable {
  key: string;
  value: string;
}

export interface Database {
  settings: SettingsTable;
  // area A (capability discovery) tables are added below this line
  catalog_listings: CatalogListingsTable;
  catalog_postings: CatalogPostingsTable;
  catalog_terms: CatalogTermsTable;
  catalog_changes: CatalogChangesTable;
  capability_requests: CapabilityRequestsTable;
  request_quota: RequestQuotaTable;
  // area B (negotiation game) tables are added below this line
  players: PlayersTable;
  products: ProductsTable;
  haggle_sessions: HaggleSessionsTable;
  haggle_messages: HaggleMessagesTable;
  transactions: TransactionsTable;
  leaderboard_scores: LeaderboardScoresTable;
}

/** The database, or a transaction on it, as repositories receive it. */
export type Db = Kysely<Database>;
