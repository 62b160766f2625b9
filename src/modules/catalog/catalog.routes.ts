import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.js';
import { Envelope, errorResponses } from '../../http/schemas.js';
import { Listing, ListingParams, SearchQuery, SearchResult } from './catalog.schemas.js';
import { getListing, searchCatalog } from './catalog.service.js';

export const catalogRoutes: FastifyPluginAsyncTypebox<AppContext> = (app, { store }) => {
  app.get(
    '/api/catalog',
    {
      schema: {
        tags: ['catalog'],
        summary: 'Search documented tools, agents and frameworks',
        description:
          'Full-text search: every word of `q` must match (the last one also as a prefix), ignoring case and accents; ' +
          'listings whose name matches come first, then by relevance. Without `q`, listings are in name order. ' +
          'Characters such as quotes, `*`, `:` or `%` are searched for as text, never interpreted.',
        querystring: SearchQuery,
        response: { 200: Envelope(SearchResult), ...errorResponses('validation_error') },
      },
    },
    async (request) => ({
      success: true as const,
      data: await searchCatalog(store, request.query),
    }),
  );

  app.get(
    '/api/catalog/:id',
    {
      schema: {
        tags: ['catalog'],
        summary: 'Read one listing',
        params: ListingParams,
        response: { 200: Envelope(Listing), ...errorResponses('validation_error', 'not_found') },
      },
    },
    async (request) => ({
      success: true as const,
      data: await getListing(store, request.params.id),
    }),
  );
  return Promise.resolve();
};
