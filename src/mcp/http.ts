import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../context.js';
import { publicBaseUrl } from '../http/base-url.js';
import { JSON_RPC_ERRORS } from '../http/error-handler.js';
import { AppError } from '../http/errors.js';
import { injectedApi } from './api.js';
import { compileTools, type CompiledTool, type OpenApiDocument } from './schemas.js';
import { CallerCache, createMcpServer } from './server.js';
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
    await server.connect(transport);
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value === 'string') headers.set(name, value);
    }
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
