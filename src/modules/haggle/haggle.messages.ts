import { randomUUID } from 'node:crypto';
import type { MessageRow } from './haggle.tables.js';

/** A stored message row; the words themselves come from `src/seller/`. */
export function newMessage(fields: {
  sessionId: string;
  position: number;
  sender: MessageRow['sender'];
  text: string;
  offerCents: number | null;
  round: number;
  at: string;
}): MessageRow {
  return {
    id: randomUUID(),
    session_id: fields.sessionId,
    position: fields.position,
    sender: fields.sender,
    message: fields.text,
    offer_cents: fields.offerCents,
    round: fields.round,
    created_at: fields.at,
  };
}
