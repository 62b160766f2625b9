import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { looksLikeSecret } from './secrets.js';

/** What a client's own X-Request-Id may look like to be used as the request's id. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The client's X-Request-Id when it is short and plain (it ends up in logs and headers),
 * otherwise a new UUID. One that holds a credential, or anything that starts like one of this
 * service's keys or receipt tokens (`hg_`, `rq_`), is replaced too: logs never hold a key.
 */
export function requestIdOf(request: IncomingMessage): string {
  const sent = request.headers['x-request-id'];
  return typeof sent === 'string' &&
    SAFE_REQUEST_ID.test(sent) &&
    !/(?:hg|rq)_/i.test(sent) &&
    !looksLikeSecret(sent)
    ? sent
    : randomUUID();
}
