import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';

/**
 * Who a tool acts as: nobody (public), the player whose API key the MCP client holds, or the
 * holder of a request's receipt token (passed as the `receipt_token` argument).
 */
export type ToolAuth = 'none' | 'player' | 'receipt';

/**
 * One MCP tool: an operation of the HTTP API with words written for a model. Its input and
 * output schemas are taken from that operation in the OpenAPI document, so the limits and
 * field descriptions are the API's own.
 */
export interface ToolSpec {
  name: string;
  title: string;
  description: string;
  method: 'GET' | 'POST' | 'DELETE';
  /** The OpenAPI path, e.g. `/api/catalog/{id}`. */
  path: string;
  auth: ToolAuth;
  annotations: ToolAnnotations;
}

const read: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
const write = (options: { destructive: boolean; idempotent: boolean }): ToolAnnotations => ({
  readOnlyHint: false,
  destructiveHint: options.destructive,
  idempotentHint: options.idempotent,
  openWorldHint: false,
});

const SELLER_RULES =
  'The seller’s public rules: an offer at or above its current ask is accepted at your price; ' +
  'offers below 40 % of the market price are insulting (the second one ends the negotiation as rejected); ' +
  'an offer below your previous one is a retreat (the second one ends it); only raises earn a concession ' +
  '(waiting and late jumps do not pay); the ask never rises; round 9’s counter-offer is final, and the 10th offer is the last ' +
  '(accepted only at or above that counter, otherwise the negotiation expires). A negotiation that ends without a deal ' +
  'blocks reopening that product for a cool-down (409 cooling_down with Retry-After). The same offers always get the same ' +
  'answers. Every seller has a hidden floor it never goes below. Your message never changes the price.';

export const TOOLS: readonly ToolSpec[] = [
  {
    name: 'search_catalog',
    title: 'Search the capability catalog',
    description:
      'Search documented tools, agents and frameworks (name, summary, description, categories, protocols, limitations). ' +
      'Every word of `q` must match, ignoring case and accents; the last word also matches as a prefix. ' +
      'Filter by `kind`, `category` (one of list_categories; an old name such as `transcription` means its category), `protocol` ' +
      '(e.g. `mcp`, `openapi`, `python`), `status` (`active`, `maintenance`, `deprecated`, `archived`) or `license_kind` ' +
      '(`open_source`, `source_available`, `proprietary`, `unknown`). Each listing carries where its facts come from ' +
      '(`provenance`, with the SPDX licence id), its status and `successor`, how authentication works, its limitations and, for MCP ' +
      'servers, `connection` (packages to run and remote URLs, with the environment variables they need). ' +
      'For more results, call again with `cursor` set to `next_cursor` ' +
      'and the same filters. Use this before recommending a tool, and file a request when nothing fits.',
    method: 'GET',
    path: '/api/catalog',
    auth: 'none',
    annotations: read,
  },
  {
    name: 'list_categories',
    title: 'List the catalog categories',
    description:
      'The categories catalog listings are filed under, each with a one-line definition, the old names and synonyms that work as ' +
      'its `category` filter in search_catalog, and how many listings it holds.',
    method: 'GET',
    path: '/api/catalog/categories',
    auth: 'none',
    annotations: read,
  },
  {
    name: 'get_listing',
    title: 'Read one catalog listing',
    description:
      'Read one listing of the catalog by its id (a readable slug such as `langchain`, as returned by search_catalog).',
    method: 'GET',
    path: '/api/catalog/{id}',
    auth: 'none',
    annotations: read,
  },
  {
    name: 'file_request',
    title: 'File a request for a capability, a correction or a pilot',
    description:
      'Ask the operators for a capability the catalog lacks (`kind: capability`), a correction to a listing (`kind: correction` with its ' +
      '`capability_id`) or a pilot. Returns a receipt whose `token` is shown only this once: keep it, it is the only way to read or ' +
      'delete the request later (read_request, delete_request). Never put credentials or confidential data in the text; text that ' +
      'looks like a key or token is refused (`contains_secret`). Daily limits apply (`daily_limit_reached`, retry after midnight UTC).',
    method: 'POST',
    path: '/api/requests',
    auth: 'none',
    annotations: write({ destructive: false, idempotent: false }),
  },
  {
    name: 'read_request',
    title: 'Read a filed request and its answer',
    description:
      'Read a request you filed, with its status (`received`, then `reviewing`, `planned`, `completed` or `declined`) and the ' +
      'operators’ `response`. Needs the request id and the receipt token from file_request. A wrong token and an unknown id both answer `not_found`.',
    method: 'GET',
    path: '/api/requests/{id}',
    auth: 'receipt',
    annotations: read,
  },
  {
    name: 'delete_request',
    title: 'Delete a filed request for good',
    description:
      'Delete a request you filed; it is removed, not hidden, and cannot be read again. Needs the request id and the receipt token.',
    method: 'DELETE',
    path: '/api/requests/{id}',
    auth: 'receipt',
    annotations: write({ destructive: true, idempotent: true }),
  },
  {
    name: 'register',
    title: 'Register as a player of the negotiation game',
    description:
      'Create a player with a username and e-mail: you get 100 credits (never refilled) and an `api_key` shown only in this answer. ' +
      'Keep the key: every other game tool needs it (send it as `Authorization: Bearer <api_key>` to this MCP endpoint, or set ' +
      'BAZAAR_API_KEY for the local server). Registering an existing username or e-mail returns that player without a key.',
    method: 'POST',
    path: '/api/players',
    auth: 'none',
    annotations: write({ destructive: false, idempotent: true }),
  },
  {
    name: 'list_products',
    title: 'List the products you can buy',
    description:
      'The products the seller offers, with market price and stock. Filter by `category`, `in_stock` or `search`. ' +
      'Your score is market value bought per credit spent, so look for products whose market price you can beat.',
    method: 'GET',
    path: '/api/products',
    auth: 'none',
    annotations: read,
  },
  {
    name: 'get_product',
    title: 'Read one product',
    description: 'Read one product by id: name, description, market price, category and stock.',
    method: 'GET',
    path: '/api/products/{id}',
    auth: 'player',
    annotations: read,
  },
  {
    name: 'start_negotiation',
    title: 'Open a negotiation for a product',
    description:
      'Open a negotiation with the seller for a product (pass your own player id). The greeting states the market price and the ' +
      'seller’s opening ask. If you already have an active negotiation for that product, it is returned instead of a new one. ' +
      'Then use make_offer. ' +
      SELLER_RULES,
    method: 'POST',
    path: '/api/haggle/start',
    auth: 'player',
    annotations: write({ destructive: false, idempotent: true }),
  },
  {
    name: 'make_offer',
    title: 'Make an offer in a negotiation',
    description:
      'Offer a price (credits, at most 2 decimals, not more than you have). The seller accepts (the deal is made at your offer and ' +
      'the credits are spent), counters with a new ask, or rejects. Each offer uses one of 10 rounds; a failed call uses none. ' +
      SELLER_RULES,
    method: 'POST',
    path: '/api/haggle/offer',
    auth: 'player',
    annotations: write({ destructive: true, idempotent: false }),
  },
  {
    name: 'accept_counter_offer',
    title: 'Accept the seller’s latest counter-offer',
    description:
      'Buy at the seller’s latest counter-offer (`ai_counter_offer` of the session): credits are spent, one unit of stock is taken ' +
      'and the deal is recorded. Fails with `no_counter_offer` before the first counter.',
    method: 'POST',
    path: '/api/haggle/accept',
    auth: 'player',
    annotations: write({ destructive: true, idempotent: false }),
  },
  {
    name: 'abandon_negotiation',
    title: 'Walk away from a negotiation',
    description:
      'End an active negotiation without buying. No credits are lost, but the negotiation cannot be resumed; start a new one to try again.',
    method: 'POST',
    path: '/api/haggle/abandon',
    auth: 'player',
    annotations: write({ destructive: true, idempotent: false }),
  },
  {
    name: 'get_negotiation',
    title: 'Read a negotiation with its messages',
    description:
      'Read one of your negotiations: its status, your latest offer, the seller’s latest counter-offer, rounds used and every message.',
    method: 'GET',
    path: '/api/haggle/{sessionId}',
    auth: 'player',
    annotations: read,
  },
  {
    name: 'list_my_negotiations',
    title: 'List your negotiations',
    description:
      'Your own negotiations, newest first, each with its status, latest offer and counter-offer, rounds used and the ' +
      'product’s name. Use `status: active` to find negotiations to continue without keeping their ids; pass ' +
      '`next_cursor` as `cursor` (with the same status) for more.',
    method: 'GET',
    path: '/api/haggle',
    auth: 'player',
    annotations: read,
  },
  {
    name: 'get_player_stats',
    title: 'Read a player’s statistics and rank',
    description:
      'Credits, totals, score (market value bought / credits spent), rank, savings, negotiation counts and best discount of a ' +
      'player. Pass your own player id (from register) to see where you stand.',
    method: 'GET',
    path: '/api/players/{id}/stats',
    auth: 'player',
    annotations: read,
  },
  {
    name: 'get_leaderboard',
    title: 'Read the leaderboard',
    description:
      'Players who have bought something, ranked by score (market value bought per credit spent), then market value, then who bought first.',
    method: 'GET',
    path: '/api/leaderboard',
    auth: 'none',
    annotations: read,
  },
  {
    name: 'list_transactions',
    title: 'List completed deals',
    description:
      'Completed deals, newest first. Pass your own player id as `player_id` to see only yours.',
    method: 'GET',
    path: '/api/transactions',
    auth: 'player',
    annotations: read,
  },
];
