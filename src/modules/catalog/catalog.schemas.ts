import { Type, type Static } from 'typebox';
import { Timestamp } from '../../http/schemas.js';
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
