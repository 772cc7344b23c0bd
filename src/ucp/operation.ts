import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TObject } from 'typebox';
import type { CatalogService } from '../catalog/queries/catalog-service.js';
import type { Config } from '../config.js';
import { admitKeyWithScope } from '../sandbox/admission.js';
import type { SandboxPrincipal } from '../sandbox/auth.js';
import type { CompletionHooks } from '../sandbox/checkout/checkout-service.js';
import type { Scope } from '../sandbox/scopes.js';
import type { SandboxServices } from '../sandbox/services.js';
import { ucpMetadata } from './envelope.js';
import { capabilitiesIncompatible, UcpOutcome } from './errors.js';
import type { Negotiated } from './negotiation/negotiated.js';
import type { RootCapability } from './version.js';

/**
 * One UCP operation of the release, described once: the REST route under `/ucp/v1`
 * (src/ucp/rest/ucp-rest-plugin.ts) and the MCP tool on `/ucp/mcp` (src/ucp/mcp/) are
 * adapters that take its input in their binding's terms, negotiate, run it, and answer
 * in their binding's terms (docs/ucp.md, Adding an operation).
 */
export interface UcpOperation<Payload = unknown> {
  /** The release's name: the REST operationId and the MCP tool name (e.g. `create_checkout`). */
  name: string;
  /** REST summary and MCP title. */
  title: string;
  /** What it does, for both surfaces; numbers from configuration rendered from it. */
  description: string;
  /** Its root capability (overview.md, Response Capability Selection): it must be negotiated, and picks the `ucp` field of the answer. */
  capability: RootCapability;
  /** The REST route, as the release's OpenAPI writes it under the endpoint: `POST /checkout-sessions/{id}/complete`. */
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  /** REST answers a success with 201 (the create operations); else 200. */
  creates?: boolean;
  /** The request payload: the REST body, and the MCP argument named `name` (`catalog`, `cart`, `checkout`). */
  payload?: { name: string; schema: TObject };
  /** The fields of a successful answer besides `ucp` (which the surfaces add): the document's and the MCP result's shape. */
  result: TObject;
  /** The sandbox key scope the operation needs (REST: the Authorization header; MCP: that of the MCP request); none: keyless. */
  scope?: Scope;
  /** Whether the operation takes an idempotency key (REST: the Idempotency-Key header; MCP: meta["idempotency-key"]). */
  idempotent?: boolean;
  /** Protocol errors it answers besides negotiation, key and limits, by REST status, for the document: `{ 404: 'not_found: ...' }`. */
  errors?: Record<number, string>;
  /**
   * What a business outcome (ucp.status `error`) still carries where the release's response
   * schema requires it for the operation: catalog search and lookup answer no error
   * envelope, so an outcome of theirs has `products: []`.
   */
  requiredOnOutcome?: Record<string, unknown>;
  /** It changes nothing (an MCP annotation). */
  readOnly: boolean;
  /** Runs it: the answer's fields besides `ucp`, or a business outcome; a protocol error is thrown (src/ucp/errors.ts). */
  run(input: UcpInput<Payload>, call: UcpCall): Promise<object | UcpOutcome>;
}

/** An operation's input, whatever the binding. */
export interface UcpInput<Payload> {
  /** The resource id: the REST path's `{id}`, the MCP argument `id`. */
  id?: string;
  /** The payload, checked against `payload.schema`; undefined for an operation without one. */
  payload: Payload;
}

/** What an operation runs with besides its input. */
export interface UcpCall {
  negotiated: Negotiated;
  /** The HTTP exchange it arrived on (REST, or the MCP request). */
  request: FastifyRequest;
  reply: FastifyReply;
  idempotencyKey?: string;
  /** The admitted sandbox key, for an operation with a scope. */
  principal?: SandboxPrincipal;
}

/** What operations are built with, and what the surfaces need to run them. */
export interface UcpOperationKit {
  config: Config;
  catalog: CatalogService;
  sandbox: SandboxServices;
  /** Where a buyer can carry on without the agent (the storefront). */
  continueUrl: string;
  /** The payment handlers of checkout answers, as they are now. */
  paymentHandlers: () => Record<string, object[]>;
  /** What complete_checkout passes to the sandbox's `complete`: the order event to the platform's order webhook (src/ucp/order-events.ts). */
  orderEvents: (negotiated: Negotiated) => CompletionHooks;
}

/** An operation's answer: `created` (201 on REST) or `ok` (200), and the body with its `ucp` field. */
export interface UcpAnswer {
  outcome: 'created' | 'ok';
  body: Record<string, unknown>;
}

/**
 * Runs `op` for a negotiated request, as both surfaces do: a platform that shares no
 * version of its capability gets the capabilities_incompatible outcome; a keyed
 * operation admits the key first (behind the sandbox's availability gate); the answer
 * gets its `ucp` field.
 */
export async function runOperation<Payload>(
  op: UcpOperation<Payload>,
  input: UcpInput<Payload>,
  call: Omit<UcpCall, 'principal'>,
  kit: UcpOperationKit,
): Promise<UcpAnswer> {
  const envelope = (status: 'success' | 'error') => ucpMetadata(call.negotiated, op.capability, status, kit.paymentHandlers);
  const outcome = (result: UcpOutcome): UcpAnswer => ({
    outcome: 'ok',
    body: { ucp: envelope('error'), ...op.requiredOnOutcome, messages: result.messages, ...(result.continueUrl !== undefined && { continue_url: result.continueUrl }) },
  });
  if (!call.negotiated.capabilities.has(op.capability)) return outcome(capabilitiesIncompatible(op.capability, kit.continueUrl));
  const result = await (op.scope === undefined
    ? op.run(input, call)
    : kit.sandbox.whenAvailable(async () => op.run(input, { ...call, principal: await admitKeyWithScope(kit.sandbox, call.request, call.reply, op.scope!) })));
  if (result instanceof UcpOutcome) return outcome(result);
  return { outcome: op.creates ? 'created' : 'ok', body: { ucp: envelope('success'), ...result } };
}
