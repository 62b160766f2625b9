import { hostname } from 'node:os';
import pino, {
  type Bindings,
  type ChildLoggerOptions,
  type DestinationStream,
  type Logger,
} from 'pino';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { LogLevel } from './config.js';
import { withoutSecrets } from './http/secrets.js';

/**
 * Credentials never reach the logs: the Authorization header, and any field that carries a key
 * or a receipt token, whatever object it sits in.
 */
export const redactedPaths = [
  'req.headers.authorization',
  'headers.authorization',
  'authorization',
  '*.authorization',
  'api_key',
  '*.api_key',
  'token',
  '*.token',
  'key',
  '*.key',
];

/**
 * A URL as it may be logged: the values of credential-like query parameters (any name with
 * `key`, `token`, `secret`, `password`, `auth`, … in it) and of `email` hidden, and this
 * service's keys and receipt tokens, e-mail addresses and anything else shaped like a
 * credential, hidden wherever they appear (a key pasted into another parameter or the path). A URL whose percent-encoding hides one of them (`%65mail=`, `hg%5F…`) is logged decoded,
 * with it hidden.
 */
export function redactUrl(url: string): string {
  const logged = redactText(url);
  if (!url.includes('%') && !url.includes('+')) return logged;
  const decoded = decodedUrl(url);
  const redacted = redactText(decoded);
  return redacted === decoded ? logged : redacted;
}

function redactText(url: string): string {
  let logged = url;
  if (logged.includes('=')) {
    // Each parameter is read once, and its name tested on its own: a pattern that looked for
    // the words inside the name as it scanned took quadratic time on a long name of them.
    logged = logged.replace(PARAMETER, (parameter: string, name: string) =>
      CREDENTIAL_NAME.test(name) ? `${name}=[redacted]` : parameter,
    );
  }
  if (logged.includes('hg_') || logged.includes('rq_')) {
    logged = logged.replace(/hg_[0-9a-fA-F]{16,}|rq_[A-Za-z0-9_-]{16,}/g, '[redacted]');
  }
  // An address typed into a search or a path; linear: a name starts where a word does, and the
  // domain's labels are split by their dots.
  if (logged.includes('@')) logged = logged.replace(EMAIL_IN_URL, '[redacted]');
  // Other services' secrets pasted into a search or a path (sk-…, ghp_…, AKIA…) too.
  return withoutSecrets(logged);
}

/**
 * A query parameter: its `?` or `&` and name, then its value. A name stops at the next `?` too,
 * so that no character is scanned from more than one start (linear on any URL).
 */
const PARAMETER = /([?&][^?&=#]*)=[^&#]*/g;
/** Names of parameters whose values are hidden. */
const CREDENTIAL_NAME =
  /key|token|secret|passw(?:or)?d|pwd|auth|credential|bearer|signature|email/i;

const EMAIL_IN_URL = /(?<![^\s/?&=#;,])[^\s/?&=#;,@]+@[^\s/?&=#;,@.]+(?:\.[^\s/?&=#;,@.]+)+/g;

/** The URL as its parts read it (`+` a space in the query), or as it is when it does not decode. */
function decodedUrl(url: string): string {
  const query = url.indexOf('?');
  const readable = query === -1 ? url : url.slice(0, query) + url.slice(query).replaceAll('+', ' ');
  try {
    return decodeURIComponent(readable);
  } catch {
    return readable.replace(/%[0-9a-f]{2}/gi, (escape) => {
      try {
        return decodeURIComponent(escape);
      } catch {
        return escape;
      }
    });
  }
}

/**
 * JSON lines for machines, written to standard output as they are logged (each line one write,
 * in order, and none left in a buffer if the process dies: pino's buffered default costs a trip
 * through libuv's thread pool per line when the service is busy); when a person runs the service
 * in a terminal outside production, the same lines made readable by pino-pretty.
 */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  const options = { level, redact: { paths: redactedPaths, censor: '[redacted]' } };
  if (destination !== undefined) return pino(options, destination);
  const pretty = process.stdout.isTTY && process.env.NODE_ENV !== 'production';
  return pretty
    ? pino({
        ...options,
        transport: { target: 'pino-pretty', options: { ignore: 'pid,hostname' } },
      })
    : pino(options, pino.destination({ dest: 1, sync: true }));
}

/**
 * Fastify's `childLoggerFactory`: a request's logger (`request.log`) is made when something
 * logs through it. Fastify asks for one per request, and pino's child logger serializes its
 * bindings when it is made; the access line is written without it (`logRequests`) and most
 * requests log nothing else.
 */
export const requestLoggerFactory = (
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger => new RequestLogger(logger, bindings, options);

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

class RequestLogger implements FastifyBaseLogger {
  #logger: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  #made(): FastifyBaseLogger {
    return (this.#logger ??= this.parent.child(this.bindings, this.options));
  }

  #log(level: Level, args: unknown[]): void {
    const logger = this.#made();
    Reflect.apply(logger[level], logger, args);
  }

  get level(): string {
    return this.#logger?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: string) {
    this.#made().level = level;
  }

  fatal(...args: unknown[]): void {
    this.#log('fatal', args);
  }

  error(...args: unknown[]): void {
    this.#log('error', args);
  }

  warn(...args: unknown[]): void {
    this.#log('warn', args);
  }

  info(...args: unknown[]): void {
    this.#log('info', args);
  }

  debug(...args: unknown[]): void {
    this.#log('debug', args);
  }

  trace(...args: unknown[]): void {
    this.#log('trace', args);
  }

  silent(...args: unknown[]): void {
    this.#log('silent', args);
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#made().child(bindings, options);
  }
}

/**
 * One line per finished request with what an operator needs: method, route, status, error
 * code and duration (Fastify's own two lines per request are turned off in app.ts).
 *
 * The line is built here from values that carry no credential (the URL with its credential-like
 * parameters hidden) and written to the logger's destination as it is, in pino's own format:
 * without the redaction pass every other line gets (which doubled the line's cost) and without
 * pino's field-by-field serialization (bench/LOG.md, "Per-request work" and "The keyed product
 * read: its log line, CORS headers and PostgreSQL connections").
 */
export function logRequests(app: FastifyInstance): void {
  // Where a pino logger writes is under pino's documented `streamSym`; any other logger
  // writes the line itself.
  const logger = app.log as unknown as Logger & Record<symbol, DestinationStream | undefined>;
  const destination = logger[pino.symbols.streamSym];
  const level = logger.levels.values.info ?? 30;
  const pid = process.pid;
  const host = hostname();
  const write =
    destination === undefined
      ? (line: AccessLine) => {
          app.log.info(line, line.msg);
        }
      : (line: AccessLine) => {
          if (logger.isLevelEnabled('info')) destination.write(`${JSON.stringify(line)}\n`);
        };
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (reply.statusCode >= 400 && typeof payload === 'string') {
      reply.errorCode = /"code":"([a-z_]+)"/.exec(payload)?.[1];
    }
    done(null, payload);
  });
  app.addHook('onResponse', (request, reply, done) => {
    const url = redactUrl(request.url);
    const line: AccessLine = {
      level,
      time: Date.now(),
      pid,
      hostname: host,
      reqId: request.id,
      method: request.method,
      route: request.routeOptions.url ?? null,
      url,
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime),
      code: reply.errorCode,
      msg: `${request.method} ${url} ${reply.statusCode}`,
    };
    write(line);
    done();
  });
}

/** The access line's fields in pino's order: its own, then the line's, then the message. */
interface AccessLine {
  level: number;
  time: number;
  pid: number;
  hostname: string;
  reqId: string;
  method: string;
  route: string | null;
  url: string;
  status: number;
  ms: number;
  /** Left out (undefined) unless the answer was an error with a code. */
  code: string | undefined;
  msg: string;
}

declare module 'fastify' {
  interface FastifyReply {
    errorCode: string | undefined;
  }
}
