import {
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
} from 'kysely';
import { BazaarSqliteDriver, type BazaarSqliteConfig } from './sqlite.js';

/** SQLite as the service uses it: the driver in sqlite.ts, and DDL inside transactions. */
export class BazaarSqliteDialect implements Dialect {
  constructor(private readonly config: BazaarSqliteConfig) {}

  createDriver(): Driver {
    return new BazaarSqliteDriver(this.config);
  }

  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }

  createAdapter(): DialectAdapter {
    return new TransactionalDdlSqliteAdapter();
  }

  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}

/** SQLite runs DDL inside transactions; saying so makes Kysely's migrator hold the write lock. */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}
