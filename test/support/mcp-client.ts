import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

export const CURRENT_REVISION = '2026-07-28';

export interface McpClientOptions {
  /** Pin the current revision; otherwise the client negotiates 2025-11-25 (the SDK default). */
  pinCurrent?: boolean;
  token?: string;
}

/** The official MCP client, connected over real HTTP to an endpoint of a listening app. */
export async function connectMcp(url: string, options: McpClientOptions = {}): Promise<Client> {
  const client = new Client(
    { name: 'vetrina-tests', version: '1.0.0' },
    options.pinCurrent ? { versionNegotiation: { mode: { pin: CURRENT_REVISION } } } : {},
  );
  const headers: Record<string, string> = options.token ? { authorization: `Bearer ${options.token}` } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}
