import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export const transports = ['http', 'stdio'] as const;
export type McpKind = (typeof transports)[number];

export type Structured = Record<string, unknown>;

export interface ToolAnswer {
  isError: boolean;
  data: Structured;
  text: string;
  /** The size of the whole result as sent (text and structured content). */
  bytes: number;
}

/** Calls a tool through the SDK's own client, as any MCP host would. */
export async function call(
  client: Client,
  name: string,
  args: Structured = {},
): Promise<ToolAnswer> {
  const result = await client.callTool({ name, arguments: args });
  const content = result.content as { type: string; text: string }[];
  return {
    isError: result.isError === true,
    data: (result.structuredContent ?? {}) as Structured,
    text: content[0]?.text ?? '',
    bytes: Buffer.byteLength(JSON.stringify(result)),
  };
}

/** The JSON error text of a failed tool call. */
export const errorOf = (answer: ToolAnswer) =>
  JSON.parse(answer.text) as { code: string; error: string; details?: unknown };

/**
 * Clients of the service at `base()`: over Streamable HTTP at /mcp (the key in the
 * Authorization header), or over stdio from the source of `npm run mcp` (the key in
 * BAZAAR_API_KEY) — a host configured with a key alone.
 */
export function mcpClients(base: () => string) {
  const open: Client[] = [];
  return {
    async connect(kind: McpKind, apiKey?: string): Promise<Client> {
      const client = new Client({ name: 'bazaar-test', version: '1.0.0' });
      await client.connect(
        kind === 'http'
          ? new StreamableHTTPClientTransport(new URL(`${base()}/mcp`), {
              requestInit: {
                headers: apiKey === undefined ? {} : { authorization: `Bearer ${apiKey}` },
              },
            })
          : new StdioClientTransport({
              command: process.execPath,
              args: ['--import', 'tsx', 'src/mcp/stdio.ts'],
              env: {
                PATH: process.env.PATH ?? '',
                BAZAAR_URL: base(),
                ...(apiKey === undefined ? {} : { BAZAAR_API_KEY: apiKey }),
              },
              stderr: 'pipe',
            }),
      );
      open.push(client);
      // Listing the tools makes the client check every answer against its output schema.
      await client.listTools();
      return client;
    },
    closeAll: () => Promise.all(open.map((client) => client.close())),
  };
}
