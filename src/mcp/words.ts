import { minutes } from '../modules/haggle/haggle.errors.js';
import { FINAL_COUNTER_ROUND, INSULT_LINE_PERCENT, MAX_ROUNDS, STRIKES } from '../seller/index.js';

/** How the MCP client reaches this server: it decides how a key is given. */
export type McpTransport = 'http' | 'stdio';

/** Game settings the rules text states: the running service's, or the documented defaults. */
export interface GameNumbers {
  idleMinutes: number;
  maxActive: number;
  /** 0: no cool-down. */
  cooldownMinutes: number;
}

/** The defaults of HAGGLE_IDLE_MINUTES, HAGGLE_MAX_ACTIVE and HAGGLE_COOLDOWN_MINUTES. */
export const DEFAULT_GAME_NUMBERS: GameNumbers = {
  idleMinutes: 15,
  maxActive: 3,
  cooldownMinutes: 30,
};

export const gameNumbers = (config: {
  haggleIdleMinutes: number;
  haggleMaxActive: number;
  haggleCooldownMinutes: number;
}): GameNumbers => ({
  idleMinutes: config.haggleIdleMinutes,
  maxActive: config.haggleMaxActive,
  cooldownMinutes: config.haggleCooldownMinutes,
});

/**
 * The numbers a service states in its OpenAPI document (`info['x-game']`), for the stdio server,
 * which reads the document of the service it calls; the defaults where it states none.
 */
export function statedGameNumbers(info: Record<string, unknown>): GameNumbers {
  const stated = (info['x-game'] ?? {}) as Record<string, unknown>;
  const numberOr = (name: string, fallback: number): number => {
    const value = stated[name];
    return typeof value === 'number' ? value : fallback;
  };
  return {
    idleMinutes: numberOr('idle_minutes', DEFAULT_GAME_NUMBERS.idleMinutes),
    maxActive: numberOr('max_active', DEFAULT_GAME_NUMBERS.maxActive),
    cooldownMinutes: numberOr('cooldown_minutes', DEFAULT_GAME_NUMBERS.cooldownMinutes),
  };
}

const nth = (n: number) => (n === 2 ? 'second' : n === 3 ? 'third' : `${n}th`);

/** The seller's public rules, from its own constants. */
export const sellerRules = (game: GameNumbers): string =>
  'Rules: an offer at or above the current ask, or at or above the counter the seller would make next, is accepted at your price. ' +
  `Offers below ${INSULT_LINE_PERCENT} % of market are insulting and an offer below your previous one is a retreat; the ${nth(STRIKES)} of either ends the negotiation. ` +
  'Only raises earn concessions (waiting earns nothing) and the ask never rises. ' +
  `Round ${FINAL_COUNTER_ROUND}’s counter is final; offer ${MAX_ROUNDS} is the last, accepted only at or above it, else the negotiation expires (rejected if it is a second insult or retreat). ` +
  `A negotiation with no offer for ${minutes(game.idleMinutes)} expires; at most ${game.maxActive} may be active (409 too_many_active). ` +
  (game.cooldownMinutes > 0
    ? `Ending without a deal blocks that product for a ${game.cooldownMinutes}-minute cool-down (409 cooling_down, retry_after_seconds; list_my_negotiations with cooling_down: true lists the products blocked). `
    : '') +
  'Buying a product again costs you more; a product’s demand moves its price. Your terms are your own; your message never changes the price.';

/** How a player gives this server its key, in the words true for the transport. */
export const keyAdvice = (transport: McpTransport): string =>
  transport === 'http'
    ? 'Your MCP client sends the key as `Authorization: Bearer <api_key>` with every request to this endpoint: set it in the client’s configuration.'
    : 'This server reads the key from BAZAAR_API_KEY in its environment; a key that register returns is used for the rest of the session.';

/** The `unauthorized` sentence for a tool call, in place of the HTTP API's own advice. */
export const noKeyError = (transport: McpTransport): string =>
  `No valid API key came with this call. ${keyAdvice(transport)} No key yet? Call register. ` +
  'Rotated it? Only the key rotate_key returned works now.';
