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
        operationId: 'searchCatalog',
        summary: 'Search documented tools, agents and frameworks',
        description:
          'Full-text search: every word of `q` must match (the last one also as a prefix), ignoring case and accents; ' +
          'listings whose name matches come first, then by relevance. Without `q`, listings are in name order. ' +
          'Characters such as quotes, `*`, `:` or `%` are searched for as text, never interpreted.',
        querystring: SearchQuery,
        response: {
          200: Envelope(SearchResult, 'A page of matching listings, best matches first.'),
          ...errorResponses('validation_error'),
        },
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
        operationId: 'getListing',
        summary: 'Read one listing',
        description:
          'One listing by its readable id (e.g. `langchain`), as returned by the search.',
        params: ListingParams,
        response: {
          200: Envelope(
            Listing,
            'The listing, with its provenance, authentication and limitations.',
          ),
          ...errorResponses('validation_error', 'not_found'),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: await getListing(store, request.params.id),
    }),
  );
  return Promise.resolve();
};
