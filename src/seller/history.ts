import type { PastRound } from './rules.js';

/** One stored message as far as the seller's memory goes: who spoke, in which round, at what price, in what words. */
export interface RecordedMessage {
  sender: 'seller' | 'player';
  round: number;
  offer_cents: number | null;
  message: string;
}

/**
 * The rounds played so far, rebuilt from the stored messages in order: each offer and the
 * counter to it. The greeting (round 0) and notes without a price are not rounds.
 */
export function pastRounds(messages: readonly RecordedMessage[]): PastRound[] {
  const rounds: PastRound[] = [];
  for (const row of messages) {
    if (row.round === 0 || row.offer_cents === null) continue;
    const index = row.round - 1;
    const round = rounds[index];
    if (row.sender === 'player' && round === undefined) {
      rounds[index] = {
        offerCents: row.offer_cents,
        counterCents: null,
        playerMessage: row.message,
      };
    } else if (row.sender === 'seller' && round !== undefined) {
      rounds[index] = { ...round, counterCents: row.offer_cents };
    }
  }
  return rounds;
}
