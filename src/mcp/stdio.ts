import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { fetchedApi } from './api.js';
import { compileTools, type OpenApiDocument } from './schemas.js';
import { createMcpServer, plainErrors } from './server.js';
import { MessageLines } from './stdio-lines.js';
import { toolSpecs } from './tools.js';
import { statedGameNumbers } from './words.js';

/**
 * The MCP server over stdio, for agent clients that launch local servers (`npm run -s mcp`).
 * It calls the HTTP API of the service at BAZAAR_URL, acting as the player whose key is
 * BAZAAR_API_KEY (or the one `register` returns, for this session). stdout carries the
 * protocol, so everything else goes to stderr.
 */
async function main(): Promise<void> {
  const baseUrl = serviceUrl(process.env.BAZAAR_URL);
  let apiKey = process.env.BAZAAR_API_KEY?.trim() || undefined;

  const response = await fetch(`${baseUrl}/openapi.json`).catch((error: unknown) => {
    const unset = process.env.BAZAAR_URL?.trim() ? '' : ` (not set, so ${DEFAULT_URL})`;
    throw new Error(
      `Bazaar is not reachable at ${baseUrl}: ${(error as Error).message}. The service must be ` +
        `running at BAZAAR_URL${unset} when this server starts: start it, or set BAZAAR_URL to its address ` +
        '(BAZAAR_URL=https://bazaar.example.com npm run -s mcp, or in the "env" of the client\'s configuration).',
    );
  });
  if (!response.ok) {
    throw new Error(
      `${baseUrl}/openapi.json answered HTTP ${response.status}; is BAZAAR_URL right?`,
    );
  }
  const document = (await response.json()) as OpenApiDocument;

  const tools = compileTools(document, toolSpecs('stdio', statedGameNumbers(document.info)));
  const server = createMcpServer(tools, {
    version: document.info.version,
    transport: 'stdio',
    baseUrl,
    api: fetchedApi(baseUrl),
    playerAuthorization: () => (apiKey === undefined ? undefined : `Bearer ${apiKey}`),
    // The key register or rotate_key just returned: the session acts as that player from now on,
    // as the tools say (a rotated key also replaces one that stopped working).
    onKey: (key) => {
      apiKey = key;
    },
  });
  // Lines that are no JSON-RPC message are answered here; the transport reads the rest.
  const lines = new MessageLines(process.stdout);
  process.stdin.pipe(lines);
  await server.connect(plainErrors(new StdioServerTransport(lines, process.stdout)));
}

const DEFAULT_URL = 'http://localhost:3000';

function serviceUrl(raw: string | undefined): string {
  const value = raw?.trim() || DEFAULT_URL;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`BAZAAR_URL must be a URL such as http://localhost:3000, got "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`BAZAAR_URL must start with http: or https:, got "${value}"`);
  }
  // Never echoed: what it holds may be a password.
  if (url.username !== '' || url.password !== '') {
    throw new Error(
      "BAZAAR_URL must not hold a user name or password: give the service's address only (the API key goes in BAZAAR_API_KEY).",
    );
  }
  return value.replace(/\/+$/, '');
}

try {
  await main();
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
}
