/**
 * One MCP request as raw JSON-RPC over HTTP POST, the way a stateless 2025-11-25 client
 * or a 2026-07-28 client sends it: for the harnesses that drive thousands of calls (the
 * heap-growth test, the MCP benchmark, the soak), where the SDK client would cost more
 * than the server it measures. The SDK client itself is tested through mcp-client.ts.
 */
export interface McpRequestOptions {
  /** A 2026-07-28 request (per-request metadata and routing headers); else 2025-11-25. */
  modern?: boolean;
  /** A sandbox key for the Authorization header. */
  token?: string;
  id?: number;
}

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'vetrina-harness', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

export function mcpRequestInit(
  method: string,
  params: Record<string, unknown>,
  { modern = false, token, id = 1 }: McpRequestOptions = {},
): { method: 'POST'; headers: Record<string, string>; body: string } {
  const name = typeof params.name === 'string' ? params.name : undefined;
  return {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(token && { authorization: `Bearer ${token}` }),
      ...(modern
        ? { 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...(name && { 'mcp-name': name }) }
        : { 'mcp-protocol-version': '2025-11-25' }),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params: modern ? { ...params, _meta: MODERN_META } : params }),
  };
}
