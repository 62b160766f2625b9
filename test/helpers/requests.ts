/** What the request tests read from the API: a receipt, the envelope, and a task that passes. */
export interface Receipt {
  id: string;
  token: string;
  status_url: string;
}

export interface Body<T = Record<string, unknown>> {
  success: boolean;
  data: T;
  error?: string;
  code?: string;
  details?: { field: string; message: string }[];
}

export const TASK = 'An MCP server for our read-only PostgreSQL replicas.';
