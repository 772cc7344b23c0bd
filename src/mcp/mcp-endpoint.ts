import {
  createMcpHandler,
  hostHeaderValidationResponse,
  McpServer,
  originValidationResponse,
} from '@modelcontextprotocol/server';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { ToolContext } from './tool-result.js';

export interface McpEndpointOptions {
  path: string;
  name: string;
  version: string;
  instructions: string;
  summary: string;
  description: string;
  allowedHosts: string[];
  /** Registers this endpoint's tools on a fresh server for one HTTP exchange. */
  registerTools: (server: McpServer, context: ToolContext) => void;
}

/** Carries the Fastify exchange through the SDK's handler to the per-request server factory. */
interface ExchangeAuthInfo {
  token: string;
  clientId: string;
  scopes: string[];
  extra: { context: ToolContext };
}

/**
 * A stateless Streamable HTTP MCP endpoint: every request gets a fresh server from
 * the factory (the SDK's createMcpHandler), so any instance can answer any request.
 * The handler speaks the current revision and serves 2025-era clients statelessly;
 * GET and DELETE (session operations) are answered 405 by it. Host and Origin are
 * checked against an allow-list first, against DNS rebinding.
 */
export function registerMcpEndpoint(app: FastifyInstance, options: McpEndpointOptions): void {
  const handler = createMcpHandler(
    (ctx) => {
      const server = new McpServer(
        { name: options.name, version: options.version },
        { instructions: options.instructions, capabilities: { tools: {} } },
      );
      const { context } = (ctx.authInfo as ExchangeAuthInfo | undefined)!.extra;
      options.registerTools(server, context);
      return server;
    },
    {
      onerror: (error) => app.log.warn({ err: error }, 'MCP request rejected'),
    },
  );
  app.addHook('onClose', async () => handler.close());

  const serve = async (request: FastifyRequest, reply: ToolContext['reply']) => {
    const webRequest = toWebRequest(request);
    const rejected =
      hostHeaderValidationResponse(webRequest, options.allowedHosts) ??
      originValidationResponse(webRequest, options.allowedHosts);
    if (rejected) return rejected;
    const authInfo: ExchangeAuthInfo = { token: '', clientId: 'mcp', scopes: [], extra: { context: { request, reply } } };
    return handler.fetch(webRequest, { parsedBody: request.body, authInfo });
  };

  app.post(
    options.path,
    {
      schema: {
        operationId: options.name.replace(/\W+/g, '_'),
        tags: ['discovery'],
        summary: options.summary,
        description: options.description,
        body: Type.Unknown({ description: 'A JSON-RPC 2.0 message (MCP Streamable HTTP).' }),
      },
    },
    serve,
  );
  for (const method of ['GET', 'DELETE'] as const) {
    app.route({ method, url: options.path, schema: { hide: true }, handler: serve });
  }
}

function toWebRequest(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || name === 'content-length') continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  const url = new URL(request.url, `http://${request.headers.host ?? 'localhost'}`);
  const hasBody = request.method === 'POST' && request.body !== undefined;
  return new Request(url, { method: request.method, headers, body: hasBody ? JSON.stringify(request.body) : null });
}
