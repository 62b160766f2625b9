import { createHash } from 'node:crypto';
import {
  PostgresAdapter,
  sql,
  type Compilable,
  type CompiledQuery,
  type QueryResult,
} from 'kysely';
import type { Db } from './schema.js';

/**
 * The SQL of every query compiled once, with the name PostgreSQL connections prepare it under
 * (see `namedStatements` in database.ts); SQLite's driver caches every prepared statement anyway.
 */
const statementNames = new Map<string, string>();

/** The server-side statement name for this SQL, if it is one of the queries compiled once. */
export const statementName = (sql: string): string | undefined => statementNames.get(sql);

/**
 * Runs a compiled query on the database's driver at once, outside any transaction, or answers
 * undefined when it cannot (the query then goes through Kysely as usual).
 */
export type DirectRunner = (query: CompiledQuery) => Promise<QueryResult<unknown>> | undefined;

/** By database (never a transaction, which is another object): how to run its queries directly. */
const directRunners = new WeakMap<object, DirectRunner>();

/**
 * Lets `db`'s queries compiled once skip Kysely's executor (a connection acquired and released
 * through several promises per query): on the hottest reads that cost as much as SQLite took to
 * run them. Only for a Kysely instance without plugins; its transactions are not affected.
 */
export function runDirectly(db: Db, runner: DirectRunner): void {
  directRunners.set(db, runner);
}

/**
 * A query built and compiled to SQL once per database, then run with new values. On the money
 * path, building and compiling Kysely queries cost more than SQLite took to run them.
 *
 * `build` receives stand-ins for the values: it may use them only as values (in comparisons,
 * inserted or updated columns, `sql` templates), never to decide the query's shape.
 */
export function compiledOnce<Values extends Record<string, unknown>, Row>(
  build: (db: Db, values: Values) => Compilable<Row>,
): Query<Values, Row> {
  // By adapter: a transaction shares its database's adapter, and each adapter one dialect.
  const compiled = new WeakMap<object, Compiled<Values, Row>>();
  const compiledFor = (db: Db): Compiled<Values, Row> => {
    const adapter = db.getExecutor().adapter;
    let entry = compiled.get(adapter);
    if (entry === undefined) {
      const keys = new Map<symbol, keyof Values>();
      const standIns = new Proxy({} as Values, {
        get(_target, key) {
          if (typeof key === 'symbol') return undefined;
          const standIn = Symbol(key);
          keys.set(standIn, key);
          return standIn;
        },
      });
      const query = build(db, standIns).compile();
      // Constants written into the query stay as they are.
      const slots = query.parameters.map((value) =>
        typeof value === 'symbol' ? keys.get(value) : undefined,
      );
      // A stand-in that reached no parameter decided the query's shape (a branch, a length, a
      // string built from it): the query would be frozen with that choice for every later value.
      const used = new Set(slots);
      const misused = [...new Set(keys.values())].filter((key) => !used.has(key));
      if (misused.length > 0) {
        throw new Error(
          `compiledOnce: ${misused.map(String).join(', ')} must be used as query values only; ` +
            'a query that depends on a value in another way cannot be compiled once',
        );
      }
      const name = `bz_${createHash('sha256').update(query.sql).digest('hex').slice(0, 24)}`;
      statementNames.set(query.sql, name);
      entry = { query, slots };
      compiled.set(adapter, entry);
    }
    return entry;
  };
  const run = (db: Db, values: Values): Promise<QueryResult<Row>> => {
    const { query, slots } = compiledFor(db);
    const parameters = slots.map((key, i) =>
      key === undefined ? query.parameters[i] : values[key],
    );
    // A literal of a fixed shape: spreading the compiled query copied its properties one by one.
    const withValues: CompiledQuery<Row> = {
      query: query.query,
      queryId: query.queryId,
      sql: query.sql,
      parameters,
    };
    return (
      (directRunners.get(db)?.(withValues) as Promise<QueryResult<Row>> | undefined) ??
      db.executeQuery<Row>(withValues)
    );
  };
  return Object.assign(run, {
    build,
    compiledFor,
    with: (values: Values) => ({ query: run, build, values }),
  });
}

/** A query's SQL for one dialect, and which value fills each of its parameters. */
interface Compiled<Values, Row> {
  query: CompiledQuery<Row>;
  /** By parameter: the name of the value that fills it, or undefined for a constant. */
  slots: (keyof Values | undefined)[];
}

/** A query compiled once (run it with its values), and what running it with others needs. */
export interface Query<Values extends Record<string, unknown>, Row> {
  (db: Db, values: Values): Promise<QueryResult<Row>>;
  readonly build: (db: Db, values: Values) => Compilable<Row>;
  /** The query compiled for `db`'s dialect (compiling it the first time). */
  compiledFor(db: Db): Compiled<Values, Row>;
  /** This query with its values, to run with others by `runTogether`. */
  with(values: Values): Step<Row>;
}

export interface Step<Row> {
  query: (db: Db, values: never) => Promise<QueryResult<Row>>;
  build: (db: Db, values: never) => Compilable<Row>;
  values: Record<string, unknown>;
  /** Run by `runTogether` outside a transaction, it must return a row, or nothing is written. */
  required?: boolean;
  /** Its rows are not sent back by `runTogether` (it gives an empty list for them). */
  unread?: boolean;
}

/** The step, marked as one that must return a row when `runTogether` runs outside a transaction. */
export const required = <Row>(step: Step<Row>): Step<Row> => ({ ...step, required: true });

/**
 * The step, with rows the caller does not read: `runTogether` does not send them back, which
 * spares PostgreSQL making them JSON and the client parsing it. A write runs all the same; a
 * read runs only if it is also `required` (PostgreSQL runs a `WITH` select only when used).
 */
export const unread = <Row>(step: Step<Row>): Step<never> =>
  ({ ...step, unread: true }) as unknown as Step<never>;

/**
 * A multi-row insert compiled once for each number of rows up to `maxRows`: `build` gets the
 * rows as stand-ins (row i's column c is the value `c${i}`) and must insert them as they are.
 * The result takes real rows and gives the step to run alone (`step.query(db, step.values)`)
 * or with others by `runTogether`.
 */
export function multiRowInsert<Row extends Record<string, unknown>, Result>(
  columns: readonly (keyof Row & string)[],
  maxRows: number,
  build: (db: Db, rows: Row[]) => Compilable<Result>,
): (rows: readonly Row[]) => Step<Result> {
  const bySize = Array.from({ length: maxRows }, (_, size) =>
    compiledOnce((db, values: Record<string, unknown>) =>
      build(
        db,
        Array.from(
          { length: size + 1 },
          (_, i) =>
            Object.fromEntries(columns.map((column) => [column, values[`${column}${i}`]])) as Row,
        ),
      ),
    ),
  );
  // By row: the names of its columns' values (built once, not for every insert).
  const names = Array.from({ length: maxRows }, (_, i) => columns.map((column) => `${column}${i}`));
  return (rows) => {
    const insert = bySize[rows.length - 1];
    if (insert === undefined)
      throw new RangeError(`multiRowInsert: 1 to ${maxRows} rows, not ${rows.length}`);
    const values: Record<string, unknown> = {};
    rows.forEach((row, i) => {
      const rowNames = names[i] ?? [];
      columns.forEach((column, c) => {
        values[rowNames[c] as string] = row[column];
      });
    });
    return insert.with(values);
  };
}

type Rows<Steps> = { [K in keyof Steps]: Steps[K] extends Step<infer Row> ? Row[] : never };

/** Kysely's WITH chain, as `runTogether` uses it for any number of steps. */
interface WithChain {
  with(name: string, query: () => unknown): WithChain;
  selectNoFrom(selections: readonly unknown[]): Compilable<Record<string, unknown[]>>;
}

/** By the steps' queries: the one statement that runs them together on PostgreSQL. */
const combined = new Map<string, Query<Record<string, unknown>, Record<string, unknown[]>>>();
const queryIds = new WeakMap<object, number>();
/** By combined statement: which step's value fills each parameter, read from its slot names. */
const stepSlots = new WeakMap<object, ({ step: number; name: string } | undefined)[]>();

/**
 * Runs writes that do not depend on each other's results and returns each one's rows (each
 * needs a RETURNING clause, of numbers and strings only). PostgreSQL runs them as one statement
 * of data-modifying WITH queries, one round trip for all; SQLite runs them one after another.
 * Inside a transaction, a caller that finds one of them changed nothing throws, and the
 * transaction undoes the others with it. PostgreSQL runs every one of them either way.
 *
 * On PostgreSQL it may also run outside a transaction, as a transaction of its own: then the
 * statement fails as a whole (`isChangedMeanwhile`) when a step marked `required` returned no
 * row, so nothing is written. On SQLite only a transaction makes them all or nothing.
 */
export async function runTogether<const Steps extends readonly Step<unknown>[]>(
  db: Db,
  steps: Steps,
): Promise<Rows<Steps>> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) {
    const rows: unknown[][] = [];
    for (const step of steps) {
      const { rows: stepRows } = await step.query(db, step.values as never);
      rows.push(step.unread === true ? [] : stepRows);
    }
    return rows as Rows<Steps>;
  }
  // Outside a transaction, the steps that must return a row: the statement checks them.
  const checked = db.isTransaction ? [] : steps.flatMap((step, i) => (step.required ? [i] : []));
  const key = `${steps.map((step) => `${String(idOf(step.build))}${step.unread === true ? '-' : ''}`).join(',')};${checked.join(',')}`;
  let query = combined.get(key);
  if (query === undefined) {
    query = compiledOnce((qb, values: Record<string, unknown>) => {
      // Each step sees its own values under its index.
      const valuesOf = (i: number) =>
        new Proxy({} as never, { get: (_target, name) => values[`${i}.${String(name)}`] });
      let chain = qb as unknown as WithChain;
      steps.forEach((step, i) => {
        chain = chain.with(`q${i}`, () => step.build(qb, valuesOf(i)));
      });
      const results = steps.flatMap((step, i) => {
        if (step.unread === true) return [];
        const table = sql.table(`q${i}`);
        return [sql`(select coalesce(json_agg(${table}), '[]'::json) from ${table})`.as(`r${i}`)];
      });
      if (checked.length === 0) {
        return chain.selectNoFrom(results.length > 0 ? results : [sql`0`.as('none')]);
      }
      // A function that fails fails the statement, and every write of its WITH queries with it.
      const found = checked.map((i) => sql`exists (select from ${sql.table(`q${i}`)})`);
      const check = sql`case when ${sql.join(found, sql` and `)} then 0 else changed_meanwhile() end`;
      return chain.selectNoFrom([...results, check.as('checked')]);
    });
    combined.set(key, query);
  }
  // Each parameter is read from its step's values directly: no merged object of every value.
  const compiled = query.compiledFor(db);
  let sources = stepSlots.get(compiled);
  if (sources === undefined) {
    sources = compiled.slots.map((slot) => {
      if (slot === undefined) return undefined;
      const dot = slot.indexOf('.');
      return { step: Number(slot.slice(0, dot)), name: slot.slice(dot + 1) };
    });
    stepSlots.set(compiled, sources);
  }
  const parameters = sources.map((source, i) =>
    source === undefined ? compiled.query.parameters[i] : steps[source.step]?.values[source.name],
  );
  const [row] = (
    await db.executeQuery<Record<string, unknown[]>>({ ...compiled.query, parameters })
  ).rows;
  return steps.map((_, i) => row?.[`r${i}`] ?? []) as Rows<Steps>;
}

let nextQueryId = 0;

function idOf(build: object): number {
  let id = queryIds.get(build);
  if (id === undefined) {
    id = nextQueryId++;
    queryIds.set(build, id);
  }
  return id;
}
