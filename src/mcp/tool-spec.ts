import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';

/**
 * Who a tool acts as: nobody (public), the player whose API key the MCP client holds, or the
 * holder of a request's receipt token (passed as the `receipt_token` argument).
 */
export type ToolAuth = 'none' | 'player' | 'receipt';

/**
 * One MCP tool: an operation of the HTTP API with words written for a model. Its input and
 * output schemas are taken from that operation in the OpenAPI document, so the limits and
 * field descriptions are the API's own.
 */
export interface ToolSpec {
  name: string;
  title: string;
  description: string;
  method: 'GET' | 'POST' | 'DELETE';
  /** The OpenAPI path, e.g. `/api/catalog/{id}`. */
  path: string;
  auth: ToolAuth;
  annotations: ToolAnnotations;
  /** Tool argument names for API parameters whose own name is not the game's snake_case one. */
  rename?: Record<string, string>;
  /** The argument that names a player and defaults to the caller's own (from the key). */
  caller?: string;
  /** Sent unless the call gives them: what keeps a default answer small. */
  defaults?: Record<string, string | number | boolean>;
  /** The compact answer: only these fields of each listed item, and none of `omit`. */
  view?: { itemFields?: string[]; omit?: string[] };
}

export const read: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
export const write = (options: { destructive: boolean; idempotent: boolean }): ToolAnnotations => ({
  readOnlyHint: false,
  destructiveHint: options.destructive,
  idempotentHint: options.idempotent,
  openWorldHint: false,
});
