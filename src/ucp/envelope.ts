import { Type } from 'typebox';
import type { Negotiated } from './negotiation/negotiated.js';
import { ROOT_CAPABILITIES, type RootCapability } from './version.js';

/** The `ucp` field of an answer (ucp.json, the response variants). */
export interface UcpMetadata {
  version: string;
  status: 'success' | 'error';
  capabilities: Record<string, { version: string }[]>;
  payment_handlers?: Record<string, object[]>;
}

/**
 * An operation's answer, whatever the binding: its REST status (201 for a created
 * resource, 200 otherwise, business outcomes included), the body with its `ucp` field,
 * and on a replay (src/ucp/idempotency.ts) the recorded JSON, which REST sends as it is.
 */
export interface UcpAnswer {
  statusCode: number;
  body: Record<string, unknown>;
  replayed?: string;
}

/**
 * overview.md, Response Capability Selection: of the negotiated capabilities, those
 * relevant to an operation whose root capability is `root`: the root itself and every
 * extension extending it.
 */
export function relevantCapabilities(negotiated: Negotiated, root: RootCapability): Record<string, { version: string }[]> {
  const relevant: Record<string, { version: string }[]> = {};
  for (const [name, { version, extends: parents }] of negotiated.capabilities) {
    if (name === root || parents?.includes(root)) relevant[name] = [{ version }];
  }
  return relevant;
}

/**
 * The `ucp` field of an answer of an operation of `root`: the negotiated version, the
 * relevant capabilities, and for checkout the payment handlers (ucp.json,
 * response_checkout_schema requires them). `status` is `error` for a business outcome
 * with no resource (src/ucp/errors.ts, UcpOutcome).
 */
export function ucpMetadata(
  negotiated: Negotiated,
  root: RootCapability,
  status: UcpMetadata['status'],
  paymentHandlers: () => Record<string, object[]>,
): UcpMetadata {
  return {
    version: negotiated.version,
    status,
    capabilities: relevantCapabilities(negotiated, root),
    ...(root === ROOT_CAPABILITIES.checkout && { payment_handlers: paymentHandlers() }),
  };
}

/** The `ucp` field, for the document: the release's schemas are the authority. */
export const UcpMetadataSchema = Type.Object(
  {
    version: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'The protocol version the request was served at.' }),
    status: Type.Union([Type.Literal('success'), Type.Literal('error')], { description: '`error` for a business outcome with no resource (see messages).' }),
    capabilities: Type.Record(Type.String(), Type.Array(Type.Object({ version: Type.String() })), {
      description: "The negotiated capabilities relevant to the operation: its root capability and the extensions of it both parties declare.",
    }),
    payment_handlers: Type.Optional(
      Type.Record(Type.String(), Type.Array(Type.Object({}, { additionalProperties: true })), { description: 'Checkout answers: the payment handlers a checkout can be paid with.' }),
    ),
  },
  { title: 'UcpMetadata' },
);
