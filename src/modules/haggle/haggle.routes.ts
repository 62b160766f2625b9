import type { FastifyRequest } from 'fastify';
import { publicBaseUrl } from '../../http/base-url.js';
import { Envelope, errorResponses } from '../../http/schemas.js';
import { MAX_ROUNDS } from '../../seller/index.js';
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
import { abandonSession, acceptCounter, makeOffer, readSession } from './haggle.service.js';
import { listSessions } from './haggle.list.js';
import { startSession } from './haggle.start.js';
import type { HaggleDeps } from './haggle.session.js';
import {
  acceptView,
  offerView,
  sessionDetailView,
  sessionOnlyView,
  sessionPageView,
  startedView,
} from './haggle.views.js';

export const haggleRoutes = authenticatedRoutes((app, { store, config, sellerSecret }) => {
  const deps: HaggleDeps = { store, sellerSecret };
  const baseUrl = (request: FastifyRequest) => publicBaseUrl(request, config);
  const tags = ['haggle'];

  app.post(
    '/api/haggle/start',
    {
      schema: {
        tags,
        summary: 'Open a negotiation for a product',
        description:
          'Checks, in order: the product exists (404), you have credits (402), it is in stock (409 `out_of_stock`). ' +
          'If you already have an active negotiation for this product, it is returned with 200 instead of a new one.',
        body: StartBody,
        response: {
          201: Envelope(StartedSession),
          200: Envelope(StartedSession),
          ...errorResponses(
            'validation_error',
            'invalid_json',
            'unauthorized',
            'insufficient_credits',
            'forbidden',
            'not_found',
            'out_of_stock',
            'rate_limited',
          ),
        },
      },
    },
    async (request, reply) => {
      const started = await startSession(deps, request.playerId, request.body);
      return reply
        .code(started.created ? 201 : 200)
        .send({ success: true, data: startedView(started, baseUrl(request)) });
    },
  );

  app.post(
    '/api/haggle/offer',
    {
      schema: {
        tags,
        summary: 'Make an offer',
        description:
          'The seller accepts (the deal is made at your offer), counters, or rejects. Offers below 40 % of the market price ' +
          'are insulting (the second ends the negotiation); an offer below your previous one is a retreat (the second ends it); ' +
          `round ${MAX_ROUNDS - 1}’s counter is the final one, and the ${MAX_ROUNDS}th offer is the last: accepted, or the negotiation expires. ` +
          'Your `message` is stored but never changes the price. A failed request changes nothing and uses no round.',
        body: OfferBody,
        response: {
          200: Envelope(OfferResult),
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
      data: offerView(await makeOffer(deps, request.playerId, request.body), baseUrl(request)),
    }),
  );

  app.post(
    '/api/haggle/accept',
    {
      schema: {
        tags,
        summary: "Accept the seller's counter-offer",
        body: SessionBody,
        response: {
          200: Envelope(AcceptResult),
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
      data: acceptView(
        await acceptCounter(deps, request.playerId, request.body.session_id),
        baseUrl(request),
      ),
    }),
  );

  app.post(
    '/api/haggle/abandon',
    {
      schema: {
        tags,
        summary: 'Walk away from a negotiation',
        description: 'No credits are lost.',
        body: SessionBody,
        response: {
          200: Envelope(SessionOnly),
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
      data: sessionOnlyView(await abandonSession(deps, request.playerId, request.body.session_id)),
    }),
  );

  app.get(
    '/api/haggle',
    {
      schema: {
        tags,
        summary: 'List your negotiations',
        description:
          'Your own negotiations, newest first, to pick work up again without keeping ids. Filter by `status` ' +
          '(e.g. `active`); pages of `limit` (default 20, at most 100): pass `next_cursor` as `cursor`, with the same ' +
          '`status`, for the next page. Never shows anyone else’s negotiations.',
        querystring: SessionListQuery,
        response: {
          200: Envelope(SessionPage),
          ...errorResponses('validation_error', 'unauthorized', 'rate_limited'),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: sessionPageView(await listSessions(store, request.playerId, request.query)),
    }),
  );

  app.get(
    '/api/haggle/:sessionId',
    {
      schema: {
        tags,
        summary: 'Read a negotiation with its messages',
        description: 'Your own sessions only; anyone else’s answers 404.',
        params: SessionParams,
        response: {
          200: Envelope(SessionDetail),
          ...errorResponses('validation_error', 'unauthorized', 'not_found', 'rate_limited'),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: sessionDetailView(
        await readSession(deps, request.playerId, request.params.sessionId),
        baseUrl(request),
      ),
    }),
  );
  return Promise.resolve();
});
