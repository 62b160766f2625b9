import { readFileSync } from 'node:fs';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import type { AppContext } from '../../context.js';
import { publicBaseUrl } from '../../http/base-url.js';
import { Envelope } from '../../http/schemas.js';
import { toolSpecs } from '../../mcp/tools.js';
import { minutes } from '../haggle/haggle.errors.js';
import { DEFAULT_GAME_NUMBERS, gameNumbers, type GameNumbers } from '../../mcp/words.js';
import { sendAppShell, wantsHtml } from '../web/web.routes.js';

/** The guide for agents, kept with the other documentation and served with this service's address. */
const GUIDE_FILE = new URL('../../../docs/agents.md', import.meta.url);
/** The address the guide is written with; each copy served names the service's own. */
const GUIDE_BASE = 'http://localhost:3000';

/**
 * The guide states the default game settings; a service set otherwise says its own above the
 * first section.
 */
function withSettings(guide: string, game: GameNumbers): string {
  const { idleMinutes, maxActive, cooldownMinutes } = DEFAULT_GAME_NUMBERS;
  if (
    game.idleMinutes === idleMinutes &&
    game.maxActive === maxActive &&
    game.cooldownMinutes === cooldownMinutes
  ) {
    return guide;
  }
  const coolDown =
    game.cooldownMinutes === 0
      ? 'ending without a deal starts no cool-down'
      : `ending without a deal blocks that product for a ${game.cooldownMinutes}-minute cool-down`;
  const note =
    `> **This service's game settings are not the defaults this guide states:** a negotiation with no offer for ` +
    `${minutes(game.idleMinutes)} expires, a player may hold at most ${game.maxActive} active negotiations, and ` +
    `${coolDown} (\`info["x-game"]\` in the OpenAPI document states the same).\n\n`;
  return guide.replace('## Ways in', `${note}## Ways in`);
}

const Link = (description: string) => Type.String({ format: 'uri', description });

const Index = Type.Object({
  name: Type.Literal('Bazaar'),
  version: Type.String({ example: '0.3.0' }),
  description: Type.String(),
  links: Type.Object({
    openapi: Link('The OpenAPI 3.1 document: every operation, field, limit and error code.'),
    docs: Link('The same reference as a readable page.'),
    mcp: Link('The MCP endpoint (Streamable HTTP, stateless; POST only).'),
    llms_txt: Link('A summary with links, in the llms.txt format.'),
    agent_guide: Link(
      'The guide for agents in Markdown: keys, rules, limits, a worked negotiation.',
    ),
    health: Link('Answers while the process is up.'),
    readiness: Link('Answers while the database answers.'),
  }),
});
type Index = Static<typeof Index>;

const DESCRIPTION =
  'Capability discovery (search documented tools, agents and frameworks; file a request and follow it with a ' +
  'private receipt token) and a price-negotiation game (register, haggle with an automated seller, climb the leaderboard).';

function indexOf(baseUrl: string, version: string): Index {
  return {
    name: 'Bazaar',
    version,
    description: DESCRIPTION,
    links: {
      openapi: `${baseUrl}/openapi.json`,
      docs: `${baseUrl}/docs`,
      mcp: `${baseUrl}/mcp`,
      llms_txt: `${baseUrl}/llms.txt`,
      agent_guide: `${baseUrl}/agents.md`,
      health: `${baseUrl}/healthz`,
      readiness: `${baseUrl}/readyz`,
    },
  };
}

/** One line per MCP tool: the same capabilities the agent guide and the OpenAPI document list. */
const capabilities = (): string =>
  toolSpecs('http', DEFAULT_GAME_NUMBERS)
    .map((tool) => `- \`${tool.name}\` (\`${tool.method} ${tool.path}\`): ${tool.title}`)
    .join('\n');

function llmsTxt(baseUrl: string): string {
  return `# Bazaar

> ${DESCRIPTION} Use it through the REST API under ${baseUrl}/api, the MCP endpoint, or a client generated from the OpenAPI document.

Every JSON answer is \`{"success": true, "data": …}\` or \`{"success": false, "error": "<sentence>", "code": "<code>"}\`. Game calls other than registering, the product list (and its images) and the leaderboard need \`Authorization: Bearer <api_key>\`; the key is shown once, at registration.

What it can do — each MCP tool, and the REST operation it calls (the agent guide lists the same):

${capabilities()}

## Docs

- [Agent guide](${baseUrl}/agents.md): registering and keeping the key, the game's and the seller's rules, scoring, rate limits and backing off, catalog search, requests, and a worked negotiation
- [OpenAPI document](${baseUrl}/openapi.json): every operation, field, limit and error code (OpenAPI 3.1)
- [API reference](${baseUrl}/docs): the OpenAPI document as a readable page

## MCP

- [MCP endpoint](${baseUrl}/mcp): Streamable HTTP, stateless; game tools use the connection's \`Authorization: Bearer <api_key>\` header. Over stdio (\`npm run -s mcp\` in a checkout), \`BAZAAR_URL\` is the service's address (default http://localhost:3000; this one is ${baseUrl}), where it must be running when the stdio server starts, and \`BAZAAR_API_KEY\` sets the key. Tools that take \`player_id\` default to the key's own player (\`get_me\`)

## Optional

- [Service index](${baseUrl}/): these links as JSON (\`Accept: application/json\`)
- [Health](${baseUrl}/healthz): answers while the process is up
`;
}

export const homeRoutes: FastifyPluginAsyncTypebox<AppContext & { version: string }> = async (
  app,
  { config, version },
) => {
  const guide = withSettings(readFileSync(GUIDE_FILE, 'utf8'), gameNumbers(config));
  const tags = ['start'];

  app.get(
    '/',
    {
      schema: {
        tags,
        operationId: 'getIndex',
        summary: 'Where to start: links to everything',
        description:
          'With `Accept: application/json` (or no preference), the service index: name, version and links to the OpenAPI ' +
          'document, the reference page, the MCP endpoint, llms.txt, the agent guide and health. A browser asking for ' +
          '`text/html` gets the web app.',
        response: {
          200: {
            description: 'The service index, or the web app for a browser.',
            content: {
              'application/json': { schema: Envelope(Index, 'The service index.') },
              'text/html': { schema: Type.String() },
            },
          },
        },
      },
    },
    async (request, reply) => {
      reply.header('vary', 'accept');
      // Only a client that names HTML gets the web app; agents and `curl` (`*/*`) get the index.
      if (wantsHtml(request)) return sendAppShell(reply);
      return reply.send({
        success: true as const,
        data: indexOf(publicBaseUrl(request, config), version),
      });
    },
  );

  const text = (mediaType: string, description: string) => ({
    200: { description, content: { [mediaType]: { schema: { type: 'string' } } } },
  });

  app.get(
    '/llms.txt',
    {
      schema: {
        tags,
        operationId: 'getLlmsTxt',
        summary: 'The service in the llms.txt format',
        description:
          'A summary for language models with links to the agent guide, the OpenAPI document and the MCP endpoint.',
        response: text(
          'text/plain',
          'Markdown in the llms.txt format, with this service’s address in every link.',
        ),
      },
    },
    (request, reply) =>
      reply.type('text/plain; charset=utf-8').send(llmsTxt(publicBaseUrl(request, config))),
  );

  app.get(
    '/agents.md',
    {
      schema: {
        tags,
        operationId: 'getAgentGuide',
        summary: 'The guide for agents',
        description:
          'How to register and keep the key, the game’s rules and the seller’s public rules, scoring, rate limits and how to back off, ' +
          'how to search the catalog and file a request, and a worked negotiation whose commands run as they are.',
        response: text(
          'text/markdown',
          'The guide in Markdown, with this service’s address in every command.',
        ),
      },
    },
    (request, reply) =>
      reply
        .type('text/markdown; charset=utf-8')
        .send(guide.replaceAll(GUIDE_BASE, publicBaseUrl(request, config))),
  );
};
