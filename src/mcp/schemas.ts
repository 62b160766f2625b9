import { withDefinitions, type JsonSchema } from './compact.js';
import type { ToolSpec } from './tool-spec.js';
import { viewed } from './views.js';

export type { JsonSchema } from './compact.js';

interface Operation {
  parameters?: {
    in: string;
    name: string;
    required?: boolean;
    description?: string;
    schema: JsonSchema;
  }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
}

/** The parts of an OpenAPI document the tools are built from. */
export interface OpenApiDocument {
  info: { version: string } & Record<string, unknown>;
  paths: Record<string, Record<string, Operation> | undefined>;
}

export type Place = 'path' | 'query' | 'body' | 'receipt';

/** Where a tool argument goes in the HTTP call, and under which name. */
export interface ArgumentPlace {
  place: Place;
  apiName: string;
  /**
   * For a path parameter: the values that would name another operation of the same method
   * (`categories` in `/api/catalog/{id}` is `/api/catalog/categories`), so name nothing here.
   */
  reserved?: ReadonlySet<string>;
}

/** A tool ready to list and call: its spec with JSON schemas made from its operation. */
export interface CompiledTool {
  spec: ToolSpec;
  inputSchema: JsonSchema & { type: 'object' };
  outputSchema: JsonSchema & { type: 'object' };
  arguments: Map<string, ArgumentPlace>;
  /** The operation answers a list; structured content must be an object, so it is `{ items }`. */
  listed: boolean;
  /** The list pages with a `Link` header: the answer adds `next_cursor`. */
  paged: boolean;
}

export const RECEIPT_TOKEN = 'receipt_token';

/** A tool's page size, where the tool sets its own default. */
const PAGE_LIMIT = 'Per page; more: pass `next_cursor` as `cursor`.';

/**
 * Builds every tool's schemas from the OpenAPI document, so tools take exactly what the API
 * takes (limits, descriptions; names in snake_case) and promise exactly what it answers.
 */
export function compileTools(document: OpenApiDocument, specs: ToolSpec[]): CompiledTool[] {
  return specs.map((spec) => {
    const operation = document.paths[spec.path]?.[spec.method.toLowerCase()];
    if (operation === undefined)
      throw new Error(`MCP tool ${spec.name}: no operation ${spec.method} ${spec.path}`);
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    const places = new Map<string, ArgumentPlace>();
    const add = (apiName: string, place: Place, schema: JsonSchema, isRequired: boolean) => {
      const name = spec.rename?.[apiName] ?? apiName;
      const fallback = spec.defaults?.[name];
      properties[name] =
        name === spec.caller
          ? { ...schema, description: 'A player id; default: your own (the key’s player).' }
          : fallback === undefined
            ? schema
            : name === 'limit' && schema.description !== undefined
              ? // The API's words (all without it, its own default, a `Link` header) are not the tool's.
                { ...schema, default: fallback, description: PAGE_LIMIT }
              : { ...schema, default: fallback };
      const reserved = place === 'path' ? siblings(document, spec, apiName) : undefined;
      places.set(name, { place, apiName, ...(reserved === undefined ? {} : { reserved }) });
      if (isRequired && name !== spec.caller) required.push(name);
    };
    for (const parameter of operation.parameters ?? []) {
      if (parameter.in !== 'path' && parameter.in !== 'query') continue;
      const described =
        parameter.description === undefined
          ? parameter.schema
          : { ...parameter.schema, description: parameter.description };
      add(parameter.name, parameter.in, described, parameter.required === true);
    }
    const body = operation.requestBody?.content?.['application/json']?.schema;
    for (const [name, schema] of Object.entries(body?.properties ?? {})) {
      add(name, 'body', schema, body?.required?.includes(name) === true);
    }
    if (spec.auth === 'receipt') {
      const token = {
        type: 'string',
        description: 'The receipt token (`rq_…`) that file_request returned with this request.',
      };
      add(RECEIPT_TOKEN, 'receipt', token, true);
    }
    const data = viewed(successData(operation), spec);
    const listed = data.type === 'array';
    const paged = listed && places.has('cursor');
    // The API names such a list's next page in a header; the tool answers it as `next_cursor`.
    const cursor = properties.cursor;
    if (paged && cursor !== undefined) {
      properties.cursor = { ...cursor, description: 'The `next_cursor` of the previous page.' };
    }
    const nextCursor: JsonSchema = {
      anyOf: [{ type: 'string' }, { type: 'null' }],
      description: 'Pass as `cursor` for the next page; null on the last page.',
    };
    return {
      spec,
      inputSchema: withDefinitions(
        {
          type: 'object',
          properties,
          ...(required.length === 0 ? {} : { required }),
          additionalProperties: false,
        },
        false,
      ),
      outputSchema: withDefinitions(
        listed
          ? {
              type: 'object',
              properties: { items: data, ...(paged ? { next_cursor: nextCursor } : {}) },
              required: paged ? ['items', 'next_cursor'] : ['items'],
            }
          : data,
        true,
      ),
      arguments: places,
      listed,
      paged,
    };
  });
}

/**
 * The literal segments that stand where the path parameter `name` of the tool's operation does,
 * in the other paths of the same method that match it everywhere else: the router takes such a
 * value for that other operation.
 */
function siblings(document: OpenApiDocument, spec: ToolSpec, name: string): Set<string> {
  const segments = spec.path.split('/');
  const at = segments.indexOf(`{${name}}`);
  const method = spec.method.toLowerCase();
  const found = new Set<string>();
  for (const [path, operations] of Object.entries(document.paths)) {
    const other = path.split('/');
    if (other.length !== segments.length || operations?.[method] === undefined) continue;
    const literal = other[at] ?? '';
    if (literal.startsWith('{')) continue;
    const matches = segments.every(
      (segment, i) =>
        i === at || segment === other[i] || (segment.startsWith('{') && other[i]?.startsWith('{')),
    );
    if (matches) found.add(literal);
  }
  return found;
}

/** The `data` of the operation's success answers; several (200 and 201) become one object. */
function successData(operation: Operation): JsonSchema {
  const schemas = Object.entries(operation.responses ?? {})
    .filter(([status]) => status.startsWith('2'))
    .map(([, response]) => response.content?.['application/json']?.schema?.properties?.data)
    .filter((schema): schema is JsonSchema => schema !== undefined);
  const [first, ...others] = schemas;
  if (first === undefined) return { type: 'object' };
  if (others.length === 0) return first;
  // Answers' schemas name no `required` (see compact.ts): a field that only some answers have
  // (a new player's `api_key`, say) says so in its description.
  const properties: Record<string, JsonSchema> = Object.assign(
    {},
    ...schemas.map((schema) => schema.properties ?? {}),
  ) as Record<string, JsonSchema>;
  const inEvery = (name: string) => schemas.every((schema) => schema.required?.includes(name));
  return {
    type: 'object',
    properties: Object.fromEntries(
      Object.entries(properties).map(([name, schema]) => [
        name,
        inEvery(name)
          ? schema
          : { ...schema, description: `${schema.description ?? ''} Not in every answer.`.trim() },
      ]),
    ),
    required: Object.keys(properties).filter(inEvery),
  };
}
