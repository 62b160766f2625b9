/**
 * The operators' tool for capability requests: list them, show one, answer one.
 *
 *   npm run requests -- list [--status received] [--limit 50]
 *   npm run requests -- show <id>
 *   npm run requests -- set <id> --status planned [--response "We will add it in December."]
 *   npm run requests -- set <id> --status completed --change <listing change id>   (corrections)
 *
 * It uses the same DATABASE_URL as the service. Output is JSON, one request per line for list.
 */
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../src/config.js';
import { openStore } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import {
  AnswerError,
  answerAsOperator,
  requestForOperators,
  requestsForOperators,
} from '../src/modules/requests/requests.service.js';
import {
  REQUEST_STATUSES as STATUSES,
  type RequestStatus,
} from '../src/modules/requests/requests.tables.js';

const USAGE = `Usage:
  npm run requests -- list [--status ${STATUSES.join('|')}] [--limit N]
  npm run requests -- show <id>
  npm run requests -- set <id> --status ${STATUSES.join('|')} [--response TEXT | --clear-response]
      [--change N]   (a correction: the listing change it led to, from the listing's history)`;

class UsageError extends Error {}

function statusOption(value: string | undefined): RequestStatus | undefined {
  if (value === undefined) return undefined;
  const status = STATUSES.find((candidate) => candidate === value);
  if (status === undefined) throw new UsageError(`--status must be one of ${STATUSES.join(', ')}`);
  return status;
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      status: { type: 'string' },
      limit: { type: 'string' },
      response: { type: 'string' },
      'clear-response': { type: 'boolean' },
      change: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  const [command, id, ...extra] = positionals;
  if (values.help === true) {
    console.log(USAGE);
    return 0;
  }
  if (extra.length > 0) throw new UsageError(`unexpected arguments: ${extra.join(' ')}`);

  const store = openStore(loadConfig(process.env));
  try {
    await migrateToLatest(store);
    switch (command) {
      case 'list': {
        const limit = values.limit === undefined ? 50 : Number(values.limit);
        if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
          throw new UsageError('--limit must be an integer from 1 to 1000');
        const requests = await requestsForOperators(store, {
          status: statusOption(values.status),
          limit,
        });
        for (const request of requests) console.log(JSON.stringify(request));
        return 0;
      }
      case 'show': {
        if (id === undefined) throw new UsageError('show needs a request id');
        const request = await requestForOperators(store, id);
        if (request === undefined) {
          console.error(`No request ${id}.`);
          return 1;
        }
        console.log(JSON.stringify(request, null, 2));
        return 0;
      }
      case 'set': {
        if (id === undefined) throw new UsageError('set needs a request id');
        const status = statusOption(values.status);
        if (status === undefined) throw new UsageError('set needs --status');
        if (values.response !== undefined && values['clear-response'] === true) {
          throw new UsageError('use either --response or --clear-response');
        }
        const response = values['clear-response'] === true ? null : values.response?.trim();
        const change = values.change === undefined ? undefined : Number(values.change);
        if (change !== undefined && !(Number.isSafeInteger(change) && change > 0))
          throw new UsageError('--change must be a listing change id (a positive integer)');
        let updated;
        try {
          updated = await answerAsOperator(store, id, {
            status,
            response,
            listing_change_id: change,
          });
        } catch (error) {
          if (!(error instanceof AnswerError)) throw error;
          console.error(error.message);
          return 1;
        }
        if (updated === undefined) {
          console.error(`No request ${id}.`);
          return 1;
        }
        console.log(JSON.stringify(updated, null, 2));
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

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  if (
    error instanceof UsageError ||
    error instanceof ConfigError ||
    (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') === true
  ) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    process.exitCode = 2;
  } else {
    throw error;
  }
}
