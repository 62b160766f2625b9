import { Migrator, sql, type MigrationProvider } from 'kysely';
import type { Store } from './database.js';
import { NewerSchemaError } from './errors.js';
import { migrationsFor } from './migrations/index.js';

/**
 * Brings the schema to the latest version. Several processes may call this at once: on
 * PostgreSQL Kysely holds an advisory lock, on SQLite the migration runs inside one IMMEDIATE
 * transaction, so exactly one of them applies each migration and the others see it applied.
 */
export async function migrateToLatest(store: Store): Promise<void> {
  const provider: MigrationProvider = {
    getMigrations: () => Promise.resolve(migrationsFor(store.dialect)),
  };
  const migrator = new Migrator({ db: store.db, provider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error !== undefined) {
    const unknown = await unknownMigrations(store);
    if (unknown.length > 0) throw new NewerSchemaError(unknown);
    const cause = error instanceof Error ? error : new Error('unknown migration failure');
    throw new Error(`migration ${failed?.migrationName ?? '(setup)'} failed: ${cause.message}`, {
      cause,
    });
  }
}

/** Migrations the database records that this version does not have (a newer one ran them). */
export async function unknownMigrations(store: Store): Promise<string[]> {
  const known = new Set(Object.keys(migrationsFor(store.dialect)));
  try {
    const { rows } = await sql<{
      name: string;
    }>`select name from kysely_migration order by name`.execute(store.db);
    return rows.map((row) => row.name).filter((name) => !known.has(name));
  } catch {
    // No table of migrations (or no database to read it from): the error is something else.
    return [];
  }
}

/**
 * Whether the schema is at the latest version, read without changing anything: for tools that
 * must never set up a database of their own (the operators' tool pointed at a wrong file).
 */
export async function schemaIsCurrent(store: Store): Promise<boolean> {
  const provider: MigrationProvider = {
    getMigrations: () => Promise.resolve(migrationsFor(store.dialect)),
  };
  const migrations = await new Migrator({ db: store.db, provider }).getMigrations();
  return migrations.every((migration) => migration.executedAt !== undefined);
}
