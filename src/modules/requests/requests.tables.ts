/** Where a request stands; the one list the schema, the table and the operator script use. */
export const REQUEST_STATUSES = [
  'received',
  'reviewing',
  'planned',
  'completed',
  'declined',
] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

export interface CapabilityRequestsTable {
  id: string;
  /** SHA-256 of the receipt token; the token itself is never stored. */
  token_hash: string;
  kind: 'capability' | 'correction' | 'pilot';
  task: string;
  contact: string | null;
  client: 'unspecified' | 'instinct' | 'muse' | 'other';
  blocker: 'missing_capability' | 'authentication' | 'cost' | 'compatibility' | 'quality' | null;
  capability_id: string | null;
  status: RequestStatus;
  response: string | null;
  /** For a correction: the catalog change it led to (catalog_changes.id). */
  listing_change_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface RequestQuotaTable {
  day: string;
  scope: string;
  used: number;
}
