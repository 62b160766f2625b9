import { Type, type Static } from 'typebox';
import { Timestamp } from '../../http/schemas.js';

const Slug = Type.String({ pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$', maxLength: 64 });
const Url = Type.String({ format: 'uri', pattern: '^https://', maxLength: 500 });
const Sentence = (maxLength: number) => Type.String({ minLength: 1, maxLength });

export const Kind = Type.Enum(['tool', 'agent', 'framework'], {
  description: 'What the listing is.',
});

/** A listing as it is written in the data file: everything but `updated_at`. */
export const ListingEntry = Type.Object(
  {
    id: Type.String({ ...Slug, description: 'Readable, stable id.', example: 'langchain' }),
    name: Sentence(100),
    kind: Kind,
    summary: Type.String({ minLength: 1, maxLength: 200, description: 'One sentence.' }),
    description: Sentence(2000),
    categories: Type.Array(Slug, { minItems: 1, maxItems: 8, example: ['agent-framework'] }),
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
        license: Type.Union([Type.String({ minLength: 1, maxLength: 100 }), Type.Null()], {
          description: 'SPDX identifier, or null for proprietary software and services.',
        }),
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
        required: Type.Boolean({ description: 'Whether using it needs credentials.' }),
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
    status: Type.Union([Type.Literal('active'), Type.Literal('deprecated')]),
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
    updated_at: Timestamp('When this listing last changed in the catalog.'),
  },
  { additionalProperties: false },
);
export type Listing = Static<typeof Listing>;

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
        'Words to find in name, summary, description, categories, protocols and limitations. Every word must match (the last also as a prefix), ignoring case and accents.',
    }),
  ),
  kind: Type.Optional(Kind),
  category: Type.Optional(
    Type.String({ maxLength: 100, description: 'Matches any category, ignoring case.' }),
  ),
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

export const SearchResult = Type.Object({
  items: Type.Array(Listing),
  count: Type.Integer({ minimum: 0, description: 'Items in this page.' }),
  limit: Type.Integer({ minimum: 1, maximum: 50 }),
  next_cursor: Type.Union([Type.String(), Type.Null()], {
    description: 'Pass as `cursor` for the next page; null on the last page.',
  }),
});
