import { describeDatabase, type DatabaseTarget } from '../config.js';

/**
 * Recognises database failures by their driver codes, so services can tell a conflict they
 * expect (a unique index doing its job) from storage that cannot commit at all.
 */
interface DriverError {
  code?: unknown;
}

const codeOf = (error: unknown): string | undefined => {
  const code = (error as DriverError | null)?.code;
  return typeof code === 'string' ? code : undefined;
};

export function isUniqueViolation(error: unknown): boolean {
  const code = codeOf(error);
  return (
    code === '23505' ||
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
}

export function isCheckViolation(error: unknown): boolean {
  const code = codeOf(error);
  return code === '23514' || code === 'SQLITE_CONSTRAINT_CHECK';
}

// SQLite: the file cannot be written, is locked past busy_timeout, or the disk failed.
const sqliteStorageCodes =
  /^SQLITE_(READONLY|BUSY|LOCKED|FULL|IOERR|CANTOPEN|CORRUPT|NOTADB|PERM|NOMEM)/;
// PostgreSQL: read-only transaction (25006), connection (08), resources (53), a statement
// cancelled past its time limit (57014), shutdown (57P), system (58), serialization/deadlock
// that survived (40001/40P01).
const postgresStorageCodes = /^(25006|08...|53...|57014|57P..|58...|40001|40P01)$/;
const networkCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

export function isStorageUnavailable(error: unknown): boolean {
  const code = codeOf(error);
  if (code !== undefined) {
    return (
      sqliteStorageCodes.test(code) || postgresStorageCodes.test(code) || networkCodes.has(code)
    );
  }
  const message = error instanceof Error ? error.message : '';
  // pg reports a pool that lost its server, could not connect in time (all its connections
  // busy, or the server not answering) or was shut down without a code; and a connection lost
  // in a transaction fails the rollback after the failed statement with "… is not queryable",
  // which takes that statement's place.
  return /Connection terminated|connection timeout|timeout exceeded when trying to connect|Cannot use a pool after calling end|is not queryable/i.test(
    message,
  );
}

/** Why the database could not be opened or prepared, in one line an operator can act on. */
export function databaseProblem(error: unknown, target: DatabaseTarget): string {
  // Migrations wrap the driver's error; its code is on the cause.
  let code: unknown;
  for (
    let cause: unknown = error;
    cause instanceof Error && code === undefined;
    cause = cause.cause
  ) {
    code = (cause as { code?: unknown }).code;
  }
  if (target.dialect === 'postgres' && code === '3D000') {
    const name = decodeURIComponent(new URL(target.url).pathname.slice(1));
    return `The ${describeDatabase(target)} does not exist; create it (for example: createdb ${name}) and start again.`;
  }
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return `Could not reach the ${describeDatabase(target)}: ${(error as Error).message}`;
  }
  return `Could not use the ${describeDatabase(target)}: ${(error as Error).message}`;
}
