import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../context.js';
import { publicBaseUrl } from '../http/base-url.js';
import { JSON_RPC_ERRORS } from '../http/error-handler.js';
import { AppError } from '../http/errors.js';
import { injectedApi } from './api.js';
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
    const invalid = invalidRequest(request.body);
    if (invalid !== undefined) {
      return reply.code(400).send({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: invalid, data: { code: 'malformed_request' } },
      });
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
    // The answer is always JSON: a client that takes JSON (no Accept, `*/*`, `application/*`)
    // is served, although the transport wants both types named; any other Accept stays 406.
    if (takesJson(request.headers.accept)) headers.set('accept', MCP_ACCEPT);
    // The transport reads only the method, headers and body: the URL's origin is a constant, so
    // a Host that is no valid authority (`a b`, `x@y`) cannot fail the request.
    const response = await transport.handleRequest(
      new Request(`http://localhost${request.url}`, { method: 'POST', headers }),
      { parsedBody: request.body },
    );
    const text = await response.text();
    await server.close();
    reply.code(response.status);
    response.headers.forEach((value, name) => {
      reply.header(name, value);
    });
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
 * Why a JSON body is no JSON-RPC 2.0 request, or undefined if it is one (a message, or a batch
 * of them): JSON-RPC's -32600, Invalid Request. The transport answered such a body with -32700,
 * which is for a body that is not JSON at all, and an empty batch with nothing.
 */
/**
 * The most messages one POST may carry. MCP no longer has batches (2025-06-18); the transport
 * still takes them, and a long one would make one HTTP request do the work of many.
 */
const MAX_BATCH = 10;

function invalidRequest(body: unknown): string | undefined {
  if (Array.isArray(body)) {
    if (body.length === 0) return 'Invalid Request: an empty batch.';
    if (body.length > MAX_BATCH) {
      return `Invalid Request: a batch of ${body.length} messages; at most ${MAX_BATCH} are taken at once.`;
    }
    return body.map(invalidMessage).find((reason) => reason !== undefined);
  }
  return invalidMessage(body);
}

function invalidMessage(message: unknown): string | undefined {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) {
    return 'Invalid Request: a JSON-RPC message is an object.';
  }
  const { jsonrpc, method, id } = message as Record<string, unknown>;
  if (jsonrpc !== '2.0') return 'Invalid Request: "jsonrpc" must be "2.0".';
  if (id !== undefined && typeof id !== 'string' && typeof id !== 'number') {
    return 'Invalid Request: "id" must be a string or a number (or absent, for a notification).';
  }
  const isResponse = id !== undefined && ('result' in message || 'error' in message);
  if (typeof method !== 'string' && !isResponse) {
    return 'Invalid Request: "method" must be a string.';
  }
  return undefined;
}

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
