import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import {
  CONTACT_MAX_CHARACTERS,
  TASK_MAX_CHARACTERS,
  TASK_MIN_CHARACTERS,
  characters,
  trimmed,
} from './requests.limits.js';
import type { Config } from '../../config.js';
import type { Store } from '../../db/database.js';
import { AppError, type FieldProblem } from '../../http/errors.js';
import { bearerCredential, looksLikeSecret, sha256Hex } from '../../http/secrets.js';
import {
  answerRequest,
  deleteRequest,
  findRequest,
  findRequestById,
  insertRequest,
  listingExists,
  findListingChange,
  listRequests,
  pruneQuota,
  takeQuota,
} from './requests.repository.js';
import { requestView, type NewRequestBody, type StoredRequest } from './requests.schemas.js';
import type { RequestStatus } from './requests.tables.js';

export const RECEIPT_TOKEN_PATTERN = /^rq_[A-Za-z0-9_-]{43}$/;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Missing token, wrong token, unknown id, deleted request: one answer, so none can be told apart.
 * It names both halves of the receipt, as either may be the one wrong.
 */
const requestNotFound = () =>
  new AppError(
    'not_found',
    'Request not found: no request has this id with this receipt token (the rq_… token given when it was filed, sent as the bearer token). A deleted request is gone for good.',
  );

function validate(input: NewRequestBody): {
  task: string;
  contact: string | null;
  capabilityId: string | null;
} {
  const task = trimmed(input.task);
  const contact = trimmed(input.contact ?? '');
  // Listing ids are lower-case slugs: `LangChain` names `langchain`.
  const capabilityId = trimmed(input.capability_id ?? '').toLowerCase();
  const problems: FieldProblem[] = [];
  if (characters(task) < TASK_MIN_CHARACTERS || characters(task) > TASK_MAX_CHARACTERS) {
    problems.push({
      field: 'task',
      message: `must be ${TASK_MIN_CHARACTERS} to ${TASK_MAX_CHARACTERS} characters long after trimming`,
    });
  }
  if (characters(contact) > CONTACT_MAX_CHARACTERS) {
    problems.push({
      field: 'contact',
      message: `must be at most ${CONTACT_MAX_CHARACTERS} characters long`,
    });
  }
  if (problems.length > 0) {
    throw new AppError('validation_error', 'The request is not valid.', { details: problems });
  }
  for (const [field, text] of [
    ['task', task],
    ['contact', contact],
  ] as const) {
    if (looksLikeSecret(text)) {
      throw new AppError(
        'contains_secret',
        `The ${field} looks like it contains a credential (an API key, token or private key). Remove it and send the request again; nothing was stored.`,
        { details: [{ field, message: 'must not contain credentials' }] },
      );
    }
  }
  return {
    task,
    contact: contact === '' ? null : contact,
    capabilityId: capabilityId === '' ? null : capabilityId,
  };
}

/**
 * The last day old quota counters were removed, per database. Only an optimisation (pruning is
 * idempotent), so it may live in memory: each process prunes at most once a day.
 */
const prunedDay = new WeakMap<Store, string>();

/**
 * The name a client address is counted under for one day: a keyed hash (HMAC-SHA256 with a
 * secret kept in the database), so the stored counts cannot be turned back into addresses by
 * trying every one, and a new name each day, so days cannot be linked.
 */
export const addressPseudonym = (secret: string, day: string, address: string): string =>
  createHmac('sha256', secret).update(`${day}\n${address}`).digest('hex');

/** Seconds until the next UTC midnight, when the daily counters start again. */
export function secondsToUtcMidnight(now: Date): number {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((midnight - now.getTime()) / 1000));
}

export async function createRequest(
  store: Store,
  config: Config,
  input: NewRequestBody,
  client: { address: string; addressSecret: string; baseUrl: string },
): Promise<{ id: string; token: string; status_url: string }> {
  const { task, contact, capabilityId } = validate(input);
  if (capabilityId !== null && !(await listingExists(store.db, capabilityId))) {
    throw new AppError('validation_error', 'The request is not valid.', {
      details: [{ field: 'capability_id', message: 'must be the id of a catalog listing' }],
    });
  }
  const now = new Date();
  const day = now.toISOString().slice(0, 10);
  const token = `rq_${randomBytes(32).toString('base64url')}`;
  const id = randomUUID();
  const at = now.toISOString();
  await store.db.transaction().execute(async (trx) => {
    if (prunedDay.get(store) !== day) await pruneQuota(trx, day);
    const limits = config.limits;
    const withinClient = await takeQuota(
      trx,
      day,
      `client:${addressPseudonym(client.addressSecret, day, client.address)}`,
      limits.requestsPerClientPerDay,
    );
    const withinService = withinClient && (await takeQuota(trx, day, 'all', limits.requestsPerDay));
    if (!withinService) {
      const retryAfter = String(secondsToUtcMidnight(now));
      throw new AppError(
        'daily_limit_reached',
        withinClient
          ? 'The service has taken all the requests it can today; try again after midnight UTC.'
          : 'You have filed as many requests as allowed today; try again after midnight UTC.',
        { headers: { 'retry-after': retryAfter } },
      );
    }
    await insertRequest(trx, {
      id,
      token_hash: sha256Hex(token),
      kind: input.kind,
      task,
      contact,
      client: input.client ?? 'unspecified',
      blocker: input.blocker ?? null,
      capability_id: capabilityId,
      status: 'received',
      response: null,
      listing_change_id: null,
      created_at: at,
      updated_at: at,
    });
  });
  prunedDay.set(store, day);
  return { id, token, status_url: `${client.baseUrl}/api/requests/${id}` };
}

function credentials(
  id: string,
  authorization: string | undefined,
): { id: string; tokenHash: string } {
  const token = bearerCredential(authorization);
  // Ids are stored in lower case; a UUID is the same in capitals (RFC 9562).
  const lowered = id.toLowerCase();
  if (token === null || !RECEIPT_TOKEN_PATTERN.test(token) || !UUID_PATTERN.test(lowered))
    throw requestNotFound();
  return { id: lowered, tokenHash: sha256Hex(token) };
}

export async function readRequest(
  store: Store,
  id: string,
  authorization: string | undefined,
): Promise<StoredRequest> {
  const key = credentials(id, authorization);
  const row = await findRequest(store.db, key.id, key.tokenHash);
  if (row === undefined) throw requestNotFound();
  return requestView(row);
}

export async function deleteOwnRequest(
  store: Store,
  id: string,
  authorization: string | undefined,
): Promise<{ id: string; deleted: true }> {
  const key = credentials(id, authorization);
  if (!(await deleteRequest(store.db, key.id, key.tokenHash))) throw requestNotFound();
  return { id: key.id, deleted: true };
}

/** For operators (the command-line tool), never exposed over HTTP. */
export async function requestsForOperators(
  store: Store,
  filter: {
    status?: RequestStatus | undefined;
    kind?: StoredRequest['kind'] | undefined;
    limit: number;
  },
): Promise<StoredRequest[]> {
  return (await listRequests(store.db, filter)).map(requestView);
}

export async function requestForOperators(
  store: Store,
  id: string,
): Promise<StoredRequest | undefined> {
  const row = await findRequestById(store.db, id);
  return row === undefined ? undefined : requestView(row);
}

/** An operator's answer that cannot be recorded (the message says why). */
export class AnswerError extends Error {}

export async function answerAsOperator(
  store: Store,
  id: string,
  answer: {
    status: RequestStatus;
    response?: string | null | undefined;
    listing_change_id?: number | undefined;
  },
): Promise<StoredRequest | undefined> {
  if (answer.listing_change_id !== undefined) {
    const request = await findRequestById(store.db, id);
    if (request === undefined) return undefined;
    const change = await findListingChange(store.db, answer.listing_change_id);
    if (request.kind !== 'correction')
      throw new AnswerError('Only a correction can be linked to a listing change.');
    if (change === undefined || change.listing_id !== request.capability_id)
      throw new AnswerError(
        `No change ${answer.listing_change_id} of listing ${request.capability_id ?? '(none)'}.`,
      );
  }
  const updated = await answerRequest(store.db, id, {
    ...answer,
    updated_at: new Date().toISOString(),
  });
  return updated ? requestForOperators(store, id) : undefined;
}
