/** The catalog search's query and answer (GET /api/catalog). */
import { Type, type Static } from 'typebox';
import { Kind, LicenseKind, Listing, Status } from './catalog.schemas.js';
import { FEW_RESULTS, FIELD_NAMES, MAX_RANKED } from './catalog.ranking.js';

export const SearchQuery = Type.Object({
  q: Type.Optional(
    Type.String({
      maxLength: 300,
      description:
        'A need in plain words or keywords. Ranked by relevance (BM25F): a listing matching more of the meaningful words, and rarer ones, ranks higher, and not every word has to match; name, aliases and id weigh most, then use cases, summary and categories, then the description, protocols and limitations. Words are matched in any form (plural, singular, -ing…), ignoring case and accents; stop words and question scaffolding ("I need something that…") are ignored; phrases of the concept map also find their equivalents (speech to text ≈ transcription ≈ dictation); the last word also matches as a prefix. A word the catalog does not contain may be corrected to a close catalog word (see `corrected_query`). Asking for alternatives to a listing (`alternative to X`, `X alternatives`) finds the others of its categories, not it. See docs/discovery.md.',
    }),
  ),
  updated_since: Type.Optional(
    Type.String({
      format: 'date-time',
      description: 'Only listings added or changed after this time (ISO 8601 date and time).',
    }),
  ),
  kind: Type.Optional(Kind),
  category: Type.Optional(
    Type.String({
      maxLength: 100,
      description:
        'Matches any category, ignoring case; an old category name or synonym listed in `GET /api/catalog/categories` means its category (`transcription` finds `speech-to-text`).',
    }),
  ),
  status: Type.Optional(Status),
  license_kind: Type.Optional(LicenseKind),
  protocol: Type.Optional(
    Type.String({ maxLength: 100, description: 'Matches any protocol, ignoring case.' }),
  ),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 20 })),
  cursor: Type.Optional(
    Type.String({
      maxLength: 500,
      description: '`next_cursor` of the previous page of the same search.',
    }),
  ),
});
export type SearchQuery = Static<typeof SearchQuery>;

const FacetCounts = (what: string) =>
  Type.Record(Type.String(), Type.Integer({ minimum: 1 }), {
    description: `Matching listings by ${what} (only values with at least one).`,
  });

export const SearchHit = Type.Object(
  {
    ...Listing.properties,
    matched: Type.Array(
      Type.Object(
        {
          term: Type.String({
            description:
              'A query word or phrase as typed (or the part of it found), its correction, or the concept-map equivalent found.',
          }),
          fields: Type.Array(
            Type.Enum(FIELD_NAMES, {
              description: 'A field it was found in.',
            }),
          ),
        },
        { additionalProperties: false },
      ),
      {
        description:
          'Why this result: each part of the query it matched and in which fields (empty for a search without words).',
      },
    ),
  },
  { additionalProperties: false },
);

export const SearchResult = Type.Object({
  items: Type.Array(SearchHit),
  count: Type.Integer({ minimum: 0, description: 'Items in this page.' }),
  total: Type.Integer({
    minimum: 0,
    description: `All listings matching the query and filters; an estimate when \`total_is_estimate\`.`,
  }),
  total_is_estimate: Type.Boolean({
    description: `True when a search with words matches more than is ranked (a query term in more than 500 listings, or over ${MAX_RANKED} matches): \`total\` is then estimated, \`facets\` count the best ${MAX_RANKED} matches, and pages end there.`,
  }),
  facets: Type.Object(
    {
      kind: FacetCounts('kind'),
      category: FacetCounts('category'),
      protocol: FacetCounts('protocol'),
      status: FacetCounts('status'),
      license_kind: FacetCounts('licence kind'),
    },
    {
      description:
        'Counts of the matches of the query, each facet with every filter but its own: with `category=x` the other ' +
        'categories count what choosing one of them instead would find (`total` counts with every filter).',
    },
  ),
  corrected_query: Type.Union([Type.String(), Type.Null()], {
    description:
      'When a word of `q` is in no listing and a close catalog word was used instead: the query whose results these are. Words that match something, and so product names and ids in the catalog, are never corrected.',
  }),
  suggestions: Type.Array(Type.String(), {
    description: 'Other queries to try (did you mean): the corrected query, when there is one.',
  }),
  related_categories: Type.Array(
    Type.Object(
      {
        category: Type.String({ description: 'A value for the `category` filter.' }),
        listings: Type.Integer({ minimum: 1, description: 'Listings in it.' }),
      },
      { additionalProperties: false },
    ),
    {
      description: `When at most ${FEW_RESULTS} listings match every part of a search's words: categories related to the query, most related first. When \`category\` names no category: those it may have meant.`,
    },
  ),
  capability_request: Type.Union(
    [
      Type.Object({
        method: Type.Literal('POST'),
        url: Type.String({ format: 'uri' }),
        body: Type.Object({ kind: Type.Literal('capability'), task: Type.String() }),
      }),
      Type.Null(),
    ],
    {
      description: `When at most ${FEW_RESULTS} listings match every part of a search's words (whatever matched only a part), or its query was corrected: a capability request to send as it is or completed, its task taken from the query (at least 12 characters).`,
    },
  ),
  limit: Type.Integer({ minimum: 1, maximum: 50 }),
  next_cursor: Type.Union([Type.String(), Type.Null()], {
    description: 'Pass as `cursor` for the next page; null on the last page.',
  }),
});
