import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../database.js';
import * as settings from './0001_settings.js';
import * as game from './0002_game.js';
import * as discovery from './0003_discovery.js';
import * as search from './0004_search.js';
import * as ranking from './0005_ranking.js';
import * as cooldown from './0006_cooldown.js';
import * as catalogOrder from './0007_catalog_order.js';
import * as catalogStorage from './0008_catalog_storage.js';
import * as catalogGroups from './0009_catalog_groups.js';
import * as catalogFilterOrder from './0010_catalog_filter_order.js';
import * as catalogSearchKeys from './0011_catalog_search_keys.js';
import * as scoreShards from './0012_score_shards.js';
import * as gameV3 from './0013_game_v3.js';
import * as catalogV2 from './0014_catalog_v2.js';
import * as searchV2 from './0015_search_v2.js';
import * as catalogCompression from './0016_catalog_compression.js';
import * as cooldownsFromSessions from './0017_cooldowns_from_sessions.js';
import * as changedMeanwhile from './0018_changed_meanwhile.js';

/** A migration that may write different SQL for each dialect. */
export interface DialectMigration {
  up(db: Kysely<unknown>, dialect: Dialect): Promise<void>;
}

/**
 * Every migration, in the order it runs. Names are sorted and recorded in `kysely_migration`;
 * never rename or edit one that has shipped — add a new one.
 */
const all: Record<string, DialectMigration> = {
  '0001_settings': settings,
  '0002_game': game,
  '0003_discovery': discovery,
  '0004_search': search,
  '0005_ranking': ranking,
  '0006_cooldown': cooldown,
  '0007_catalog_order': catalogOrder,
  '0008_catalog_storage': catalogStorage,
  '0009_catalog_groups': catalogGroups,
  '0010_catalog_filter_order': catalogFilterOrder,
  '0011_catalog_search_keys': catalogSearchKeys,
  '0012_score_shards': scoreShards,
  '0013_game_v3': gameV3,
  '0014_catalog_v2': catalogV2,
  '0015_search_v2': searchV2,
  '0016_catalog_compression': catalogCompression,
  '0017_cooldowns_from_sessions': cooldownsFromSessions,
  '0018_changed_meanwhile': changedMeanwhile,
};

export function migrationsFor(dialect: Dialect): Record<string, Migration> {
  return Object.fromEntries(
    Object.entries(all).map(([name, migration]) => [
      name,
      { up: (db: Kysely<unknown>) => migration.up(db, dialect) },
    ]),
  );
}
