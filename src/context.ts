import type { Config } from './config.js';
import type { Store } from './db/database.js';

/**
 * What every route module is given, resolved once at boot: validated configuration, the open
 * database and the seller's secret (from SELLER_SECRET or, once created, the database).
 */
export interface AppContext {
  config: Config;
  store: Store;
  sellerSecret: string;
  /** Keys the pseudonyms under which client addresses are counted (created once, in the database). */
  addressSecret: string;
}
