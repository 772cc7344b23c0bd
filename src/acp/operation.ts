import type { FastifyRequest } from 'fastify';
import type { TObject, TSchema } from 'typebox';
import type { CatalogService } from '../catalog/queries/catalog-service.js';
import type { Config } from '../config.js';
import type { SandboxPrincipal } from '../sandbox/auth.js';
import type { Scope } from '../sandbox/scopes.js';
import type { SandboxServices } from '../sandbox/services.js';
import type { AcpOrderEvents } from './order-events/order-events.js';

/**
 * One ACP operation of the release, described once (docs/acp.md, Adding an operation):
 * the REST binding under `/acp` (src/acp/rest.ts) and, for the operations the release's
 * MCP binding has, the MCP tool on `/acp/mcp` (src/acp/mcp/acp-tools.ts) take its input
 * in their terms, check the protocol's headers or metadata, and run it as
 * src/acp/binding.ts does: the key admitted, once per idempotency key.
 */
export interface AcpOperation<Body = unknown> {
  /** The release's operationId (`createCheckoutSession`), or the sandbox's own for what the release leaves out (`putOrderWebhook`). */
  name: string;
  title: string;
  /** The release's MCP tool (openrpc.agentic_checkout.json: `create_checkout_session`); none for an operation its MCP binding lacks. */
  mcpTool?: string;
  /** What it does; numbers from configuration rendered into it. */
  description: string;
  /** POST, PUT and DELETE need an Idempotency-Key and run once per key. */
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** The release's path (or the sandbox's own), appended to `/acp`, with at most one path parameter named as the release names it (`{checkout_session_id}`, `{id}`). */
  path: string;
  /** The status of a success: 201 for the creations, else 200. */
  successStatus: 200 | 201;
  /** The request body; `required: false` takes none as `{}`. */
  body?: { schema: TObject; required: boolean };
  /** The answer of a success, for the document. */
  result: TSchema;
  /** The sandbox scope it needs (docs/acp.md, Keys and scopes). */
  scope: Scope;
  /** Errors it answers besides the protocol's (API version, idempotency, key, limits), by status, for the document. */
  errors: Record<number, string>;
  /** Runs it: the answer of a success; a refusal is thrown as an AcpProblem (src/acp/errors.ts). */
  run(input: AcpInput<Body>, call: AcpCall): Promise<object>;
}

export interface AcpInput<Body> {
  /** The path's parameter, when it has one. */
  id?: string;
  body: Body;
}

export interface AcpCall {
  /** The admitted sandbox key. */
  principal: SandboxPrincipal;
  /** The HTTP request it arrived on: the REST request, or the MCP request of a tool call. */
  request: FastifyRequest;
}

/** What operations are built with. */
export interface AcpOperationKit {
  config: Config;
  catalog: CatalogService;
  sandbox: SandboxServices;
  /** The order webhooks of sandbox keys and their orders' events (docs/acp.md, Order events). */
  orderEvents: AcpOrderEvents;
}
