import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import type { AppContext } from './context.js';
import type { Store } from './db/database.js';
import { randomSecret, settingOrCreate } from './db/settings.js';
import { publicBaseUrl } from './http/base-url.js';
import { shuttingDown } from './http/errors.js';
import { documentHeaders } from './http/openapi.js';
import { ErrorBody } from './http/schemas.js';
import { validatorCompiler } from './http/validation.js';
import { registerRateLimits } from './http/rate-limit.js';
import { corsHeaders, registerCors } from './http/cors.js';
import { jsonBodyParser } from './http/json-body.js';
import { mcpRoutes } from './mcp/http.js';
import {
  answerClientError,
  answerFrameworkError,
  installErrorHandling,
} from './http/error-handler.js';
import { requestIdOf } from './http/request-id.js';
import { registerResponseHeaders } from './http/response-headers.js';
import { logRequests, requestLoggerFactory } from './logger.js';
import { catalogRoutes } from './modules/catalog/catalog.routes.js';
import { requestsRoutes } from './modules/requests/requests.routes.js';
import { haggleRoutes } from './modules/haggle/haggle.routes.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { homeRoutes } from './modules/home/home.routes.js';
import { inventoryRoutes } from './modules/inventory/inventory.routes.js';
import { leaderboardRoutes } from './modules/leaderboard/leaderboard.routes.js';
import { playersRoutes } from './modules/players/players.routes.js';
import { productsRoutes } from './modules/products/products.routes.js';
import { transactionsRoutes } from './modules/transactions/transactions.routes.js';
import { sendNotFoundPage, webRoutes } from './modules/web/web.routes.js';

export const API_VERSION = '0.3.0';
export const BODY_LIMIT_BYTES = 64 * 1024;

export interface AppOptions {
  config: Config;
  store: Store;
  logger: FastifyBaseLogger;
}

/**
 * While the process shuts down, requests that still arrive on open connections (keep-alive,
 * pipelined) are answered 503 at once, as the envelope with `Retry-After` and the request's id
 * and log line, and their connection is closed (Fastify sets `Connection: close`); requests in
 * flight finish.
 */
function refuseWhileClosing(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onRequest', (_request, _reply, done) => {
    done(closing ? shuttingDown() : undefined);
  });
}

/** Builds the whole service without listening; tests call it and use `inject`. */
export async function buildApp(options: AppOptions) {
  const { config, store } = options;
  const setCorsHeaders = corsHeaders(config.corsOrigins);
  const app = Fastify({
    loggerInstance: options.logger,
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.trustProxy,
    requestIdHeader: false,
    genReqId: requestIdOf,
    // Long enough for any id the routes accept, so their schemas (not the router) answer it.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    frameworkErrors: (error, request, reply) => {
      // No hook has run: the answer still tells a page on another origin it may read it.
      setCorsHeaders(request, reply);
      answerFrameworkError(error, request, reply, sendNotFoundPage);
    },
    clientErrorHandler: (error, socket) => {
      answerClientError(error, socket, { anyOrigin: config.corsOrigins === null });
    },
    // Answered below, as the API's envelope (Fastify's own 503 has another shape).
    return503OnClosing: false,
    // Longer than the 60 s a load balancer commonly keeps an idle connection: it is the one to
    // close it, never this server under a request it has just sent (which it would answer 502).
    keepAliveTimeout: config.keepAliveTimeoutSeconds * 1000,
    // A request still arriving after 30 s is answered 408. Node applies its headers' limit (60 s
    // by default) when that is the longer, and looks for late requests every 30 s by default:
    // a stalled body waited 60-90 s for its answer. Both limits 30 s, looked for every second.
    requestTimeout: 30_000,
    // Node answers an HTTP/1.1 request without Host with a bare 400 of its own; the service
    // answers it (installErrorHandling), in the envelope.
    http: { headersTimeout: 30_000, connectionsCheckingInterval: 1_000, requireHostHeader: false },
    // logRequests writes one line per request instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: requestLoggerFactory,
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  // Bodies are JSON only; anything else is answered 415 rather than parsed as text.
  app.removeContentTypeParser('text/plain');
  // A `__proto__` key (or `constructor.prototype`), which could reach every object's prototype,
  // is dropped like any other field an operation does not take.
  const json = app.getDefaultJsonParser('remove', 'remove');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer' },
    jsonBodyParser((request, text, done) => void json(request, text, done)),
  );
  app.decorateReply('errorCode', undefined);
  logRequests(app);
  installErrorHandling(app, sendNotFoundPage);
  refuseWhileClosing(app);
  await registerResponseHeaders(app);
  app.addSchema(ErrorBody);

  await registerCors(app, config.corsOrigins);

  // An object of its own: the OpenAPI types do not know its `x-` extension.
  const info = {
    title: 'Bazaar API',
    version: API_VERSION,
    description:
      'Capability discovery (search documented tools, agents and frameworks; file a request and ' +
      'follow it with a private receipt token) and a price-negotiation game (register, haggle ' +
      'with an automated seller, climb the leaderboard). Every JSON response uses the envelope ' +
      '`{ success, data }` or `{ success: false, error, code }`.',
    // This service's game settings, for clients that state the rules (the stdio MCP server).
    'x-game': {
      idle_minutes: config.haggleIdleMinutes,
      max_active: config.haggleMaxActive,
      cooldown_minutes: config.haggleCooldownMinutes,
    },
  };
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info,
      servers: config.publicBaseUrl === null ? [] : [{ url: config.publicBaseUrl }],
      components: {
        securitySchemes: {
          apiKey: {
            type: 'http',
            scheme: 'bearer',
            description: 'A player API key (`hg_` + 48 hex characters) from POST /api/players.',
          },
          receiptToken: {
            type: 'http',
            scheme: 'bearer',
            description: 'The private receipt token (`rq_…`) returned when a request was filed.',
          },
        },
      },
      tags: [
        { name: 'catalog', description: 'Search and read documented capabilities.' },
        { name: 'requests', description: 'File a request and follow it with its receipt token.' },
        { name: 'players', description: 'Register, find players, read statistics.' },
        { name: 'products', description: 'The products the seller offers.' },
        { name: 'haggle', description: 'Negotiate with the automated seller.' },
        { name: 'game', description: 'Transactions, leaderboard and inventory.' },
        {
          name: 'start',
          description: 'Where to begin: the index, llms.txt and the guide for agents.',
        },
        { name: 'operations', description: 'Health checks.' },
      ],
    },
    transform: documentHeaders,
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) =>
        typeof json.$id === 'string' ? json.$id : `def-${i}`,
    },
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { deepLinking: true, validatorUrl: null },
    theme: { title: 'Bazaar API reference' },
    staticCSP: true,
    // Same reason as in registerResponseHeaders: /docs must render over plain HTTP. Swagger UI
    // sets a style element at run time, which the policy refused (an error in every visitor's
    // console): its styles may be inline on this page, scripts still may not.
    transformStaticCSP: (header) =>
      header
        .replace(/\s*upgrade-insecure-requests;?/, '')
        .replace(/style-src ([^;]*);/, "style-src $1 'unsafe-inline';"),
  });
  // Without PUBLIC_BASE_URL, the document names the address it was fetched from, so clients
  // generated from it call this service.
  app.get('/openapi.json', { schema: { hide: true } }, (request) =>
    config.publicBaseUrl === null
      ? { ...app.swagger(), servers: [{ url: publicBaseUrl(request, config) }] }
      : app.swagger(),
  );

  await registerRateLimits(app, config);
  app.decorateRequest('playerId', '');

  // Every process must price alike: the secret comes from the environment or, once created, the database.
  const sellerSecret =
    config.sellerSecret ?? (await settingOrCreate(store.db, 'seller_secret', randomSecret));
  const addressSecret = await settingOrCreate(store.db, 'address_secret', randomSecret);
  const context: AppContext = { config, store, sellerSecret, addressSecret };
  await app.register(homeRoutes, { ...context, version: API_VERSION });
  await app.register(healthRoutes, context);
  await app.register(catalogRoutes, context);
  await app.register(requestsRoutes, context);
  await app.register(playersRoutes, context);
  await app.register(productsRoutes, context);
  await app.register(haggleRoutes, context);
  await app.register(transactionsRoutes, context);
  await app.register(leaderboardRoutes, context);
  await app.register(inventoryRoutes, context);
  await app.register(mcpRoutes, { ...context, version: API_VERSION });
  await app.register(webRoutes);

  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
