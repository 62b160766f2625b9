import { isIP } from 'node:net';
import { resolve } from 'node:path';

/**
 * Everything the service reads from the environment, validated once at boot. A bad value stops
 * the start with a message naming the variable, instead of surfacing later as odd behaviour.
 */
export interface Config {
  port: number;
  host: string;
  /** Where the data lives: a SQLite file path or a PostgreSQL URL. */
  database: DatabaseTarget;
  /** Base of absolute URLs in responses (e.g. `status_url`); null = derived from the request. */
  publicBaseUrl: string | null;
  logLevel: LogLevel;
  /** Seconds a shutdown waits for requests in flight before the process gives up on them. */
  shutdownGraceSeconds: number;
  /** How long an idle keep-alive connection stays open. */
  keepAliveTimeoutSeconds: number;
  /** Milliseconds a write waits for another process's lock on the SQLite file. */
  sqliteBusyTimeoutMs: number;
  sqliteSynchronous: 'FULL' | 'NORMAL';
  /** PostgreSQL only: connections each process may hold open at once. */
  databasePoolSize: number;
  /**
   * PostgreSQL only: milliseconds a statement may run, lock waits included, while serving
   * (setup has none); 0 = no limit.
   */
  databaseStatementTimeoutMs: number;
  /**
   * Which proxies' `X-Forwarded-*` headers are believed: none (false), every one (true), or
   * proxies at these addresses or CIDR ranges.
   */
  trustProxy: boolean | string[];
  /** Secret mixed into every product's hidden floor; null = generated once and kept in the database. */
  sellerSecret: string | null;
  /** Minutes before a player may negotiate again for a product after a negotiation without a deal. */
  haggleCooldownMinutes: number;
  /** Minutes without an offer after which an active negotiation is expired. */
  haggleIdleMinutes: number;
  /** Active negotiations one player may hold at once. */
  haggleMaxActive: number;
  /** Shared rate-limit store for several processes; null = each process counts on its own. */
  redisUrl: string | null;
  /** Origins whose browser pages may call the API; null = any origin. */
  corsOrigins: string[] | null;
  limits: Limits;
}

export interface Limits {
  gameRequestsPerMinute: number;
  registrationsPerHour: number;
  requestsPerClientPerDay: number;
  requestsPerDay: number;
}

export type DatabaseTarget =
  { dialect: 'sqlite'; path: string } | { dialect: 'postgres'; url: string };

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Readonly<Record<string, string | undefined>>;

export const DEFAULT_SQLITE_PATH = './data/bazaar.db';

export function loadConfig(env: Env = process.env): Config {
  // Every bad variable is collected, so one failed start names them all.
  const problems: string[] = [];
  const read = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };

  const integer = (name: string, fallback: number, min: number, max: number): number => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      problems.push(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
      return fallback;
    }
    return Number(raw);
  };

  const oneOf = <T extends string>(name: string, allowed: readonly T[], fallback: T): T => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    const match = allowed.find(
      (value) => value === raw.toLowerCase() || value === raw.toUpperCase(),
    );
    if (match === undefined) {
      problems.push(`${name} must be one of ${allowed.join(', ')}, got "${raw}"`);
      return fallback;
    }
    return match;
  };

  const url = (name: string, protocols: readonly string[]): string | null => {
    const raw = read(name);
    if (raw === undefined) return null;
    // Said back without the user and password a URL may carry (…@), so no error shows them.
    const at = raw.lastIndexOf('@');
    const scheme = /^[a-z][a-z0-9+.-]*:\/*/i.exec(raw)?.[0] ?? '';
    const shown = at === -1 ? raw : `${scheme}…${raw.slice(at)}`;
    let parsed: URL;
    try {
      parsed = new URL(raw);
    } catch {
      problems.push(`${name} must be a URL, got "${shown}"`);
      return null;
    }
    if (!protocols.includes(parsed.protocol)) {
      problems.push(`${name} must start with ${protocols.join(' or ')}, got "${shown}"`);
      return null;
    }
    return raw.replace(/\/+$/, '');
  };

  const sellerSecret = read('SELLER_SECRET') ?? null;
  if (sellerSecret !== null && sellerSecret.length < 16) {
    problems.push('SELLER_SECRET must be at least 16 characters long');
  }
  // Parsers that throw ConfigError: their problem joins the others instead of ending the check.
  const parsed = <T>(parse: () => T, fallback: T): T => {
    try {
      return parse();
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(error.message);
      return fallback;
    }
  };
  const database = parsed<DatabaseTarget>(() => parseDatabaseUrl(read('DATABASE_URL')), {
    dialect: 'sqlite',
    path: resolve(DEFAULT_SQLITE_PATH),
  });

  const config: Config = {
    port: integer('PORT', 3000, 0, 65535),
    host: read('HOST') ?? '0.0.0.0',
    database,
    publicBaseUrl: url('PUBLIC_BASE_URL', ['http:', 'https:']),
    logLevel: oneOf('LOG_LEVEL', logLevels, 'info'),
    shutdownGraceSeconds: integer('SHUTDOWN_GRACE_SECONDS', 10, 1, 600),
    keepAliveTimeoutSeconds: integer('KEEP_ALIVE_TIMEOUT_SECONDS', 72, 1, 3600),
    sqliteBusyTimeoutMs: integer('SQLITE_BUSY_TIMEOUT_MS', 5000, 0, 600_000),
    sqliteSynchronous: oneOf('SQLITE_SYNCHRONOUS', ['FULL', 'NORMAL'] as const, 'FULL'),
    databasePoolSize: integer('DATABASE_POOL_SIZE', 10, 1, 1000),
    databaseStatementTimeoutMs: integer('DATABASE_STATEMENT_TIMEOUT_MS', 10_000, 0, 600_000),
    trustProxy: parsed(() => parseTrustProxy(read('TRUST_PROXY')), false),
    sellerSecret,
    haggleCooldownMinutes: integer('HAGGLE_COOLDOWN_MINUTES', 30, 0, 10_080),
    haggleIdleMinutes: integer('HAGGLE_IDLE_MINUTES', 15, 1, 10_080),
    haggleMaxActive: integer('HAGGLE_MAX_ACTIVE', 3, 1, 1000),
    redisUrl: url('REDIS_URL', ['redis:', 'rediss:']),
    corsOrigins: parsed(() => parseOrigins(read('CORS_ORIGINS')), null),
    limits: {
      gameRequestsPerMinute: integer('GAME_RATE_LIMIT_PER_MINUTE', 300, 1, 1_000_000),
      registrationsPerHour: integer('REGISTRATION_RATE_LIMIT_PER_HOUR', 30, 1, 1_000_000),
      requestsPerClientPerDay: integer('REQUESTS_DAILY_LIMIT_PER_CLIENT', 20, 1, 1_000_000),
      requestsPerDay: integer('REQUESTS_DAILY_LIMIT_TOTAL', 1000, 1, 100_000_000),
    },
  };
  if (problems.length > 0) throw new ConfigError(problems.join('\n'));
  return config;
}

/** `*` (or unset) for any origin, else a comma-separated list such as `https://app.example.com`. */
export function parseOrigins(raw: string | undefined): string[] | null {
  if (raw === undefined || raw === '*') return null;
  return raw.split(',').map((entry) => {
    const value = entry.trim();
    let origin: string | undefined;
    try {
      origin = new URL(value).origin;
    } catch {
      origin = undefined;
    }
    if (origin === undefined || origin === 'null' || origin !== value.replace(/\/+$/, '')) {
      throw new ConfigError(
        `CORS_ORIGINS must be * or a comma-separated list of origins such as https://app.example.com, got "${value}"`,
      );
    }
    return origin;
  });
}

/** TRUST_PROXY: true, false, or a comma-separated list of proxy addresses and CIDR ranges. */
export function parseTrustProxy(raw: string | undefined): boolean | string[] {
  if (raw === undefined || raw === 'false') return false;
  if (raw === 'true') return true;
  const entries = raw.split(',').map((entry) => entry.trim());
  const valid = (entry: string) => {
    const [address = '', prefix, ...rest] = entry.split('/');
    const family = isIP(address);
    if (family === 0 || rest.length > 0) return false;
    if (prefix === undefined) return true;
    return /^\d+$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
  };
  const bad = entries.find((entry) => !valid(entry));
  if (bad !== undefined) {
    throw new ConfigError(
      `TRUST_PROXY must be true, false or a comma-separated list of proxy addresses or CIDR ranges (10.0.0.0/8), got "${bad}"`,
    );
  }
  return entries;
}

export function parseDatabaseUrl(raw: string | undefined): DatabaseTarget {
  if (raw === undefined) return { dialect: 'sqlite', path: resolve(DEFAULT_SQLITE_PATH) };
  if (raw.startsWith('sqlite:')) {
    const path = raw.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    // `sqlite://data/x.db` reads as a host named "data": refused rather than taken for /data/x.db.
    if (path.startsWith('//'))
      throw new ConfigError(
        `DATABASE_URL "${raw}" is ambiguous: write sqlite:./relative/path.db or sqlite:///absolute/path.db`,
      );
    if (path === '')
      throw new ConfigError(
        'DATABASE_URL "sqlite:" needs a file path, e.g. sqlite:./data/bazaar.db',
      );
    return { dialect: 'sqlite', path: path === ':memory:' ? path : resolve(path) };
  }
  if (raw.startsWith('postgres://') || raw.startsWith('postgresql://')) {
    try {
      new URL(raw);
    } catch {
      throw new ConfigError('DATABASE_URL is not a valid postgres:// URL');
    }
    return { dialect: 'postgres', url: raw };
  }
  throw new ConfigError('DATABASE_URL must start with sqlite: or postgres://');
}

/** The database as it may be shown: kind and file, or host and database name, never a password. */
export function describeDatabase(target: DatabaseTarget): string {
  if (target.dialect === 'sqlite') return `SQLite file ${target.path}`;
  const url = new URL(target.url);
  return `PostgreSQL database "${decodeURIComponent(url.pathname.slice(1))}" on ${url.host}`;
}
