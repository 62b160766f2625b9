import { Type, type Static } from 'typebox';
import {
  CONTACT_MAX_CHARACTERS,
  TASK_MAX_CHARACTERS,
  TASK_MIN_CHARACTERS,
} from './requests.limits.js';
import { Timestamp, Uuid } from '../../http/schemas.js';
import { REQUEST_STATUSES, type CapabilityRequestsTable } from './requests.tables.js';

const literals = <const T extends string[]>(values: readonly [...T], description: string) =>
  Type.Enum(values, { description });

export const RequestKind = literals(
  ['capability', 'correction', 'pilot'] as const,
  'What you are asking for.',
);
export const Client = literals(
  ['unspecified', 'instinct', 'muse', 'other'] as const,
  'The client application you file from, for the operators’ statistics: `instinct` or `muse` if you use one of those ' +
    'clients, `other` for any other client (your own agent or script included), `unspecified` (the default) if you ' +
    'would rather not say. It does not change how the request is handled.',
);
export const Blocker = literals(
  ['missing_capability', 'authentication', 'cost', 'compatibility', 'quality'],
  'What stops you today.',
);
export const RequestStatus = literals(
  REQUEST_STATUSES,
  '`received` on creation; operators move it to `reviewing`, `planned`, `completed` or `declined`.',
);

/** Lengths are checked after trimming, in characters, by the service. */
export const NewRequestBody = Type.Object({
  task: Type.String({
    minLength: TASK_MIN_CHARACTERS,
    maxLength: TASK_MAX_CHARACTERS,
    description:
      `What you need: at most ${TASK_MAX_CHARACTERS} characters (characters, not bytes), and at least ${TASK_MIN_CHARACTERS} once spaces and zero-width characters at either end are trimmed. ` +
      'No credentials or confidential data.',
    example: 'An MCP server that exposes our PostgreSQL read replicas to agents.',
  }),
  kind: RequestKind,
  contact: Type.Optional(
    Type.String({
      maxLength: CONTACT_MAX_CHARACTERS,
      description: `How to reach you (an e-mail address, say), at most ${CONTACT_MAX_CHARACTERS} characters; empty means none.`,
    }),
  ),
  client: Type.Optional(Client),
  blocker: Type.Optional(Blocker),
  capability_id: Type.Optional(
    Type.String({ maxLength: 200, description: 'The id of the catalog listing this is about.' }),
  ),
});
export type NewRequestBody = Static<typeof NewRequestBody>;

export const Receipt = Type.Object({
  id: Uuid(),
  token: Type.String({
    description:
      'Your private receipt token (`rq_` + 43 characters). Shown only now; send it as a bearer token.',
    example: 'rq_3q2-7wEvhNuw0Zb6lF3kqJ9dX0aV5c8yTtR1mPpL2sA',
  }),
  status_url: Type.String({
    format: 'uri',
    description: 'Where to read the request with the token.',
  }),
});

export const StoredRequest = Type.Object({
  id: Uuid(),
  kind: RequestKind,
  task: Type.String(),
  contact: Type.Union([Type.String(), Type.Null()]),
  client: Client,
  blocker: Type.Union([Blocker, Type.Null()]),
  capability_id: Type.Union([Type.String(), Type.Null()]),
  status: RequestStatus,
  response: Type.Union([Type.String(), Type.Null()], {
    description: "The operators' answer, once there is one.",
  }),
  listing_change_id: Type.Union([Type.Integer(), Type.Null()], {
    description:
      'For a correction: the listing change it led to, one of the `history` ids of `GET /api/catalog/{capability_id}`.',
  }),
  created_at: Timestamp(),
  updated_at: Timestamp(),
});
export type StoredRequest = Static<typeof StoredRequest>;

export const RequestParams = Type.Object({
  // As long as the router takes (longer is 414): any other id is as unknown as a wrong one.
  id: Type.String({ maxLength: 500, description: 'The request id from the receipt.' }),
});

export const Deleted = Type.Object({ id: Uuid(), deleted: Type.Literal(true) });

export function requestView(row: CapabilityRequestsTable): StoredRequest {
  const { token_hash: _hash, ...visible } = row;
  return visible;
}
