/**
 * The automated seller: pure, deterministic decisions and words. No I/O, no clock, no random
 * numbers — its temperament toward a buyer comes from a keyed hash of the player, the product
 * and the server secret, and its choice of words from the session id.
 */
export { formatCredits } from './money.js';
export { playerWords } from './player-words.js';
export * from './rules.js';
export { Negotiation, openingMessage, respondToOffer } from './negotiation.js';
export { topicOf, type Topic } from './topics.js';
export {
  CATEGORIES,
  demandLevel,
  demandPercent,
  hourAt,
  hourOf,
  sellerTerms,
  type BuyerFacts,
  type Category,
  type DemandLevel,
  type ProductFacts,
  type SalesRecord,
  type SellerTerms,
} from './terms.js';
