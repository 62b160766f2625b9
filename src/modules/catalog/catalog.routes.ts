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
          '`q` is a need in plain words or keywords, ranked by relevance (BM25F over name, aliases, use cases, summary, ' +
          'categories, description, protocols and limitations, the same on every database); not every word has to match, ' +
          'question scaffolding and stop words are ignored, and concepts find their equivalents (speech to text ≈ transcription). ' +
          'Each hit says in `matched` which parts of the query it matched and where. Only a word that is in no listing may be ' +
          'corrected, to a near catalog word (`corrected_query`). Active listings rank first among equals. A search with words ' +
          'ranks its best 300 matches: beyond that `total` is an estimate (`total_is_estimate`). When few listings fit, the ' +
          'answer carries `related_categories` and a ready `capability_request`. Without `q`, listings are in name order. ' +
          '`category` also takes an old category name (see GET /api/catalog/categories). Characters such as quotes, `*`, `:` ' +
          'or `%` are searched for as text, never interpreted. See docs/discovery.md.',
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
          // An undecodable query string, as on every /api route.
          ...errorResponses('validation_error'),
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
          ...errorResponses('validation_error'),
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
