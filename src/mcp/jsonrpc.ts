import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';

/** JSON-RPC 2.0 messages as MCP receives them, over HTTP and stdio alike. */

/** JSON-RPC's -32600, Invalid Request, for a message whose id is `id` (null when it has none). */
export const invalidAnswer = (message: string, id: string | number | null = null) => ({
  jsonrpc: '2.0',
  id,
  error: { code: -32600, message, data: { code: 'malformed_request' } },
});

/** A message's id when it is one a response may carry (a string or a whole number), else null. */
export function usableId(message: unknown): string | number | null {
  const id = isRecord(message) ? message.id : undefined;
  return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)) ? id : null;
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The members a JSON-RPC 2.0 message may have. */
const MEMBERS = new Set(['jsonrpc', 'id', 'method', 'params', 'result', 'error']);

/**
 * Why one message is no JSON-RPC 2.0 request, notification or response the MCP transport takes,
 * or undefined: in words for the common faults, else the first the transport's own schema finds
 * (`params._meta` that is no object, say), which it would otherwise answer as a parse error.
 */
export function invalidMessage(message: unknown): string | undefined {
  const problem = commonFault(message);
  if (problem !== undefined) return problem;
  const parsed = JSONRPCMessageSchema.safeParse(message);
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0];
  const where =
    issue === undefined || issue.path.length === 0 ? 'the message' : issue.path.join('.');
  const what = (issue?.message ?? 'is not a JSON-RPC message').replace(/^Invalid input:\s*/, '');
  return `Invalid Request: ${where}: ${what}.`;
}

function commonFault(message: unknown): string | undefined {
  if (!isRecord(message)) return 'Invalid Request: a JSON-RPC message is an object.';
  const { jsonrpc, method, id, params } = message;
  if (jsonrpc !== '2.0') return 'Invalid Request: "jsonrpc" must be "2.0".';
  const other = Object.keys(message).find((name) => !MEMBERS.has(name));
  if (other !== undefined) {
    return `Invalid Request: ${JSON.stringify(other.slice(0, 40))} is no member of a JSON-RPC message.`;
  }
  if (id !== undefined && typeof id !== 'string' && !Number.isSafeInteger(id)) {
    return 'Invalid Request: "id" must be a string or a whole number (or absent, for a notification).';
  }
  const isResponse = 'result' in message || 'error' in message;
  if (!('method' in message)) {
    if (!isResponse) return 'Invalid Request: "method" must be a string.';
    if (id === undefined) return 'Invalid Request: a response needs the "id" it answers.';
    if ('result' in message && 'error' in message) {
      return 'Invalid Request: a response has a "result" or an "error", not both.';
    }
    return undefined;
  }
  if (isResponse) {
    return 'Invalid Request: a message is a request ("method") or a response ("result" or "error"), not both.';
  }
  if (typeof method !== 'string') return 'Invalid Request: "method" must be a string.';
  if (params !== undefined && !isRecord(params)) {
    return 'Invalid Request: "params" must be an object when present.';
  }
  return undefined;
}
