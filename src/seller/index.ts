/**
 * The automated seller: pure, deterministic decisions and words. No I/O, no clock, no random
 * numbers — variety comes from hashing the session id, so a replay gives identical answers.
 */
export { formatCredits } from './money.js';
export { greetingMessage as openingMessage } from './messages.js';
export {
  lastCounter,
  MAX_ROUNDS,
  respondToOffer,
  type PastRound,
  type SellerContext,
  type SellerReply,
} from './negotiation.js';
export {
  CATEGORIES,
  INSULT_LINE_PERCENT,
  sellerTerms,
  type Category,
  type ProductFacts,
  type SellerTerms,
} from './terms.js';
