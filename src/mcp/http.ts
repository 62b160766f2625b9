import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../context.js';
import { publicBaseUrl } from '../http/base-url.js';
import { JSON_RPC_ERRORS } from '../http/error-handler.js';
import { AppError } from '../http/errors.js';
import { injectedApi } from './api.js';
import { invalidAnswer, invalidMessage, isRecord, usableId } from './jsonrpc.js';
import { compileTools, type CompiledTool, type OpenApiDocument } from './schemas.js';
import { CallerCache, createMcpServer, plainErrors } from './server.js';
import { toolSpecs } from './tools.js';
import { gameNumbers } from './words.js';

/**
 * The MCP endpoint (Streamable HTTP, stateless): each POST is answered by a fresh server whose
 * tools call this app's own routes with the caller's `Authorization` header.
 */
export const mcpRoutes: FastifyPluginAsync<AppContext & { version: string }> = (
  app,
  { config, version },
) => {
  // Built on first use: the OpenAPI document is complete only once every route is registered.
  let tools: CompiledTool[] | undefined;
  const callers = new CallerCache();

  const options = { schema: { hide: true }, config: JSON_RPC_ERRORS };
  app.post('/mcp', options, async (request, reply) => {
    tools ??= compileTools(
      app.swagger() as unknown as OpenApiDocument,
      toolSpecs('http', gameNumbers(config)),
    );
    // DNS rebinding and other sites' pages: where the service names the origins that may call
    // it, a browser's request from any other is refused (with `*`, the default, none is).
    const origin = request.headers.origin;
    if (
      origin !== undefined &&
      config.corsOrigins !== null &&
      !config.corsOrigins.includes(origin)
    ) {
      throw new AppError('forbidden', 'Requests from this Origin are not accepted here.');
    }
    // Faults of the POST itself are answered before its body is read as JSON-RPC, the same
    // whatever JSON the body holds (a body that is no JSON was refused by the parser first). The answer is always JSON, so a client that takes it (no
    // Accept, `*/*`, `application/*`) is served: the transport's own 406 said that both JSON
    // and event streams must be accepted, which is not so here.
    if (!takesJson(request.headers.accept)) {
      throw new AppError(
        'not_acceptable',
        'This endpoint answers in JSON only: send an Accept header that takes application/json ' +
          '(such as "application/json, text/event-stream", as MCP clients do, or */*), or none.',
      );
    }
    // A version this server does not speak is said to be one, never taken for a later version
    // that has no batches.
    const protocolVersion = request.headers['mcp-protocol-version'];
    if (
      protocolVersion !== undefined &&
      !supported(protocolVersion) &&
      !isInitialize(request.body)
    ) {
      throw new AppError(
        'malformed_request',
        `Unsupported protocol version: ${JSON.stringify(String(protocolVersion).slice(0, 40))}; send the ` +
          `MCP-Protocol-Version initialize agreed on (this server speaks ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}).`,
      );
    }
    // No body at all is taken by the JSON parser as none (as on the API's routes); here it is
    // what a body of spaces is, no JSON, not a value that is no JSON-RPC message.
    if (request.body === undefined) {
      throw new AppError(
        'invalid_json',
        'The body is not valid JSON: it is empty; send a JSON-RPC message.',
      );
    }
    const invalid = invalidRequest(request.body, protocolVersion);
    if (invalid !== undefined) {
      // A single message keeps its id where it has a usable one, as in a batch.
      const id = Array.isArray(request.body) ? null : usableId(request.body);
      return reply.code(400).send(invalidAnswer(invalid, id));
    }
    // A batch is answered for its valid messages, with an error for each invalid one.
    const batch = Array.isArray(request.body) ? (request.body as unknown[]) : undefined;
    const problems = batch?.map(invalidMessage) ?? [];
    const refused = batch === undefined ? [] : refusedIn(batch, problems);
    // A cancellation can only name a request of its own batch (each POST is answered whole):
    // it is ignored, as MCP allows, rather than leave that request without an answer.
    const taken = batch?.filter(
      (message, i) => problems[i] === undefined && !isCancellation(message),
    );
    if (taken !== undefined && taken.length === 0) {
      return refused.length === 0 ? reply.code(202).send() : reply.code(400).send(refused);
    }
    const authorization = request.headers.authorization;
    const server = createMcpServer(tools, {
      version,
      transport: 'http',
      baseUrl: publicBaseUrl(request, config),
      api: injectedApi(app, request),
      playerAuthorization: () => authorization,
      callers,
    });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(plainErrors(transport));
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value === 'string') headers.set(name, value);
    }
    // Any client that takes JSON was let through above; the transport wants both types named.
    headers.set('accept', MCP_ACCEPT);
    // The transport reads only the method, headers and body: the URL's origin is a constant, so
    // a Host that is no valid authority (`a b`, `x@y`) cannot fail the request.
    const response = await transport.handleRequest(
      new Request(`http://localhost${request.url}`, { method: 'POST', headers }),
      { parsedBody: taken ?? request.body },
    );
    const text = await response.text();
    await server.close();
    reply.code(response.status);
    response.headers.forEach((value, name) => {
      reply.header(name, value);
    });
    // A batch's answer is an array (JSON-RPC 2.0 §6), even of one response.
    if (batch !== undefined && response.ok) {
      const answers = text === '' ? [] : (JSON.parse(text) as unknown);
      const all: unknown[] = [
        ...(Array.isArray(answers) ? (answers as unknown[]) : [answers]),
        ...refused,
      ];
      if (all.length === 0) return reply.send();
      return reply.code(200).header('content-type', 'application/json').send(JSON.stringify(all));
    }
    return reply.send(text === '' ? undefined : text);
  });

  // Stateless: no server-initiated stream to open (GET) and no session to end (DELETE); any
  // other method is answered the same way, as JSON-RPC.
  const onlyPost = () => {
    throw new AppError(
      'method_not_allowed',
      'The MCP endpoint takes POST only (stateless Streamable HTTP).',
      {
        headers: { allow: 'POST' },
      },
    );
  };
  app.route({
    ...options,
    method: ['GET', 'DELETE', 'PUT', 'PATCH'],
    url: '/mcp',
    handler: onlyPost,
  });
  return Promise.resolve();
};

/**
 * The most messages one POST may carry. MCP no longer has batches (2025-06-18); the transport
 * still takes them, and a long one would make one HTTP request do the work of many.
 */
const MAX_BATCH = 10;

const supported = (version: string | string[]): boolean =>
  typeof version === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(version);

/**
 * An `initialize` request, which is where a version is agreed on: its header is not checked
 * (MCP asks for it only on the requests after), so a client newer than this server still meets it
 * on a version both speak.
 */
const isInitialize = (body: unknown) => isRecord(body) && body.method === 'initialize';

/** The first MCP version without JSON-RPC batches. */
const FIRST_WITHOUT_BATCHES = '2025-06-18';

/**
 * Why a JSON body cannot be answered as JSON-RPC 2.0 at all (a single message that is not one,
 * a batch from a client whose MCP version has none, an empty or overlong batch, a batch naming
 * one request id twice), or undefined. The transport answered such a body with -32700, which is
 * for a body that is not JSON, and an empty batch with nothing.
 */
function invalidRequest(body: unknown, version: string | string[] | undefined): string | undefined {
  if (!Array.isArray(body)) return invalidMessage(body);
  // A client that negotiated a version without batches sends none (the versions this server
  // speaks are dates, which compare as text; any other was refused before).
  if (typeof version === 'string' && version >= FIRST_WITHOUT_BATCHES) {
    return `Invalid Request: MCP ${version} has no batches (they ended with ${FIRST_WITHOUT_BATCHES}); send one message per POST.`;
  }
  if (body.length === 0) return 'Invalid Request: an empty batch.';
  if (body.length > MAX_BATCH) {
    return `Invalid Request: a batch of ${body.length} messages; at most ${MAX_BATCH} are taken at once.`;
  }
  const ids = body.flatMap((message) =>
    isRecord(message) && 'method' in message && message.id !== undefined ? [message.id] : [],
  );
  if (new Set(ids).size < ids.length) {
    return 'Invalid Request: two requests of the batch have the same id; each needs its own.';
  }
  return undefined;
}

/** The errors of a batch's invalid messages, each with its id where it has a usable one. */
function refusedIn(batch: unknown[], problems: (string | undefined)[]) {
  return batch.flatMap((message, i) => {
    const problem = problems[i];
    return problem === undefined ? [] : [invalidAnswer(problem, usableId(message))];
  });
}

/** A cancellation notification (one with an id is a request, answered as any other). */
const isCancellation = (message: unknown) =>
  isRecord(message) && message.method === 'notifications/cancelled' && !('id' in message);

/** What MCP clients send, and the transport requires, on a POST. */
const MCP_ACCEPT = 'application/json, text/event-stream';

/** Whether an Accept header lets the answer be JSON (a range with `q=0` refuses it). */
function takesJson(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === '') return true;
  return accept.split(',').some((range) => {
    const [type = '', ...params] = range.split(';').map((part) => part.trim().toLowerCase());
    const refused = params.some((param) => /^q=0(\.0*)?$/.test(param));
    return !refused && (type === 'application/json' || type === 'application/*' || type === '*/*');
  });
}
