import pino, { type DestinationStream, type Logger } from 'pino';
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

export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  return pino({ level, redact: { paths: redactedPaths, censor: '[redacted]' } }, destination);
}
