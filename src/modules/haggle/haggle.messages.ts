import { randomUUID } from 'node:crypto';
import { formatCredits } from '../../seller/index.js';
import type { MessageRow } from './haggle.tables.js';

/** The player's side of the conversation; the seller's wording lives in `src/seller/messages.ts`. */
export const playerWords = {
  offer: (offerCents: number, text: string | undefined): string => {
    const own = text?.trim();
    return own === undefined || own === '' ? `I offer ${formatCredits(offerCents)}.` : own;
  },
  accept: (priceCents: number): string => `I accept your offer of ${formatCredits(priceCents)}.`,
  walkAway: 'I am walking away from this negotiation.',
};

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
