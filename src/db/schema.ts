/**
 * The database as Kysely sees it. Each area declares its tables in its own module's
 * `*.tables.ts` and adds them here; only repositories use these types.
 */
import type { SettingsTable } from './settings.js';

export interface Database {
  settings: SettingsTable;
  // area A (capability discovery) tables are added below this line
  // area B (negotiation game) tables are added below this line
}
