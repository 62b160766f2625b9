import type { FastifyRequest } from 'fastify';
import { publicBaseUrl } from '../../http/base-url.js';
import { Envelope, errorResponses } from '../../http/schemas.js';
import {
  FAIR_LINE_PERCENT,
  FINAL_COUNTER_ROUND,
  INSULT_LINE_PERCENT,
  MAX_ROUNDS,
  MOVING_STEP_PER_MILLE,
  STRIKES,
} from '../../seller/index.js';
import { authenticatedRoutes } from '../players/players.auth.js';
import {
  AcceptResult,
  OfferBody,
  OfferResult,
  SessionBody,
  SessionDetail,
  SessionListQuery,
  SessionPage,
  SessionOnly,
  SessionParams,
  StartBody,
  StartedSession,
} from './haggle.schemas.js';
import type { HaggleDeps } from './haggle.context.js';
import { minutes } from './haggle.errors.js';
import {
  abandonAnswer,
  acceptAnswer,
  listAnswer,
  offerAnswer,
  readAnswer,
  startAnswer,
} from './haggle.service.js';

export const haggleRoutes = authenticatedRoutes(async (app, { store, config, sellerSecret }) => {
  const deps: HaggleDeps = {
    store,
    sellerSecret,
    cooldownMinutes: config.haggleCooldownMinutes,
    idleMinutes: config.haggleIdleMinutes,
    maxActive: config.haggleMaxActive,
  };
  const { idleMinutes, maxActive } = deps;
  const step = `${MOVING_STEP_PER_MILLE / 10} %`;
  const baseUrl = (request: FastifyRequest) => publicBaseUrl(request, config);
  const callerOf = (request: FastifyRequest) => ({
    playerId: request.playerId,
    keyHash: request.apiKeyHash,
  });
  const tags = ['haggle'];

  app.post(
    '/api/haggle/start',
    {
      schema: {
        tags,
        operationId: 'startNegotiation',
        summary: 'Open a negotiation for a product',
        description:
          'Checks, in order: the product exists (404), you have credits (402), it is in stock (409 `out_of_stock`). ' +
          'If you already have an active negotiation for this product, it is returned as it stands with 200 and ' +
          '`resumed: true` (its round, `current_ask` and the seller’s latest words), never a second greeting. ' +
          (config.haggleCooldownMinutes > 0
            ? 'After a negotiation for this product ended without a deal (abandoned, expired or rejected) you may not open ' +
              `another for it during a cool-down (${minutes(config.haggleCooldownMinutes)}): 409 \`cooling_down\`, ` +
              'with the time you may retry in the error and `Retry-After` in seconds (`GET /api/haggle?cooling_down=true` ' +
              'lists the products blocked, each until its `cooldown_until`). '
            : '') +
          `You may hold at most ${maxActive} active negotiations at once: 409 \`too_many_active\` beyond that. ` +
          `A negotiation with no offer for ${minutes(idleMinutes)} expires (its counter-offer no longer stands` +
          (config.haggleCooldownMinutes > 0 ? ', and the cool-down applies). ' : '). ') +
          'Your floor is your own: the seller draws its terms for each player and product, ' +
          'raises them for each earlier purchase of the product by you, and moves them with the product’s `demand`.',
        body: StartBody,
        response: {
          201: Envelope(StartedSession, 'A new negotiation, with the seller’s greeting.'),
          200: Envelope(StartedSession, 'Your active negotiation for this product, as it was.'),
          ...errorResponses(
            'validation_error',
            'invalid_json',
            'unauthorized',
            'insufficient_credits',
            'forbidden',
            'not_found',
            'out_of_stock',
            'cooling_down',
            'too_many_active',
            'rate_limited',
          ),
        },
      },
    },
    async (request, reply) => {
      const base = baseUrl(request);
      const { created, data } = await startAnswer(deps, callerOf(request), request.body, base);
      if (!created) return reply.send({ success: true, data });
      return reply
        .code(201)
        .header('location', `${base}/api/haggle/${data.id}`)
        .send({ success: true, data });
    },
  );

  app.post(
    '/api/haggle/offer',
    {
      schema: {
        tags,
        operationId: 'makeOffer',
        summary: 'Make an offer',
        description:
          'The seller accepts (the deal is made at your offer), counters, or rejects, by published rules. ' +
          'It accepts an offer at or above its ask, and also one at or above the counter-offer it would make next ' +
          `(less ${step} of the market price, never below its floor): there is no gain in offering exactly its next counter. ` +
          `Offers below ${INSULT_LINE_PERCENT} % of the market price are insulting: the first is a warning, the ` +
          `${STRIKES}nd ends the negotiation (\`rejected\`). An offer below your previous one is a retreat: the first keeps ` +
          `the ask, the ${STRIKES}nd ends it. Only raises earn a concession: an offer that does not beat your best by ` +
          `${step} of the market price (unless it is at or above ${FAIR_LINE_PERCENT} % of it) is a stall, and the ask — ` +
          `and what the seller accepts — stay where they were. Round ${FINAL_COUNTER_ROUND}’s counter is final; the ` +
          `${MAX_ROUNDS}th offer is the last, accepted only at or above that final counter, else the negotiation ` +
          'expires (or is `rejected`, when that offer is a 2nd insult or retreat). `seller_response` says so ' +
          'in fields: `objection` (none, insult, retreat, stall), `strikes_left` ' +
          '(insults or retreats the seller still takes; 0 = ended) and `final`. Your `message` is stored and answered ' +
          'but never changes a price. A failed request changes nothing and uses no round. ' +
          'Send `round` (the session’s `rounds_count` + 1) to make a retry safe: the same offer for the round last played ' +
          'is answered again, as it was, and changes nothing. ' +
          `A negotiation with no offer for ${minutes(idleMinutes)} has expired: 409 \`session_not_active\`.`,
        body: OfferBody,
        response: {
          200: Envelope(
            OfferResult,
            'The seller’s answer, the negotiation after it and the product.',
          ),
          ...errorResponses(
            'validation_error',
            'invalid_amount',
            'invalid_json',
            'unauthorized',
            'insufficient_credits',
            'not_found',
            'session_not_active',
            'out_of_stock',
            'rate_limited',
          ),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: await offerAnswer(deps, callerOf(request), request.body, baseUrl(request)),
    }),
  );

  app.post(
    '/api/haggle/accept',
    {
      schema: {
        tags,
        operationId: 'acceptCounterOffer',
        summary: "Accept the seller's counter-offer",
        description:
          'Buys at the seller’s latest counter-offer: credits are paid, one unit of stock is taken and a transaction recorded, all at once or not at all. Before the first counter-offer: 409 `no_counter_offer`. ' +
          `A counter-offer stands only while the negotiation is active: after ${minutes(idleMinutes)} without an offer it has expired (409 \`session_not_active\`).`,
        body: SessionBody,
        response: {
          200: Envelope(
            AcceptResult,
            'The deal: the closed negotiation, its transaction, your credits and savings.',
          ),
          ...errorResponses(
            'validation_error',
            'invalid_json',
            'unauthorized',
            'insufficient_credits',
            'not_found',
            'session_not_active',
            'no_counter_offer',
            'out_of_stock',
            'rate_limited',
          ),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: await acceptAnswer(deps, callerOf(request), request.body.session_id, baseUrl(request)),
    }),
  );

  app.post(
    '/api/haggle/abandon',
    {
      schema: {
        tags,
        operationId: 'abandonNegotiation',
        summary: 'Walk away from a negotiation',
        description:
          'Ends an active negotiation without buying; no credits are lost. A finished negotiation answers 409 `session_not_active`.',
        body: SessionBody,
        response: {
          200: Envelope(SessionOnly, 'The negotiation, now abandoned.'),
          ...errorResponses(
            'validation_error',
            'invalid_json',
            'unauthorized',
            'not_found',
            'session_not_active',
            'rate_limited',
          ),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: await abandonAnswer(deps, callerOf(request), request.body.session_id),
    }),
  );

  app.get(
    '/api/haggle',
    {
      schema: {
        tags,
        operationId: 'listMyNegotiations',
        summary: 'List your negotiations',
        description:
          'Your own negotiations, newest first, to pick work up again without keeping ids. Filter by `status` ' +
          '(e.g. `active`), or with `cooling_down=true` to the products you cannot start a negotiation for yet; pages ' +
          'of `limit` (default 20, at most 100): pass `next_cursor` as `cursor`, with the same filters, for the next ' +
          'page. Never shows anyone else’s negotiations.',
        querystring: SessionListQuery,
        response: {
          200: Envelope(SessionPage, 'A page of your negotiations, newest first.'),
          ...errorResponses('validation_error', 'unauthorized', 'rate_limited'),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: await listAnswer(deps, request.playerId, request.query),
    }),
  );

  app.get(
    '/api/haggle/:sessionId',
    {
      schema: {
        tags,
        operationId: 'getNegotiation',
        summary: 'Read a negotiation with its messages',
        description: 'Your own sessions only; anyone else’s answers 404.',
        params: SessionParams,
        response: {
          200: Envelope(SessionDetail, 'The negotiation, its product and every message in order.'),
          ...errorResponses('validation_error', 'unauthorized', 'not_found', 'rate_limited'),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: await readAnswer(deps, request.playerId, request.params.sessionId, baseUrl(request)),
    }),
  );
});
