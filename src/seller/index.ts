/**
 * The automated seller: pure, deterministic decisions and words. No I/O, no clock, no random
 * numbers — its temperament toward a buyer comes from a keyed hash of the player, the product
 * and the server secret, and its choice of words from the session id.
 */
export { formatCredits } from './money.js';
export { playerWords } from './player-words.js';
export {
  FINAL_COUNTER_ROUND,
  lastCounter,
  MAX_ROUNDS,
  movingStepCents,
  STRIKES,
  type Objection,
  type PastRound,
  type SellerContext,
  type SellerDecision,
  type SellerReply,
} from './rules.js';
export { Negotiation, openingMessage, respondToOffer } from './negotiation.js';
export { topicOf, type Topic } from './topics.js';
export {
  CATEGORIES,
  FAIR_LINE_PERCENT,
  INSULT_LINE_PERCENT,
  sellerTerms,
  type Category,
  type ProductFacts,
  type SellerTerms,
} from './terms.js';
