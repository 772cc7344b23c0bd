import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TObject } from 'typebox';
import type { CatalogService } from '../catalog/queries/catalog-service.js';
import type { Config } from '../config.js';
import { admitKeyWithScope } from '../sandbox/admission.js';
import type { SandboxPrincipal } from '../sandbox/auth.js';
import type { CompletionHooks } from '../sandbox/checkout/checkout-service.js';
import type { Scope } from '../sandbox/scopes.js';
import type { SandboxServices } from '../sandbox/services.js';
import { ucpMetadata, type UcpAnswer, type UcpMetadata } from './envelope.js';
import { capabilitiesIncompatible, UcpOutcome } from './errors.js';
import { runOnce } from './idempotency.js';
import type { Negotiated } from './negotiation/negotiated.js';
import type { RootCapability } from './version.js';

/** What every operation describes, keyed or keyless. */
interface UcpOperationBase<Payload> {
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

/**
 * One UCP operation of the release, described once: the REST route under `/ucp/v1`
 * (src/ucp/rest/ucp-rest-plugin.ts) and the MCP tool on `/ucp/mcp` (src/ucp/mcp/) are
 * adapters that take its input in their binding's terms, negotiate, run it, and answer
 * in their binding's terms (docs/ucp.md, Adding an operation). Only an operation with a
 * scope takes an idempotency key: its records belong to the sandbox key.
 */
export type UcpOperation<Payload = unknown> = UcpOperationBase<Payload> &
  (
    | { scope?: undefined; idempotent?: false; idempotencyKeyRequiredOnMcp?: false }
    | {
        /** The sandbox key scope the operation needs (REST: the Authorization header; MCP: that of the MCP request). */
        scope: Scope;
        /**
         * Whether the operation takes an idempotency key (REST: the Idempotency-Key header; MCP:
         * meta["idempotency-key"]), honoured in runOperation (src/ucp/idempotency.ts).
         */
        idempotent?: boolean;
        /** With `idempotent`: the release's MCP binding requires the key for this tool (mcp.openrpc.json); REST's header stays optional. */
        idempotencyKeyRequiredOnMcp?: boolean;
      }
  );

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

/**
 * Runs `op` for a negotiated request, as both surfaces do: a platform that shares no
 * version of its capability gets the capabilities_incompatible outcome; a keyed
 * operation admits the key first (behind the sandbox's availability gate) and, given an
 * idempotency key, runs at most once per key and input (docs/ucp.md, Idempotency and
 * request ids); the answer gets its `ucp` field.
 */
export async function runOperation<Payload>(
  op: UcpOperation<Payload>,
  input: UcpInput<Payload>,
  call: Omit<UcpCall, 'principal'> & { idempotencyKey?: string },
  kit: UcpOperationKit,
): Promise<UcpAnswer> {
  const envelope = (status: 'success' | 'error') => ucpMetadata(call.negotiated, op.capability, status, kit.paymentHandlers);
  const bodyOf = (result: object | UcpOutcome): Record<string, unknown> =>
    result instanceof UcpOutcome
      ? { ucp: envelope('error'), ...op.requiredOnOutcome, messages: result.messages, ...(result.continueUrl !== undefined && { continue_url: result.continueUrl }) }
      : { ucp: envelope('success'), ...result };
  // A create answers its resource with 201 and a business outcome with 200 (checkout-rest.md, Business Outcomes).
  const statusOf = (body: Record<string, unknown>) => (op.creates && (body.ucp as UcpMetadata).status === 'success' ? 201 : 200);
  const answer = (body: Record<string, unknown>): UcpAnswer => ({ statusCode: statusOf(body), body });
  if (!call.negotiated.capabilities.has(op.capability)) return answer(bodyOf(capabilitiesIncompatible(op.capability, kit.continueUrl)));
  if (op.scope === undefined) return answer(bodyOf(await op.run(input, call)));
  const { scope } = op;
  return kit.sandbox.whenAvailable(async () => {
    const principal = await admitKeyWithScope(kit.sandbox, call.request, call.reply, scope);
    const run = async () => bodyOf(await op.run(input, { ...call, principal }));
    const { idempotencyKey } = call;
    if (!op.idempotent || idempotencyKey === undefined) return answer(await run());
    return runOnce(kit.sandbox, { keyId: principal.keyId, idempotencyKey, operation: op.name, input: { id: input.id, payload: input.payload } }, run, statusOf);
  });
}
