import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { validationHeadline } from '../http/errors.js';
import type { Api, ApiCall } from './api.js';
import { TOOLS, type ToolSpec } from './tools.js';

type JsonSchema = Record<string, unknown> & {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
};

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
  info: { version: string };
  paths: Record<string, Record<string, Operation> | undefined>;
}

type Place = 'path' | 'query' | 'body' | 'receipt';

/** A tool ready to register: its spec with zod schemas made from its operation. */
export interface CompiledTool {
  spec: ToolSpec;
  input: z.ZodType;
  output: z.ZodType;
  /** Where each argument goes in the HTTP call. */
  places: Map<string, Place>;
  /** The operation answers a list; MCP structured content must be an object, so it is `{ items }`. */
  listed: boolean;
}

const RECEIPT_TOKEN = 'receipt_token';

const toZod = (schema: JsonSchema): z.ZodType =>
  z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);

/** An argument as text for a path or query string (only scalars are declared there). */
const asText = (value: unknown): string =>
  typeof value === 'string' ? value : JSON.stringify(value);

/**
 * Builds every tool's schemas from the OpenAPI document, so tools take exactly what the API
 * takes (names, limits, descriptions) and promise exactly what it answers.
 */
export function compileTools(document: OpenApiDocument): CompiledTool[] {
  return TOOLS.map((spec) => {
    const operation = document.paths[spec.path]?.[spec.method.toLowerCase()];
    if (operation === undefined)
      throw new Error(`MCP tool ${spec.name}: no operation ${spec.method} ${spec.path}`);
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    const places = new Map<string, Place>();
    for (const parameter of operation.parameters ?? []) {
      if (parameter.in !== 'path' && parameter.in !== 'query') continue;
      properties[parameter.name] = {
        ...parameter.schema,
        ...(parameter.description === undefined ? {} : { description: parameter.description }),
      };
      places.set(parameter.name, parameter.in);
      if (parameter.required === true) required.push(parameter.name);
    }
    const body = operation.requestBody?.content?.['application/json']?.schema;
    for (const [name, schema] of Object.entries(body?.properties ?? {})) {
      properties[name] = schema;
      places.set(name, 'body');
    }
    required.push(...(body?.required ?? []));
    if (spec.auth === 'receipt') {
      properties[RECEIPT_TOKEN] = {
        type: 'string',
        description: 'The receipt token (`rq_…`) that file_request returned with this request.',
      };
      places.set(RECEIPT_TOKEN, 'receipt');
      required.push(RECEIPT_TOKEN);
    }
    const data = successData(operation);
    const listed = data.type === 'array';
    return {
      spec,
      input: toZod({
        type: 'object',
        properties,
        required,
        additionalProperties: false,
      }),
      output: toZod(
        listed ? { type: 'object', properties: { items: data }, required: ['items'] } : data,
      ),
      places,
      listed,
    };
  });
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
  // A field is promised only when every answer has it (a new player's `api_key`, say).
  return {
    type: 'object',
    properties: Object.assign({}, ...schemas.map((schema) => schema.properties ?? {})) as Record<
      string,
      JsonSchema
    >,
    required: (first.required ?? []).filter((name) =>
      others.every((schema) => schema.required?.includes(name) === true),
    ),
  };
}

export interface ServerOptions {
  version: string;
  /** Where the service is, for the instructions given to the model. */
  baseUrl: string;
  api: Api;
  /** The `Authorization` header to act as the player, when one is known. */
  playerAuthorization: () => string | undefined;
  /** Called with the key a registration returned (the stdio server keeps it for the session). */
  onRegistered?: (apiKey: string) => void;
}

export function createMcpServer(tools: CompiledTool[], options: ServerOptions): McpServer {
  const server = new McpServer(
    { name: 'bazaar', title: 'Bazaar', version: options.version },
    {
      instructions:
        'Bazaar has two areas. Capability discovery: search_catalog, list_categories and get_listing find documented tools, agents and ' +
        'frameworks; file_request asks the operators for what is missing (keep the receipt token). The negotiation game: ' +
        'register (keep the api_key, shown once), list_products, start_negotiation, then make_offer until the seller ' +
        'accepts or accept_counter_offer; get_player_stats and get_leaderboard show the score (market value bought per ' +
        `credit spent). The full guide: ${options.baseUrl}/agents.md`,
    },
  );
  for (const tool of tools) {
    server.registerTool(
      tool.spec.name,
      {
        title: tool.spec.title,
        description: tool.spec.description,
        inputSchema: tool.input,
        outputSchema: tool.output,
        annotations: { title: tool.spec.title, ...tool.spec.annotations },
      },
      (args: unknown) => callTool(tool, args as Record<string, unknown>, options),
    );
  }
  leaveValidationToTheApi(server);
  return server;
}

/**
 * Arguments go to the HTTP API as they came, and its validation answers a bad one: the same
 * `validation_error` code, sentence and `details` an HTTP client gets, as every other failed
 * call is answered. The SDK would check them against the listed input schema first and answer
 * with a text of its own (`MCP error -32602: Input validation error: …`). The listed schemas
 * stay as they are. `validateToolInput` is the SDK's own step (1.x), replaced on this instance;
 * the MCP tests fail if a later SDK stops calling it.
 */
function leaveValidationToTheApi(server: McpServer): void {
  Object.assign(server, {
    validateToolInput: (_tool: unknown, args: Record<string, unknown> | undefined) =>
      Promise.resolve(args ?? {}),
  });
}

async function callTool(
  tool: CompiledTool,
  args: Record<string, unknown>,
  options: ServerOptions,
): Promise<CallToolResult> {
  const { spec } = tool;
  // A path parameter left out or empty would name another route (or none): refused here as
  // the API refuses any other missing field.
  const missing = [...tool.places]
    .filter(([name, place]) => place === 'path' && (args[name] ?? '') === '')
    .map(([field]) => ({ field, message: 'is required' }));
  if (missing.length > 0) {
    return toolError({
      code: 'validation_error',
      error: validationHeadline(missing),
      details: missing,
    });
  }
  const call: ApiCall = {
    method: spec.method,
    path: spec.path,
    query: {},
    body: spec.method === 'POST' ? {} : undefined,
    authorization: spec.auth === 'player' ? options.playerAuthorization() : undefined,
  };
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined) continue;
    switch (tool.places.get(name)) {
      case 'path':
        call.path = call.path.replace(`{${name}}`, encodeURIComponent(asText(value)));
        break;
      case 'query':
        call.query[name] = asText(value);
        break;
      case 'body':
        call.body = { ...call.body, [name]: value };
        break;
      case 'receipt':
        call.authorization = `Bearer ${asText(value)}`;
        break;
      case undefined:
        break;
    }
  }
  const answer = await options.api(call);
  const envelope = (answer.body ?? {}) as {
    success?: boolean;
    data?: unknown;
    error?: string;
    code?: string;
    details?: unknown;
  };
  if (answer.status < 300 && envelope.success === true) {
    const structured = (tool.listed ? { items: envelope.data } : envelope.data) as Record<
      string,
      unknown
    >;
    const apiKey = structured.api_key;
    if (spec.name === 'register' && typeof apiKey === 'string') options.onRegistered?.(apiKey);
    return {
      content: [{ type: 'text', text: JSON.stringify(structured) }],
      structuredContent: structured,
    };
  }
  // The service's own code and sentence, so a model can act on it as an HTTP client would.
  const error = {
    code: envelope.code ?? 'internal_error',
    error: envelope.error ?? `The service answered HTTP ${answer.status}.`,
    ...(envelope.details === undefined ? {} : { details: envelope.details }),
    ...(answer.retryAfter === undefined ? {} : { retry_after_seconds: Number(answer.retryAfter) }),
  };
  return toolError(error);
}

const toolError = (error: Record<string, unknown>): CallToolResult => ({
  isError: true,
  content: [{ type: 'text', text: JSON.stringify(error) }],
});
