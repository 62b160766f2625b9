import { createHash } from 'node:crypto';
import type { Compilable, CompiledQuery, Kysely, QueryResult } from 'kysely';
import type { Database } from './schema.js';

type Db = Kysely<Database>;

/**
 * The SQL of every query compiled once, with the name PostgreSQL connections prepare it under
 * (see `namedStatements` in database.ts); SQLite's driver caches every prepared statement anyway.
 */
const statementNames = new Map<string, string>();

/** The server-side statement name for this SQL, if it is one of the queries compiled once. */
export const statementName = (sql: string): string | undefined => statementNames.get(sql);

/**
 * A query built and compiled to SQL once per database, then run with new values. On the money
 * path, building and compiling Kysely queries cost more than SQLite took to run them.
 *
 * `build` receives stand-ins for the values: it may use them only as values (in comparisons,
 * inserted or updated columns, `sql` templates), never to decide the query's shape.
 */
export function compiledOnce<Values extends Record<string, unknown>, Row>(
  build: (db: Db, values: Values) => Compilable<Row>,
): (db: Db, values: Values) => Promise<QueryResult<Row>> {
  // By adapter: a transaction shares its database's adapter, and each adapter one dialect.
  const compiled = new WeakMap<
    object,
    { query: CompiledQuery<Row>; slots: (keyof Values | undefined)[] }
  >();
  return (db, values) => {
    const adapter = db.getExecutor().adapter;
    let entry = compiled.get(adapter);
    if (entry === undefined) {
      const keys = new Map<symbol, keyof Values>();
      const standIns = new Proxy({} as Values, {
        get(_target, key) {
          const standIn = Symbol(String(key));
          keys.set(standIn, key as keyof Values);
          return standIn;
        },
      });
      const query = build(db, standIns).compile();
      // Constants written into the query stay as they are.
      const slots = query.parameters.map((value) =>
        typeof value === 'symbol' ? keys.get(value) : undefined,
      );
      const name = `bz_${createHash('sha256').update(query.sql).digest('hex').slice(0, 24)}`;
      statementNames.set(query.sql, name);
      entry = { query, slots };
      compiled.set(adapter, entry);
    }
    const { query, slots } = entry;
    const parameters = slots.map((key, i) =>
      key === undefined ? query.parameters[i] : values[key],
    );
    return db.executeQuery<Row>({ ...query, parameters });
  };
}
