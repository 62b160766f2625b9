import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { afterEach } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { openStore, type Store } from '../../src/db/database.js';
import { prepareStore } from '../../src/setup.js';
import {
  createSeededTestDatabase,
  createTestDatabase,
  type DialectName,
  type TestDatabase,
} from './databases.js';

export interface ServerProcess {
  child: ChildProcess;
  baseUrl: string;
  /** Log lines the process has printed so far (JSON text). */
  lines: string[];
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts `src/server.ts` as a real process on a free port and resolves once it listens. Only
 * for tests about processes: start-up races, signals, several servers on one database.
 */
export async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  const stderr: string[] = [];
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const reader = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    reader.on('line', (line) => {
      lines.push(line);
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    void exited.then((code) => {
      reject(
        new Error(
          `server exited with ${String(code)} before listening: ${stderr.join('')}${lines.join('\n')}`,
        ),
      );
    });
  });
  return {
    child,
    baseUrl,
    lines,
    exited,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** An answer of a server process, read as the JSON envelope. */
export interface Answer<T> {
  status: number;
  body: { data: T; code?: string; error?: string };
  retryAfter: string | null;
}

/** Sends `body` as JSON with POST (or GET without one), with `key` as the bearer if given. */
export async function call<T>(
  server: ServerProcess,
  path: string,
  body?: object,
  key?: string,
): Promise<Answer<T>> {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(key === undefined ? {} : { authorization: `Bearer ${key}` }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return {
    status: response.status,
    body: (await response.json()) as Answer<T>['body'],
    retryAfter: response.headers.get('retry-after'),
  };
}

export interface ServerPair {
  /** A store on the servers' database, for reading and setting what the API does not show. */
  store: Store;
  /** The two servers in turn: 0 the first, 1 the second, 2 the first again… */
  via: (index: number) => ServerProcess;
}

export interface ServerProcesses {
  /** A fresh, empty database for the current test. */
  newDatabase: () => Promise<TestDatabase>;
  /** Starts a server on the current test's database (`env` without DATABASE_URL). */
  start: (env?: Record<string, string>) => Promise<ServerProcess>;
  /**
   * A fresh database, migrated and seeded (a copy of the run's template), and two servers
   * started on it at once: the first start itself is `newDatabase` and `start`'s to test.
   */
  startPair: (env: Record<string, string>) => Promise<ServerPair>;
}

/**
 * Server processes on a fresh database of `dialect`, for tests about processes: start-up races,
 * signals, what several servers on one database must decide as one. After each test the servers
 * are killed and the database dropped.
 */
export function serverProcesses(dialect: DialectName): ServerProcesses {
  let database: TestDatabase | undefined;
  let store: Store | undefined;
  const servers: ServerProcess[] = [];

  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.stop('SIGKILL')));
    await store?.close();
    store = undefined;
    await database?.drop();
    database = undefined;
  });

  const newDatabase = async () => {
    database = await createTestDatabase(dialect);
    return database;
  };
  const start = async (env: Record<string, string> = {}) => {
    if (database === undefined) throw new Error('a server starts on a database made first');
    const server = await startServer({ ...env, DATABASE_URL: database.url });
    servers.push(server);
    return server;
  };
  return {
    newDatabase,
    start,
    startPair: async (env) => {
      database = await createSeededTestDatabase(dialect);
      const config = loadConfig({ DATABASE_URL: database.url });
      const opened = openStore(config);
      store = opened;
      await prepareStore(opened, config);
      const [first, second] = await Promise.all([start(env), start(env)]);
      return { store: opened, via: (index) => (index % 2 === 0 ? first : second) };
    },
  };
}
