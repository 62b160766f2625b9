import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  ListToolsRequestSchema,
  type CallToolRequest,
  type CallToolResult,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { validationHeadline, type FieldProblem } from '../http/errors.js';
import { sha256Hex } from '../http/secrets.js';
import type { Api, ApiCall } from './api.js';
import type { CompiledTool } from './schemas.js';
import { shapeAnswer } from './views.js';
import { noKeyError, type McpTransport } from './words.js';

export interface ServerOptions {
  version: string;
  transport: McpTransport;
  /** Where the service is, for the instructions given to the model. */
  baseUrl: string;
  api: Api;
  /** The `Authorization` header to act as the player, when one is known. */
  playerAuthorization: () => string | undefined;
  /** Called with a key that `register` or `rotate_key` returned (stdio keeps it for the session). */
  onKey?: (apiKey: string) => void;
  /**
   * The player each credential acts as, learnt once from `GET /api/players/me` to fill the
   * `player_id` a tool defaults to: shared by the servers of one endpoint, so a stateless
   * transport does not spend a request of the caller's rate limit on it at every call.
   */
  callers?: CallerCache;
}

/** Player ids by the SHA-256 of the credential they were learnt with (never the key itself). */
export class CallerCache {
  private readonly ids = new Map<string, string>();

  constructor(private readonly capacity = 10_000) {}

  get(authorization: string): string | undefined {
    return this.ids.get(sha256Hex(authorization));
  }

  set(authorization: string, id: string): void {
    // Only a default's guess: a rotated key's entry leads to a call the API refuses (401).
    if (this.ids.size >= this.capacity) this.ids.clear();
    this.ids.set(sha256Hex(authorization), id);
  }
}

/**
 * The MCP server: `tools/list` answers the compiled tools as they are (JSON Schema with shared
 * `$defs`), `tools/call` turns a call into one request of the HTTP API. Both are answered by
 * handlers of the SDK's protocol server (`.server`), not `registerTool`, so that both stay
 * exactly as written here: an unknown tool is the JSON-RPC
 * error the MCP specification gives (-32602 "Unknown tool: …"), and arguments are checked by
 * the API itself, so a bad one gets the API's own `validation_error` sentence and details.
 */
export function createMcpServer(tools: CompiledTool[], options: ServerOptions): McpServer {
  const mcp = new McpServer(
    { name: 'bazaar', title: 'Bazaar', version: options.version },
    {
      instructions:
        'Bazaar has two areas. Capability discovery: search_catalog, list_categories and get_listing find documented tools, agents and ' +
        'frameworks; file_request asks the operators for what is missing (keep the receipt token). The negotiation game: ' +
        'register (or get_me with a key you hold), list_products, start_negotiation, then make_offer until the seller ' +
        'accepts or accept_counter_offer; get_player_stats and get_leaderboard show the score (market value bought per ' +
        'credit spent). Every field a tool’s output schema names is present in its answer (null where it has no value) unless its description says otherwise. ' +
        `The full guide: ${options.baseUrl}/agents.md`,
    },
  );
  const { server } = mcp;
  // Declared on the protocol server: declared to McpServer, it would install its own tool
  // handlers and announce `listChanged`, which a server that is never told of new tools
  // (and over HTTP, stateless) cannot keep.
  server.registerCapabilities({ tools: {} });
  const byName = new Map(tools.map((tool) => [tool.spec.name, tool]));
  const callers = options.callers ?? new CallerCache();

  server.setRequestHandler(ListToolsRequestSchema, (request) => {
    // Every tool is on the one page this answers: no cursor was ever given out to follow.
    if (request.params?.cursor !== undefined) {
      throw Object.assign(
        new Error(
          'Invalid params: params.cursor: every tool is listed at once, there is no page to follow.',
        ),
        { code: ErrorCode.InvalidParams },
      );
    }
    return {
      tools: tools.map(({ spec, inputSchema, outputSchema }) => ({
        name: spec.name,
        title: spec.title,
        description: spec.description,
        inputSchema,
        outputSchema,
        annotations: spec.annotations,
      })),
    };
  });

  server.setRequestHandler(ToolsCall, (call) => {
    // Checked against CallToolRequestSchema by the SDK before this runs (see ToolsCall).
    const request = call as unknown as CallToolRequest;
    const tool = byName.get(request.params.name);
    if (tool === undefined) {
      // A plain error keeps the message as the specification writes it (McpError prefixes it).
      throw Object.assign(new Error(`Unknown tool: ${request.params.name}`), {
        code: ErrorCode.InvalidParams,
      });
    }
    return callTool(tool, request.params.arguments ?? {}, { ...options, callers });
  });
  return mcp;
}

/**
 * `tools/call` as far as routing it goes. The SDK checks the whole request against
 * `CallToolRequestSchema` itself and answers a malformed one (`"arguments": "x"`) with -32602,
 * invalid params; registered with that schema, the request was parsed once more before that
 * check, and its failure answered as an internal error (-32603).
 */
const ToolsCall = z.looseObject({ method: z.literal('tools/call') });

type CallContext = ServerOptions & { callers: CallerCache };

/** A UTF-16 surrogate without its pair: text that has no UTF-8 form. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const asText = (value: unknown): string =>
  typeof value === 'string' ? value : JSON.stringify(value);

async function callTool(
  tool: CompiledTool,
  given: Record<string, unknown>,
  context: CallContext,
): Promise<CallToolResult> {
  const { spec } = tool;
  // An argument sent as null is taken as not sent, as the API takes a null optional field:
  // many clients write every argument they know of, null where they have no value.
  const sent = Object.entries(given).filter(([, value]) => value !== null);
  const args: Record<string, unknown> = { ...spec.defaults, ...Object.fromEntries(sent) };
  const problems: FieldProblem[] = Object.keys(given)
    .filter((name) => !tool.arguments.has(name))
    .map((field) => ({
      field,
      message: `is not an argument of ${spec.name} (it takes: ${[...tool.arguments.keys()].join(', ') || 'none'})`,
    }));
  // A path parameter left out or empty, a dot segment (which a URL resolves) or a value that
  // names another operation would reach another route (or none): refused here as the API
  // refuses any other bad field. So is a receipt token left out or empty: the call would reach
  // the API without one and be answered as a wrong token. Values in the path, the query string
  // or a header are single values: a list or an object is refused, not sent as its JSON text.
  for (const [name, { place, reserved }] of tool.arguments) {
    const value = args[name];
    const needed = (place === 'path' && name !== spec.caller) || place === 'receipt';
    if (needed && (value ?? '') === '') {
      problems.push({ field: name, message: 'is required' });
    } else if (place !== 'body' && value !== undefined && typeof value === 'object') {
      problems.push({ field: name, message: 'must be a string' });
    } else if (place !== 'body' && typeof value === 'string' && LONE_SURROGATE.test(value)) {
      // No URL or header can carry it (a JSON body can).
      problems.push({ field: name, message: 'must be text without a lone surrogate' });
    } else if (place === 'path' && (value === '.' || value === '..')) {
      problems.push({ field: name, message: `cannot be "${value}"` });
    } else if (typeof value === 'string' && reserved?.has(value) === true) {
      problems.push({
        field: name,
        message: `cannot be "${value}", which names another operation`,
      });
    }
  }
  if (problems.length > 0) {
    return toolError({
      code: 'validation_error',
      error: validationHeadline(problems),
      details: problems,
    });
  }
  const authorization = spec.auth === 'player' ? context.playerAuthorization() : undefined;
  if (spec.caller !== undefined && args[spec.caller] === undefined) {
    const me = await callerId(authorization, context);
    if (typeof me !== 'string') return me;
    args[spec.caller] = me;
  }
  const call: ApiCall = {
    method: spec.method,
    path: spec.path,
    query: {},
    body: spec.method === 'POST' ? {} : undefined,
    authorization,
  };
  for (const [name, value] of Object.entries(args)) {
    const target = tool.arguments.get(name);
    if (value === undefined || target === undefined) continue;
    switch (target.place) {
      case 'path':
        call.path = call.path.replace(`{${target.apiName}}`, encodeURIComponent(asText(value)));
        break;
      case 'query':
        call.query[target.apiName] = asText(value);
        break;
      case 'body':
        call.body = { ...call.body, [target.apiName]: value };
        break;
      case 'receipt':
        call.authorization = `Bearer ${asText(value)}`;
        break;
    }
  }
  const answer = await context.api(call);
  const envelope = (answer.body ?? {}) as Envelope;
  if (answer.status >= 300 || envelope.success !== true) {
    const named = { ...envelope, details: inToolNames(envelope.details, tool) };
    return failure(answer.status, named, answer.retryAfter, spec.auth, context.transport);
  }
  const data = shapeAnswer(envelope.data, spec);
  const structured = (
    tool.listed
      ? { items: data, ...(tool.paged ? { next_cursor: answer.nextCursor ?? null } : {}) }
      : data
  ) as Record<string, unknown>;
  const apiKey = structured.api_key;
  if (typeof apiKey === 'string' && (spec.name === 'register' || spec.name === 'rotate_key')) {
    context.onKey?.(apiKey);
  }
  return {
    content: [{ type: 'text', text: JSON.stringify(structured) }],
    structuredContent: structured,
  };
}

interface Envelope {
  success?: boolean;
  data?: unknown;
  error?: string;
  code?: string;
  details?: unknown;
}

/** The player the key names, asked of the API once per key and server. */
async function callerId(
  authorization: string | undefined,
  context: CallContext,
): Promise<string | CallToolResult> {
  const known = authorization === undefined ? undefined : context.callers.get(authorization);
  if (known !== undefined) return known;
  const answer = await context.api({
    method: 'GET',
    path: '/api/players/me',
    query: {},
    body: undefined,
    authorization,
  });
  const envelope = (answer.body ?? {}) as Envelope & { data?: { id?: unknown } };
  const id = envelope.data?.id;
  if (answer.status >= 300 || typeof id !== 'string' || authorization === undefined) {
    return failure(answer.status, envelope, answer.retryAfter, 'player', context.transport);
  }
  context.callers.set(authorization, id);
  return id;
}

/** The service's own code and sentence, so a model can act on it as an HTTP client would. */
/**
 * The API's field problems in the tool's own argument names: `player_id` where the operation's
 * path calls it `id`.
 */
function inToolNames(details: unknown, tool: CompiledTool): FieldProblem[] | undefined {
  if (!Array.isArray(details)) return undefined;
  const names = new Map([...tool.arguments].map(([name, { apiName }]) => [apiName, name]));
  return (details as FieldProblem[]).map((problem) => ({
    ...problem,
    field: names.get(problem.field) ?? problem.field,
  }));
}

function failure(
  status: number,
  envelope: Envelope,
  retryAfter: string | undefined,
  auth: CompiledTool['spec']['auth'],
  transport: McpTransport,
): CallToolResult {
  const code = envelope.code ?? 'internal_error';
  const details = Array.isArray(envelope.details) ? (envelope.details as FieldProblem[]) : [];
  return toolError({
    code,
    error:
      code === 'unauthorized' && auth === 'player'
        ? noKeyError(transport)
        : code === 'validation_error' && details.length > 0
          ? validationHeadline(details)
          : (envelope.error ?? `The service answered HTTP ${status}.`),
    ...(envelope.details === undefined ? {} : { details: envelope.details }),
    ...(retryAfter === undefined ? {} : { retry_after_seconds: Number(retryAfter) }),
  });
}

const toolError = (error: Record<string, unknown>): CallToolResult => ({
  isError: true,
  content: [{ type: 'text', text: JSON.stringify(error) }],
});

interface Issue {
  path: (string | number)[];
  message: string;
}

const isIssues = (value: unknown): value is Issue[] =>
  Array.isArray(value) &&
  value.length > 0 &&
  value.every(
    (item: Partial<Issue> | null) => typeof item?.message === 'string' && Array.isArray(item.path),
  );

/**
 * A request whose params the SDK's own schemas refuse (an `initialize` without
 * `protocolVersion`, a `tools/call` whose `arguments` is not an object) is answered with the
 * validator's issues as raw JSON text, and for `initialize` as an internal error (-32603). This
 * answers it as what it is, -32602 invalid params, in one sentence naming each field:
 * `Invalid params: params.protocolVersion: expected string, received undefined`.
 */
export function plainErrors<T extends Transport>(transport: T): T {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => send(plainError(message), options);
  return transport;
}

function plainError(message: JSONRPCMessage): JSONRPCMessage {
  if (!('error' in message)) return message;
  const text = message.error.message;
  const start = text.indexOf('[');
  if (start < 0) return message;
  let issues: unknown;
  try {
    issues = JSON.parse(text.slice(start));
  } catch {
    return message;
  }
  if (!isIssues(issues)) return message;
  const headline = text
    .slice(0, start)
    .replace(/^MCP error -?\d+:\s*/, '')
    .replace(/[:\s]+$/, '');
  const fields = issues.map(
    ({ path, message: said }) =>
      `${path.join('.') || 'params'}: ${said.replace(/^Invalid input:\s*/, '')}`,
  );
  return {
    ...message,
    error: {
      code: ErrorCode.InvalidParams,
      message: `${headline || 'Invalid params'}: ${fields.join('; ')}`,
    },
  };
}
