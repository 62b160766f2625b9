import { Type, type Static } from 'typebox';
import { Timestamp } from '../../http/schemas.js';
import { FEW_RESULTS, FIELD_NAMES, MAX_RANKED } from './catalog.ranking.js';
import { CATEGORY_IDS } from './catalog.taxonomy.js';

const Slug = Type.String({ pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$', maxLength: 64 });
const Url = Type.String({ format: 'uri', pattern: '^https://', maxLength: 500 });
const Sentence = (maxLength: number) => Type.String({ minLength: 1, maxLength });

export const Kind = Type.Enum(['tool', 'agent', 'framework'], {
  description: 'What the listing is.',
});

export const STATUSES = ['active', 'maintenance', 'deprecated', 'archived'] as const;
export const Status = Type.Enum(STATUSES, {
  description:
    'Lifecycle, as the publisher states it: `active`; `maintenance` (only fixes); `deprecated` (the publisher advises against new use); `archived` (the repository is archived).',
});

export const LICENSE_KINDS = ['open_source', 'source_available', 'proprietary', 'unknown'] as const;
export const LicenseKind = Type.Enum(LICENSE_KINDS, {
  description:
    '`open_source` (an OSI licence, with or without one SPDX id), `source_available` (e.g. BUSL-1.1, Elastic-2.0, SSPL-1.0), `proprietary` (closed software or service), or `unknown` (not confirmed).',
});

export const CategoryId = Type.Enum(CATEGORY_IDS, {
  description: 'One of the categories of `GET /api/catalog/categories`.',
});

const Variable = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100, example: 'GITHUB_PERSONAL_ACCESS_TOKEN' }),
    description: Sentence(500),
    is_secret: Type.Boolean(),
    is_required: Type.Boolean(),
  },
  { additionalProperties: false },
);

/** How an agent connects to an MCP server, after the MCP Registry's `server.json`. */
export const Connection = Type.Object(
  {
    packages: Type.Array(
      Type.Object(
        {
          registry_type: Type.Enum(['npm', 'pypi', 'oci', 'nuget', 'mcpb']),
          identifier: Type.String({ minLength: 1, maxLength: 200, example: '@playwright/mcp' }),
          transport: Type.Enum(['stdio', 'streamable-http', 'sse']),
          runtime_hint: Type.Optional(Type.Enum(['npx', 'uvx', 'docker', 'dnx'])),
          environment_variables: Type.Optional(Type.Array(Variable, { maxItems: 30 })),
        },
        { additionalProperties: false },
      ),
      { maxItems: 10, description: 'Packages that run the server locally.' },
    ),
    remotes: Type.Array(
      Type.Object(
        {
          transport: Type.Enum(['streamable-http', 'sse']),
          url: Url,
          headers: Type.Optional(Type.Array(Variable, { maxItems: 10 })),
        },
        { additionalProperties: false },
      ),
      { maxItems: 10, description: 'Hosted endpoints of the server.' },
    ),
  },
  {
    additionalProperties: false,
    description:
      "MCP servers only: the packages (registry, identifier, transport, environment variables) and remote endpoints (URL, transport, headers) to connect with, as in the MCP Registry's `server.json`.",
  },
);

/** A listing as it is written in the data file: everything but `updated_at`. */
export const ListingEntry = Type.Object(
  {
    id: Type.String({ ...Slug, description: 'Readable, stable id.', example: 'langchain' }),
    name: Sentence(100),
    kind: Kind,
    summary: Type.String({ minLength: 1, maxLength: 200, description: 'One sentence.' }),
    description: Sentence(2000),
    use_cases: Type.Array(Sentence(200), {
      minItems: 2,
      maxItems: 5,
      description:
        'Needs it serves, in the words of someone who has them; search weighs them between the name and the description.',
      example: ['transcribe recorded interviews offline', 'add subtitles to my videos'],
    }),
    categories: Type.Array(CategoryId, {
      minItems: 1,
      maxItems: 3,
      uniqueItems: true,
      example: ['agent-framework'],
    }),
    protocols: Type.Array(Type.String({ pattern: '^[a-z0-9][a-z0-9+.-]*$', maxLength: 30 }), {
      description: 'Lower-case: mcp, openapi, a2a, rest, graphql, grpc, python, typescript, cli, …',
      example: ['python', 'typescript'],
    }),
    homepage_url: Url,
    documentation_url: Url,
    repository_url: Type.Union([Url, Type.Null()]),
    version: Type.Union([Type.String({ minLength: 1, maxLength: 50 }), Type.Null()]),
    provenance: Type.Object(
      {
        publisher: Sentence(200),
        source_url: Type.String({ ...Url, description: 'The public page these facts come from.' }),
        license: Type.Union(
          [Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9.+-]*$', maxLength: 100 }), Type.Null()],
          {
            description:
              'The SPDX licence id (e.g. `MIT`), or null when there is none: see `license_kind`. Null never means proprietary by itself.',
          },
        ),
        license_kind: LicenseKind,
        retrieved_at: Type.String({ format: 'date', description: 'When the facts were checked.' }),
        verification: Type.Union([
          Type.Literal('documented'),
          Type.Literal('maintainer_confirmed'),
          Type.Literal('unverified'),
        ]),
      },
      { additionalProperties: false },
    ),
    authentication: Type.Object(
      {
        required: Type.Boolean({
          description:
            'Whether using it needs credentials. When not, `schemes` holds `none` and any schemes of optional credentials.',
        }),
        schemes: Type.Array(
          Type.Enum(['none', 'api_key', 'bearer', 'oauth2', 'basic', 'mtls', 'other']),
          { minItems: 1 },
        ),
        notes: Sentence(1000),
      },
      { additionalProperties: false },
    ),
    limitations: Type.Array(Sentence(500), {
      minItems: 1,
      description: 'Honest limits, each a readable sentence.',
    }),
    status: Status,
    successor: Type.Union([Slug, Type.Null()], {
      description: 'The id of the listing that replaces this one, if any.',
    }),
    connection: Type.Optional(Type.Union([Connection, Type.Null()])),
    aliases: Type.Optional(
      Type.Array(Sentence(100), {
        maxItems: 30,
        uniqueItems: true,
        description: 'Other names and common phrasings people search for, e.g. `STT`.',
        example: ['STT', 'transcription'],
      }),
    ),
    sources: Type.Optional(
      Type.Array(Url, {
        minItems: 1,
        maxItems: 20,
        uniqueItems: true,
        description: "The public pages this listing's facts come from.",
      }),
    ),
    checked_at: Type.Optional(
      Type.String({
        format: 'date',
        description: 'When the facts were last checked against `sources` (YYYY-MM-DD).',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ListingEntry = Static<typeof ListingEntry>;

export const Listing = Type.Object(
  {
    ...ListingEntry.properties,
    aliases: Type.Array(Type.String(), {
      description: 'Other names people search for it by (may be empty).',
    }),
    sources: Type.Array(Type.String({ format: 'uri' }), {
      description:
        'The public pages the facts come from; `provenance.source_url` when the data names no others.',
    }),
    checked_at: Type.String({
      format: 'date',
      description:
        'When the facts were last checked against the sources; `provenance.retrieved_at` when the data names no other date.',
    }),
    created_at: Timestamp('When this listing entered the catalog.'),
    updated_at: Timestamp('When this listing last changed in the catalog.'),
  },
  { additionalProperties: false },
);
export type Listing = Static<typeof Listing>;

export const ListingChange = Type.Object(
  {
    id: Type.Integer({
      minimum: 1,
      description: 'The change id (a correction answer may cite it).',
    }),
    listing_id: Type.String(),
    change: Type.Enum(['added', 'changed', 'removed']),
    fields: Type.Array(Type.String(), {
      description: 'The top-level fields that changed (every field for `added`).',
    }),
    changed_at: Timestamp(),
  },
  { additionalProperties: false },
);
export type ListingChange = Static<typeof ListingChange>;

export const ListingPage = Type.Object(
  {
    ...Listing.properties,
    history: Type.Array(ListingChange, {
      description: 'What changed when, newest first (the last 10 changes).',
    }),
  },
  { additionalProperties: false },
);
export type ListingPage = Static<typeof ListingPage>;

export const ListingParams = Type.Object({
  id: Type.String({
    minLength: 1,
    maxLength: 200,
    description: 'The listing id, e.g. `langchain`.',
  }),
});

export const SearchQuery = Type.Object({
  q: Type.Optional(
    Type.String({
      maxLength: 300,
      description:
        'A need in plain words or keywords. Ranked by relevance (BM25F): a listing matching more of the meaningful words, and rarer ones, ranks higher, and not every word has to match; name, aliases and id weigh most, then use cases, summary and categories, then the description, protocols and limitations. Words are matched in any form (plural, singular, -ing…), ignoring case and accents; stop words and question scaffolding ("I need something that…") are ignored; phrases of the concept map also find their equivalents (speech to text ≈ transcription ≈ dictation); the last word also matches as a prefix. A word the catalog does not contain may be corrected to a close catalog word (see `corrected_query`). See docs/discovery.md.',
    }),
  ),
  updated_since: Type.Optional(
    Type.String({
      format: 'date-time',
      description: 'Only listings added or changed after this time (ISO 8601).',
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
              'A query word or phrase as typed, its correction, or the concept-map equivalent that was found.',
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
    { description: 'Counts over the matches of the current query and filters.' },
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
      description: `When at most ${FEW_RESULTS} listings match every part of a search's words: categories related to the query, most related first.`,
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

export const CategoryList = Type.Object({
  items: Type.Array(
    Type.Object(
      {
        id: Type.String({ description: 'The value of `category` in listings and searches.' }),
        definition: Type.String({ description: 'One line: what belongs in it.' }),
        aliases: Type.Array(Type.String(), {
          description: 'Old names and synonyms: as a `category` filter each means this category.',
        }),
        count: Type.Integer({ minimum: 0, description: 'Listings in it.' }),
      },
      { additionalProperties: false },
    ),
  ),
});
