import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.js';
import { publicBaseUrl } from '../../http/base-url.js';
import { Envelope, errorResponses } from '../../http/schemas.js';
import { atomFeed } from './catalog.feed.js';
import { CategoryList, ListingPage, ListingParams } from './catalog.schemas.js';
import { SearchQuery, SearchResult } from './catalog.search.schemas.js';
import {
  catalogCategories,
  getListing,
  recentListingChanges,
  searchCatalog,
} from './catalog.service.js';

const FEED_LENGTH = 50;

export const catalogRoutes: FastifyPluginAsyncTypebox<AppContext> = async (
  app,
  { store, config },
) => {
  app.get(
    '/api/catalog',
    {
      schema: {
        tags: ['catalog'],
        operationId: 'searchCatalog',
        summary: 'Search documented tools, agents and frameworks',
        description:
          'Full-text search: every word of `q` must match (the last one also as a prefix) in any form (plural, singular, -ing…), ' +
          'ignoring case, accents and filler words; phrases of the synonym table match their equivalents, and a query that finds ' +
          'nothing is retried with misspelt words replaced by the closest name or alias word (`corrected_query`). ' +
          'Ranking: a listing whose name or alias is the query, then listings that are what was asked (every word in the name, an ' +
          'alias, the kind or a category), then the rest, each by relevance. Without `q`, listings are in name order. ' +
          '`total` and `facets` count all matches; a search that finds nothing carries `suggestions` and `capability_request`. ' +
          'Characters such as quotes, `*`, `:` or `%` are searched for as text, never interpreted. See docs/discovery.md.',
        querystring: SearchQuery,
        response: {
          200: Envelope(SearchResult, 'A page of matching listings, best matches first.'),
          ...errorResponses('validation_error'),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: await searchCatalog(store, request.query, publicBaseUrl(request, config)),
    }),
  );

  app.get(
    '/api/catalog/categories',
    {
      schema: {
        tags: ['catalog'],
        operationId: 'listCategories',
        summary: 'The categories listings are filed under',
        description:
          'The controlled list of categories: each with a one-line definition, the old names and synonyms that work as `category` filters for it, and how many listings it holds.',
        response: {
          200: Envelope(CategoryList, "Every category, in the taxonomy's order."),
          ...errorResponses(),
        },
      },
    },
    async () => ({ success: true as const, data: await catalogCategories(store) }),
  );

  app.get(
    '/api/catalog/feed.atom',
    {
      schema: {
        tags: ['catalog'],
        operationId: 'catalogFeed',
        summary: 'Atom feed of added and changed listings',
        description: `The ${FEED_LENGTH} newest changes (a listing added or changed), newest first, each linking to the listing.`,
        produces: ['application/atom+xml'],
        response: {
          200: {
            description: 'An Atom 1.0 feed.',
            content: { 'application/atom+xml': { schema: { type: 'string' } } },
          },
          ...errorResponses(),
        },
      },
    },
    async (request, reply) => {
      const changes = await recentListingChanges(store, FEED_LENGTH);
      return reply
        .type('application/atom+xml; charset=utf-8')
        .send(atomFeed(publicBaseUrl(request, config), changes));
    },
  );

  app.get(
    '/api/catalog/:id',
    {
      schema: {
        tags: ['catalog'],
        operationId: 'getListing',
        summary: 'Read one listing, with its change history',
        description:
          'One listing by its readable id (e.g. `langchain`), as returned by the search, with its last changes.',
        params: ListingParams,
        response: {
          200: Envelope(
            ListingPage,
            'The listing, with its provenance, authentication, limitations and change history.',
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
};
