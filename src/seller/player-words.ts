import { formatCredits } from './money.js';

/**
 * The player's side of the conversation, when the game speaks for the player. Kept next to the
 * seller's wording (`messages.ts`) so that all of the game's words are in one folder.
 */
export const playerWords = {
  offer: (offerCents: number, text: string | undefined): string => {
    const own = text?.trim();
    return own === undefined || own === '' ? `I offer ${formatCredits(offerCents)}.` : own;
  },
  accept: (priceCents: number): string => `I accept your offer of ${formatCredits(priceCents)}.`,
  walkAway: 'I am walking away from this negotiation.',
};
