import { statSync } from 'node:fs';
import { join } from 'node:path';
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

/**
 * A statement run by `runTogether` outside a transaction found the rows it writes changed since
 * they were read (PostgreSQL), and wrote nothing. A unique index that refused one of its rows,
 * or a deadlock with a concurrent writer, means the same there.
 */
export function isChangedMeanwhile(error: unknown): boolean {
  const code = codeOf(error);
  return code === 'BZ409' || code === '23505' || code === '40P01';
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

/**
 * A PostgreSQL failure after which the connection it came from cannot be used again: the
 * connection failed (08), the server ended it (57P: shut down, terminated by an administrator,
 * crashed) or the socket did, or pg says it is gone. A statement past its time limit, a deadlock
 * or a read-only server leave the connection as good as it was.
 */
export function endsConnection(error: unknown): boolean {
  const code = codeOf(error);
  if (code !== undefined) return /^(08...|57P..)$/.test(code) || networkCodes.has(code);
  const message = error instanceof Error ? error.message : '';
  return /Connection terminated|is not queryable/i.test(message);
}

/**
 * A database that has migrations this version does not have: a newer release set it up (the
 * operator rolled back the code, or pointed it at another release's database).
 */
export class NewerSchemaError extends Error {
  constructor(readonly migrations: string[]) {
    super(`the database has migrations this version does not know: ${migrations.join(', ')}`);
  }
}

/** Why the database could not be opened or prepared, in one line an operator can act on. */
export function databaseProblem(error: unknown, target: DatabaseTarget): string {
  const database = describeDatabase(target);
  if (error instanceof NewerSchemaError) {
    const these = error.migrations.length === 1 ? 'migration' : 'migrations';
    return `The ${database} was set up by a newer version of the service (${these} ${error.migrations.join(', ')}, unknown to this one); run that version, or set DATABASE_URL to a database made for this one.`;
  }
  // Migrations wrap the driver's error; its code is on the cause.
  let coded: (Error & { code?: unknown; syscall?: unknown }) | undefined;
  for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) {
    if ((cause as { code?: unknown }).code !== undefined) {
      coded = cause;
      break;
    }
  }
  const code = coded?.code;
  const message = (coded ?? (error as Error)).message;
  if (target.dialect === 'sqlite') {
    const problem = sqliteProblem(target.path, code, coded?.syscall, message);
    if (problem !== undefined) return problem;
  }
  if (target.dialect === 'postgres' && code === '3D000') {
    const name = decodeURIComponent(new URL(target.url).pathname.slice(1));
    return `The ${database} does not exist; create it (for example: createdb ${name}) and start again.`;
  }
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return `Could not reach the ${database}: ${(error as Error).message}`;
  }
  return `Could not use the ${database}: ${(error as Error).message}`;
}

/** Whether `path` is a directory; false when it cannot be read at all (a loop of links, say). */
function isDirectory(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    return false;
  }
}

/** The SQLite file cannot be created, opened, written or locked: what to do about it. */
function sqliteProblem(
  path: string,
  code: unknown,
  syscall: unknown,
  message: string,
): string | undefined {
  const file = `SQLite file ${path}`;
  const elsewhere = 'or set DATABASE_URL to another file';
  if (syscall === 'mkdir') {
    return `Could not create the directory of the ${file} (${message}); make that path a directory the service can write to, ${elsewhere}.`;
  }
  if (typeof code !== 'string') return undefined;
  if (code === 'SQLITE_NOTADB') {
    return `The ${file} is not a SQLite database; set DATABASE_URL to the service's database file, or to a new file to start with an empty one.`;
  }
  if (code.startsWith('SQLITE_CANTOPEN') && isDirectory(path)) {
    return `The ${file} is a directory; set DATABASE_URL to a file in it (for example sqlite:${join(path, 'bazaar.db')}).`;
  }
  // SQLite writes the file, and beside it the -wal and -shm files, so their directory too.
  if (code.startsWith('SQLITE_CANTOPEN') || code.startsWith('SQLITE_READONLY')) {
    return `The ${file} cannot be ${code.startsWith('SQLITE_READONLY') ? 'written' : 'opened or created'} (${message}); let the service write the file and its directory, ${elsewhere}.`;
  }
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return `The ${file} was held by another process for longer than SQLITE_BUSY_TIMEOUT_MS allows (${message}); stop that process, or let it finish, and start again.`;
  }
  return undefined;
}
