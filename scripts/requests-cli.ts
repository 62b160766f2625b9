/**
 * The operators' tool for capability requests (`npm run requests`, entry in
 * `scripts/requests.ts`): list them, show one, answer one.
 *
 *   npm run requests -- list [--status received] [--kind correction] [--limit 50]
 *   npm run requests -- show <id>
 *   npm run requests -- set <id> --status planned [--response "We will add it in December."]
 *   npm run requests -- set <id> --status completed --change <listing change id>   (corrections)
 *
 * It uses the same DATABASE_URL as the service, and never creates or changes a schema: a SQLite
 * file that does not exist, or a database the service has not set up (at its current version),
 * is an error. `list` prints a table (`--json`: one JSON object per line) with the
 * listing a correction is about; `show` and `set` print the request as JSON.
 */
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ConfigError, describeDatabase, loadConfig } from '../src/config.js';
import { openStore, type Store } from '../src/db/database.js';
import { databaseProblem, NewerSchemaError } from '../src/db/errors.js';
import { schemaIsCurrent, unknownMigrations } from '../src/db/migrate.js';
import {
  AnswerError,
  answerAsOperator,
  requestForOperators,
  requestsForOperators,
} from '../src/modules/requests/requests.service.js';
import type { StoredRequest } from '../src/modules/requests/requests.schemas.js';
import {
  REQUEST_STATUSES as STATUSES,
  type RequestStatus,
} from '../src/modules/requests/requests.tables.js';

const KINDS = ['capability', 'correction', 'pilot'] as const satisfies StoredRequest['kind'][];

const USAGE = `Usage:
  npm run requests -- list [--status ${STATUSES.join('|')}] [--kind ${KINDS.join('|')}] [--limit N] [--json]
  npm run requests -- show <id>
  npm run requests -- set <id> --status ${STATUSES.join('|')} [--response TEXT | --clear-response]
      [--change N]   (a correction: the listing change it led to, from the listing's history)`;

class UsageError extends Error {}

/**
 * Control characters (escape sequences that would clear the screen, set the window title or
 * colour the text) and bidirectional overrides (which reorder what is shown): anyone can file a
 * request, so its text never reaches the terminal as it is.
 */
const UNPRINTABLE = /[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/**
 * JSON as printed: what `JSON.stringify` leaves as it is of `UNPRINTABLE` (controls from U+007F,
 * bidirectional overrides) and the line separators, written as `\uXXXX` escapes: the same JSON,
 * nothing a terminal acts on.
 */
const printableJson = (value: unknown, indent?: number): string =>
  JSON.stringify(value, null, indent).replace(
    /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2028\u2029\u2066-\u2069]/g,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );

/** Requests as a table a person can read in a terminal. */
function table(requests: StoredRequest[]): string {
  const oneLine = (text: string, width: number) => {
    const flat = Array.from(text.replace(/\s+/g, ' ').trim().replace(UNPRINTABLE, '\ufffd'));
    return flat.length > width ? `${flat.slice(0, width - 1).join('')}…` : flat.join('');
  };
  const rows = requests.map((request) => [
    request.id,
    request.status,
    request.kind,
    request.created_at.slice(0, 16).replace('T', ' '),
    request.capability_id ?? '-',
    oneLine(request.task, 60),
  ]);
  const header = ['ID', 'STATUS', 'KIND', 'CREATED (UTC)', 'LISTING', 'TASK'];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  return [header, ...rows]
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

function kindOption(value: string | undefined): StoredRequest['kind'] | undefined {
  if (value === undefined) return undefined;
  const kind = KINDS.find((candidate) => candidate === value);
  if (kind === undefined) throw new UsageError(`--kind must be one of ${KINDS.join(', ')}`);
  return kind;
}

function statusOption(value: string | undefined): RequestStatus | undefined {
  if (value === undefined) return undefined;
  const status = STATUSES.find((candidate) => candidate === value);
  if (status === undefined) throw new UsageError(`--status must be one of ${STATUSES.join(', ')}`);
  return status;
}

/** Where the tool writes: the terminal when run as a command, buffers in tests. */
export interface CliOutput {
  out(line: string): void;
  err(line: string): void;
}

const terminal: CliOutput = {
  out: (line) => {
    console.log(line);
  },
  err: (line) => {
    console.error(line);
  },
};

/**
 * Runs the tool with command-line arguments and an environment; resolves to the exit code
 * (0 done, 1 not found or refused, 2 usage or no usable database). Tests call it in-process.
 */
export async function runRequestsCli(
  argv: string[],
  env: NodeJS.ProcessEnv,
  io: CliOutput = terminal,
): Promise<number> {
  try {
    return await run(argv, env, io);
  } catch (error) {
    if (
      error instanceof UsageError ||
      error instanceof ConfigError ||
      (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') === true
    ) {
      io.err(`${(error as Error).message}\n\n${USAGE}`);
      return 2;
    }
    throw error;
  }
}

async function run(argv: string[], env: NodeJS.ProcessEnv, io: CliOutput): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      status: { type: 'string' },
      kind: { type: 'string' },
      limit: { type: 'string' },
      response: { type: 'string' },
      'clear-response': { type: 'boolean' },
      change: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  const [command, id, ...extra] = positionals;
  if (values.help === true) {
    io.out(USAGE);
    return 0;
  }
  if (extra.length > 0) throw new UsageError(`unexpected arguments: ${extra.join(' ')}`);

  const config = loadConfig(env);
  if (config.database.dialect === 'sqlite' && !existsSync(config.database.path)) {
    throw new UsageError(
      `There is no database at ${config.database.path}; set DATABASE_URL to the service's database.`,
    );
  }
  io.err(`Using the ${describeDatabase(config.database)}.`);
  let store: Store;
  try {
    store = openStore(config);
  } catch (error) {
    io.err(databaseProblem(error, config.database));
    return 2;
  }
  try {
    let current: boolean;
    let newer: string[];
    try {
      current = await schemaIsCurrent(store);
      newer = await unknownMigrations(store);
    } catch (error) {
      io.err(databaseProblem(error, config.database));
      return 2;
    }
    // Its tables may have changed in ways this version does not know: never written by it.
    if (newer.length > 0) {
      io.err(databaseProblem(new NewerSchemaError(newer), config.database));
      return 2;
    }
    if (!current) {
      io.err(
        `The ${describeDatabase(config.database)} is not set up by this version of the service: start the service on it once (npm start), then run this again.`,
      );
      return 2;
    }
    switch (command) {
      case 'list': {
        const limit = values.limit === undefined ? 50 : Number(values.limit);
        if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
          throw new UsageError('--limit must be an integer from 1 to 1000');
        const requests = await requestsForOperators(store, {
          status: statusOption(values.status),
          kind: kindOption(values.kind),
          limit,
        });
        if (values.json === true) {
          for (const request of requests) io.out(printableJson(request));
        } else {
          io.out(requests.length === 0 ? 'No requests.' : table(requests));
        }
        return 0;
      }
      case 'show': {
        if (id === undefined) throw new UsageError('show needs a request id');
        // Ids are stored in lower case; the API takes them in any case too.
        const request = await requestForOperators(store, id.toLowerCase());
        if (request === undefined) {
          io.err(`No request ${id}.`);
          return 1;
        }
        io.out(printableJson(request, 2));
        return 0;
      }
      case 'set': {
        if (id === undefined) throw new UsageError('set needs a request id');
        const status = statusOption(values.status);
        if (status === undefined) throw new UsageError('set needs --status');
        if (values.response !== undefined && values['clear-response'] === true) {
          throw new UsageError('use either --response or --clear-response');
        }
        // An empty response is none, as --clear-response says.
        const text = values.response?.trim();
        const response = values['clear-response'] === true || text === '' ? null : text;
        const change = values.change === undefined ? undefined : Number(values.change);
        if (change !== undefined && !(Number.isSafeInteger(change) && change > 0))
          throw new UsageError('--change must be a listing change id (a positive integer)');
        let updated;
        try {
          updated = await answerAsOperator(store, id.toLowerCase(), {
            status,
            response,
            listing_change_id: change,
          });
        } catch (error) {
          if (!(error instanceof AnswerError)) throw error;
          io.err(error.message);
          return 1;
        }
        if (updated === undefined) {
          io.err(`No request ${id}.`);
          return 1;
        }
        io.out(printableJson(updated, 2));
        return 0;
      }
      case undefined:
      default:
        throw new UsageError(
          command === undefined ? 'a command is needed' : `unknown command "${command}"`,
        );
    }
  } finally {
    await store.close();
  }
}
