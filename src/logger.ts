import pino, { type DestinationStream, type Logger } from 'pino';
import type { FastifyInstance } from 'fastify';
import type { LogLevel } from './config.js';

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

/** A URL as it may be logged: the values of credential-like query parameters hidden. */
export const redactUrl = (url: string): string =>
  url.includes('=')
    ? url.replace(/([?&](?:api_key|key|token|access_token)=)[^&#]*/gi, '$1[redacted]')
    : url;

/**
 * JSON lines for machines; when a person runs the service in a terminal outside production,
 * the same lines made readable by pino-pretty.
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
    : pino(options);
}

/**
 * One line per finished request with what an operator needs: method, route, status, error
 * code and duration (Fastify's own two lines per request are turned off in app.ts).
 *
 * The line is built here from values that carry no credential (the URL with its credential-like
 * parameters hidden), so it goes to the same destination through a logger without the redaction
 * pass that every other line gets, which doubled the line's cost (bench/LOG.md, "Per-request
 * work").
 */
export function logRequests(app: FastifyInstance): void {
  // Where a pino logger writes is under pino's documented `streamSym`; any other logger
  // writes the line itself.
  const destination = (app.log as unknown as Record<symbol, DestinationStream | undefined>)[
    pino.symbols.streamSym
  ];
  const access = destination === undefined ? app.log : pino({ level: app.log.level }, destination);
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (reply.statusCode >= 400 && typeof payload === 'string') {
      reply.errorCode = /"code":"([a-z_]+)"/.exec(payload)?.[1];
    }
    done(null, payload);
  });
  app.addHook('onResponse', (request, reply, done) => {
    const url = redactUrl(request.url);
    const line: AccessLine = {
      reqId: request.id,
      method: request.method,
      route: request.routeOptions.url ?? null,
      url,
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime),
    };
    if (reply.errorCode !== undefined) line.code = reply.errorCode;
    access.info(line, `${request.method} ${url} ${reply.statusCode}`);
    done();
  });
}

interface AccessLine {
  reqId: string;
  method: string;
  route: string | null;
  url: string;
  status: number;
  ms: number;
  code?: string;
}

declare module 'fastify' {
  interface FastifyReply {
    errorCode: string | undefined;
  }
}
