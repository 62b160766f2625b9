import { MAX_ROUNDS } from '../seller/index.js';
import { read, write, type ToolSpec } from './tool-spec.js';
import { keyAdvice, sellerRules, type GameNumbers, type McpTransport } from './words.js';

export function toolSpecs(transport: McpTransport, game: GameNumbers): ToolSpec[] {
  return [
    {
      name: 'search_catalog',
      title: 'Search the capability catalog',
      description:
        '`q` may be a need in plain words ("transcribe recordings offline") or keywords: ranked by relevance, not every word has to match, ' +
        'and each hit says in `matched` what it matched. A word in no listing may be corrected (`corrected_query`); when few fit, the answer ' +
        'names `related_categories` and a ready `capability_request`. ' +
        'Filter by `kind`, `category` (see list_categories; an old name such as `transcription` means its category), `protocol` ' +
        '(e.g. `mcp`, `python`), `status` or `license_kind`. Answers summaries; get_listing gives the full record ' +
        '(provenance, authentication, limitations). More: pass `next_cursor` as `cursor` with the same filters. Nothing fits? file_request.',
      method: 'GET',
      path: '/api/catalog',
      auth: 'none',
      annotations: read,
      defaults: { limit: 10 },
      view: {
        itemFields: ['id', 'name', 'kind', 'summary', 'categories', 'status', 'matched'],
        omit: ['facets'],
      },
    },
    {
      name: 'list_categories',
      title: 'List the catalog categories',
      description:
        'The categories listings are filed under, each with a one-line definition, the old names that still work as its ' +
        '`category` filter, and how many listings it holds.',
      method: 'GET',
      path: '/api/catalog/categories',
      auth: 'none',
      annotations: read,
    },
    {
      name: 'get_listing',
      title: 'Read one catalog listing',
      description:
        'One listing in full by its id (a slug such as `langchain`, from search_catalog): provenance, authentication, limitations, history.',
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
        '`capability_id`) or a pilot. The receipt `token` is shown only now: keep it to read or delete the request (read_request, delete_request). ' +
        'Never put credentials or confidential data in it (`contains_secret`). Daily limits apply (`daily_limit_reached`).',
      method: 'POST',
      path: '/api/requests',
      auth: 'none',
      annotations: write({ destructive: false, idempotent: false }),
    },
    {
      name: 'read_request',
      title: 'Read a filed request and its answer',
      description:
        'A request you filed, with its status (`received`, `reviewing`, `planned`, `completed`, `declined`) and the operators’ `response`. ' +
        'A wrong token and an unknown id both answer `not_found`.',
      method: 'GET',
      path: '/api/requests/{id}',
      auth: 'receipt',
      annotations: read,
    },
    {
      name: 'delete_request',
      title: 'Delete a filed request for good',
      description:
        'Delete a request you filed; it is removed, not hidden. Needs the request id and its receipt token.',
      method: 'DELETE',
      path: '/api/requests/{id}',
      auth: 'receipt',
      annotations: write({ destructive: true, idempotent: true }),
    },
    {
      name: 'register',
      title: 'Register as a player of the negotiation game',
      description:
        'Create a player: 100 credits (never refilled) and an `api_key` shown only in this answer. ' +
        `${keyAdvice(transport)} An existing username or e-mail returns that player without a key.`,
      method: 'POST',
      path: '/api/players',
      auth: 'none',
      annotations: write({ destructive: false, idempotent: true }),
    },
    {
      name: 'get_me',
      title: 'Read your own player record',
      description:
        'The player your API key names: id, username, e-mail, credits and totals. Tools that take `player_id` default to it.',
      method: 'GET',
      path: '/api/players/me',
      auth: 'player',
      annotations: read,
    },
    {
      name: 'rotate_key',
      title: 'Replace your API key',
      description:
        'Issue a new API key (shown only in this answer); the old one stops working at once. Use it when the key may have leaked. ' +
        (transport === 'http'
          ? 'Your MCP client keeps sending the old key: it must be configured with the new one before the next game call.'
          : 'This session switches to the new key; put it in BAZAAR_API_KEY, or the next start has no valid key.'),
      method: 'POST',
      path: '/api/players/{id}/rotate-key',
      auth: 'player',
      annotations: write({ destructive: true, idempotent: false }),
      rename: { id: 'player_id' },
      caller: 'player_id',
    },
    {
      name: 'list_products',
      title: 'List the products you can buy',
      description:
        'Products with market price and stock, by category and name, 20 a page (`limit` up to 100; pass `next_cursor` as `cursor` for more). ' +
        'Filter by `category`, `in_stock` or `search`; get_product has the description. Score = market value bought per credit spent.',
      method: 'GET',
      path: '/api/products',
      auth: 'none',
      annotations: read,
      defaults: { limit: 20 },
      view: {
        itemFields: ['id', 'name', 'category', 'market_price', 'stock_quantity', 'demand'],
      },
    },
    {
      name: 'get_product',
      title: 'Read one product',
      description: 'One product by id: name, description, market price, category and stock.',
      method: 'GET',
      path: '/api/products/{id}',
      auth: 'player',
      annotations: read,
    },
    {
      name: 'get_inventory',
      title: 'Count products and stock',
      description:
        'How many products and units are in stock, in total and per category (`category` narrows it); list_products lists them.',
      method: 'GET',
      path: '/api/inventory',
      auth: 'player',
      annotations: read,
      view: { omit: ['products'] },
    },
    {
      name: 'start_negotiation',
      title: 'Open a negotiation for a product',
      description:
        'Open a negotiation for a product; the greeting states the market price and the opening ask. An active negotiation for it ' +
        `is returned as it stands (\`resumed: true\`). Then make_offer. ${sellerRules(game)}`,
      method: 'POST',
      path: '/api/haggle/start',
      auth: 'player',
      annotations: write({ destructive: false, idempotent: true }),
      caller: 'player_id',
    },
    {
      name: 'make_offer',
      title: 'Make an offer in a negotiation',
      description:
        'Offer a price (credits, at most 2 decimals, not more than you have). The seller accepts (the deal is made at your offer), ' +
        `counters with a new ask, or rejects. Each offer uses one of ${MAX_ROUNDS} rounds; a failed call uses none. ` +
        'The rules are in start_negotiation’s description.',
      method: 'POST',
      path: '/api/haggle/offer',
      auth: 'player',
      annotations: write({ destructive: true, idempotent: false }),
      view: { omit: ['product'] },
    },
    {
      name: 'accept_counter_offer',
      title: 'Accept the seller’s latest counter-offer',
      description:
        'Buy at the seller’s latest counter-offer (`ai_counter_offer`): credits are spent, one unit of stock is taken and the deal ' +
        'recorded. `no_counter_offer` before the first counter.',
      method: 'POST',
      path: '/api/haggle/accept',
      auth: 'player',
      annotations: write({ destructive: true, idempotent: false }),
    },
    {
      name: 'abandon_negotiation',
      title: 'Walk away from a negotiation',
      description:
        'End an active negotiation without buying. No credits are lost, but it cannot be resumed' +
        (game.cooldownMinutes > 0
          ? ', and that product is blocked for a cool-down (start answers 409 cooling_down with retry_after_seconds).'
          : '.'),
      method: 'POST',
      path: '/api/haggle/abandon',
      auth: 'player',
      annotations: write({ destructive: true, idempotent: false }),
    },
    {
      name: 'get_negotiation',
      title: 'Read a negotiation with its messages',
      description:
        'One of your negotiations: status, your latest offer, the seller’s latest counter-offer, rounds used and every message.',
      method: 'GET',
      path: '/api/haggle/{sessionId}',
      auth: 'player',
      annotations: read,
      rename: { sessionId: 'session_id' },
    },
    {
      name: 'list_my_negotiations',
      title: 'List your negotiations',
      description:
        'Your negotiations, newest first, with status, latest offer and counter, rounds used and product name. `status: active` ' +
        'finds those to continue, `cooling_down: true` the products you cannot reopen yet (each until its `cooldown_until`); ' +
        'pass `next_cursor` as `cursor` (same filters) for more.',
      method: 'GET',
      path: '/api/haggle',
      auth: 'player',
      annotations: read,
    },
    {
      name: 'get_player_stats',
      title: 'Read a player’s statistics and rank',
      description:
        'Credits, totals, score (market value bought / credits spent), rank, savings, negotiation counts and best discount: yours by default.',
      method: 'GET',
      path: '/api/players/{id}/stats',
      auth: 'player',
      annotations: read,
      rename: { id: 'player_id' },
      caller: 'player_id',
    },
    {
      name: 'get_leaderboard',
      title: 'Read the leaderboard',
      description:
        'Players who have bought something, by score (market value bought per credit spent), then market value, then who bought first.',
      method: 'GET',
      path: '/api/leaderboard',
      auth: 'none',
      annotations: read,
    },
    {
      name: 'list_transactions',
      title: 'List completed deals',
      description:
        'Completed deals of one player (yours by default), newest first, 20 a page; pass `next_cursor` as `cursor` for more.',
      method: 'GET',
      path: '/api/transactions',
      auth: 'player',
      annotations: read,
      caller: 'player_id',
      defaults: { limit: 20 },
      view: {
        itemFields: [
          'id',
          'product_id',
          'session_id',
          'name',
          'category',
          'market_price',
          'final_price',
          'savings',
          'created_at',
        ],
      },
    },
  ];
}
