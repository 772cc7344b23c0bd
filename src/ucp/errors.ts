import { ProtocolError } from '@modelcontextprotocol/server';
import { Type } from 'typebox';
import type { ErrorSurface } from '../http/error-surface.js';
import { HttpProblem, type ProblemDetails } from '../http/problem.js';
import { SandboxRefusalError } from '../sandbox/refusals.js';
import { isStoreUnavailable } from '../store/store-unavailable.js';
import { UcpMetadataSchema } from './envelope.js';
import { checkoutProblemMessage, lineProblemMessage, type UcpMessage } from './messages.js';
import { UCP_VERSION } from './version.js';

/**
 * How UCP words failures (overview.md, Error Handling), in one place for both bindings:
 * - protocol errors stop a request: an HTTP status with `{ code, content }` on REST, a
 *   JSON-RPC error with the same pair in `data` on MCP ({@link UcpProtocolError});
 * - business outcomes are answers: HTTP 200 or an MCP result whose `ucp.status` is
 *   `error` and whose `messages` say why ({@link UcpOutcome}).
 */

/** JSON-RPC codes of the MCP binding. */
export const JSON_RPC = {
  /** The platform's profile could not be used (discovery or version failure). */
  discoveryFailed: -32001,
  /** A refusal by a limit or a policy (401, 403, 409, 429, 503...). */
  refused: -32000,
  invalidParams: -32602,
  internalError: -32603,
} as const;

export interface UcpProblemDetails extends ProblemDetails {
  /** A page where the buyer can carry on without the agent (overview.md, The continue_url Field). */
  continueUrl?: string;
}

/**
 * A protocol error: `code` is the UCP code (snake_case), the message its `content`.
 * On MCP it is a JSON-RPC error with `jsonRpcCode` and `jsonRpcMessage`.
 */
export class UcpProtocolError extends HttpProblem {
  constructor(
    statusCode: number,
    code: string,
    content: string,
    readonly ucpDetails: UcpProblemDetails = {},
    readonly jsonRpcCode: number = jsonRpcCodeOf(statusCode),
    readonly jsonRpcMessage: string = content,
  ) {
    super(statusCode, code, content, ucpDetails);
    this.name = 'UcpProtocolError';
  }
}

function jsonRpcCodeOf(statusCode: number): number {
  if (statusCode >= 500 && statusCode !== 503) return JSON_RPC.internalError;
  if (statusCode === 400) return JSON_RPC.invalidParams;
  return JSON_RPC.refused;
}

/** The negotiation failures of overview.md, Error Codes: each a protocol error. */
export type NegotiationFailure = 'invalid_profile_url' | 'profile_unreachable' | 'profile_malformed' | 'version_unsupported';

const NEGOTIATION_STATUS: Record<NegotiationFailure, number> = {
  invalid_profile_url: 400,
  profile_unreachable: 424,
  profile_malformed: 422,
  version_unsupported: 422,
};

/** A negotiation failure: its status on REST, -32001 on MCP. */
export function negotiationFailure(code: NegotiationFailure, content: string, continueUrl: string): UcpProtocolError {
  const message = code === 'version_unsupported' ? 'Protocol version not supported' : 'UCP discovery failed';
  return new UcpProtocolError(NEGOTIATION_STATUS[code], code, content, { continueUrl }, JSON_RPC.discoveryFailed, message);
}

/** The REST body of a protocol error: its UCP code (other surfaces' codes lower-cased, e.g. RATE_LIMITED) and content. */
export function protocolErrorBody(problem: HttpProblem): { code: string; content: string; continue_url?: string } {
  const continueUrl = problem instanceof UcpProtocolError ? problem.ucpDetails.continueUrl : undefined;
  return { code: problem.code.toLowerCase(), content: problem.message, ...(continueUrl !== undefined && { continue_url: continueUrl }) };
}

/**
 * A protocol error as the MCP binding answers it: a JSON-RPC error whose `data` carries
 * the REST body (and `retry_after` for 429 and 503). Thrown from a tool, it escapes
 * the tool result (src/mcp/tool.ts, bindTools).
 */
export function jsonRpcProtocolError(problem: HttpProblem): ProtocolError {
  const { retryAfter } = problem.details;
  const data = { ...protocolErrorBody(problem), ...(retryAfter !== undefined && { retry_after: retryAfter }) };
  if (problem instanceof UcpProtocolError) return new ProtocolError(problem.jsonRpcCode, problem.jsonRpcMessage, data);
  return new ProtocolError(jsonRpcCodeOf(problem.statusCode), problem.statusCode >= 500 ? 'Internal error' : problem.message, data);
}

/**
 * A business outcome with no resource to show (types/error_response.json): the
 * operation ran and answers why it could not act, e.g. an unknown cart (`not_found`),
 * or capabilities the platform does not share. REST answers it with 200, MCP as a result.
 */
export class UcpOutcome {
  constructor(
    readonly messages: readonly UcpMessage[],
    readonly continueUrl?: string,
  ) {}
}

/** The platform shares no version of the operation's capability (overview.md, Request-Time Validation 3). */
export function capabilitiesIncompatible(capability: string, continueUrl: string): UcpOutcome {
  return new UcpOutcome(
    [
      {
        type: 'error',
        code: 'capabilities_incompatible',
        content: `The platform profile declares no version of ${capability} this business serves (${UCP_VERSION}): add it to the profile's capabilities to use this operation.`,
        severity: 'unrecoverable',
      },
    ],
    continueUrl,
  );
}

const RESOURCE_NAMES = { cart: 'Cart', checkout: 'Checkout', order: 'Order' } as const;

/**
 * A refusal of the sandbox in UCP's terms (overview.md, Error Handling): what leaves no
 * resource to act on is a business outcome (`not_found`, `not_modifiable`, `not_ready`
 * with the checkout's problems as messages, `nothing_sellable` with its lines); what the
 * request got wrong is a protocol error, 400 `invalid_request` in the sandbox's words, or
 * the payment handler's own codes (`real_card_refused`, `unknown_instrument`); a key
 * without the scope is 403. The cart service reports the same as REST problems of the
 * sandbox's (`sandbox_not_found`, `sandbox_invalid_request`), worded likewise. Anything
 * else is not a refusal: undefined.
 */
export function wordSandboxRefusal(error: unknown, continueUrl: string): UcpOutcome | UcpProtocolError | undefined {
  const unrecoverable = (code: string, content: string) => new UcpOutcome([{ type: 'error', code, content, severity: 'unrecoverable' }], continueUrl);
  if (error instanceof HttpProblem) {
    if (error.code === 'sandbox_not_found') return unrecoverable('not_found', `${error.message} Carts expire with the sandbox key that made them, and a canceled cart is gone.`);
    if (error.code === 'sandbox_invalid_request') return new UcpProtocolError(400, 'invalid_request', error.message);
    return undefined;
  }
  if (!(error instanceof SandboxRefusalError)) return undefined;
  const { refusal } = error;
  switch (refusal.kind) {
    case 'not_found':
      return unrecoverable(
        'not_found',
        `${RESOURCE_NAMES[refusal.resource]} ${refusal.id} was not found: it does not exist, has expired (with the sandbox key that made it), or belongs to another key.`,
      );
    case 'not_modifiable':
      return unrecoverable('not_modifiable', `${error.message} Create a new checkout to buy again.`);
    case 'not_ready':
      return new UcpOutcome(refusal.problems.map(checkoutProblemMessage), continueUrl);
    case 'nothing_sellable':
      // cart.md, Create Cart, and checkout.md, Error Handling: when all items are unavailable, no resource, and the outcome says why.
      return new UcpOutcome(
        refusal.lines.map((line) =>
          lineProblemMessage(line.problem, line.variant_id, 'unrecoverable', `no ${refusal.resource} was created, since none of the items can be bought.`),
        ),
        continueUrl,
      );
    case 'invalid_market':
    case 'unsupported_currency':
    case 'too_many_lines':
    case 'quantity_out_of_range':
    case 'unknown_fulfillment_option':
      return new UcpProtocolError(400, 'invalid_request', error.message);
    case 'real_card_refused':
    case 'unknown_instrument':
    case 'invalid_card':
      return new UcpProtocolError(400, refusal.kind, error.message);
    case 'insufficient_scope':
      return new UcpProtocolError(403, 'insufficient_scope', error.message);
  }
}

/** Runs a sandbox call, answering its refusals as {@link wordSandboxRefusal} words them: an outcome is the answer, a protocol error is thrown. */
export async function answeringRefusals<T>(continueUrl: string, call: () => Promise<T>): Promise<T | UcpOutcome> {
  try {
    return await call();
  } catch (error) {
    const worded = wordSandboxRefusal(error, continueUrl);
    if (worded instanceof UcpOutcome) return worded;
    throw worded ?? error;
  }
}

/** The REST body of a protocol error, for the document. */
export const ProtocolErrorBody = Type.Object(
  {
    code: Type.String({ description: 'The UCP error code, e.g. invalid_profile_url, profile_unreachable, profile_malformed, version_unsupported, rate_limited.' }),
    content: Type.String({ description: 'What went wrong, for people.' }),
    continue_url: Type.Optional(Type.String({ format: 'uri', description: 'Where the buyer can carry on without the agent (negotiation failures).' })),
  },
  { title: 'UcpProtocolError' },
);

/** A message of an answer, for the document (types/message.json is the authority). */
export const UcpMessageSchema = Type.Object(
  {
    type: Type.Union([Type.Literal('error'), Type.Literal('warning'), Type.Literal('info')]),
    code: Type.String(),
    content: Type.String(),
    severity: Type.Optional(Type.String({ description: 'Errors: recoverable (fix it with an update), unrecoverable (no resource to act on)...' })),
    path: Type.Optional(Type.String({ description: 'RFC 9535 JSONPath to the field the message is about.' })),
  },
  { additionalProperties: true },
);

/** A business outcome with no resource, for the document (types/error_response.json is the authority). */
export const UcpErrorResponseSchema = Type.Object(
  {
    ucp: UcpMetadataSchema,
    messages: Type.Array(UcpMessageSchema, { minItems: 1 }),
    continue_url: Type.Optional(Type.String({ format: 'uri' })),
  },
  { title: 'UcpErrorResponse' },
);

/** A documented protocol error answer. */
export const protocolErrorResponse = (description: string) => ({ description, content: { 'application/json': { schema: ProtocolErrorBody } } });

/** How long a client is asked to wait while the store is unreachable. */
const STORE_RETRY_AFTER_SECONDS = 5;

/** UCP answers depend on the platform's negotiated profile and hold carts and orders: no cache keeps an error, and REST answers keep nothing at all. */
const NO_STORE = { 'cache-control': 'no-store' };

/**
 * The envelope of every URL under `/ucp` (the payment handler documents and the REST
 * binding; the MCP endpoint answers JSON-RPC): protocol error bodies.
 */
export const ucpErrors: ErrorSurface = {
  body: (problem) => protocolErrorBody(problem),
  invalidRequestCode: 'invalid_request',
  notFoundCode: 'not_found',
  internalErrorCode: 'internal_error',
  recognise: (error) =>
    isStoreUnavailable(error)
      ? new UcpProtocolError(503, 'unavailable', 'The store is unreachable; retry shortly.', { retryAfter: STORE_RETRY_AFTER_SECONDS })
      : undefined,
  errorHeaders: NO_STORE,
};

/** The REST binding's: the same bodies, and no answer of it is stored by a cache. */
export const ucpRestErrors: ErrorSurface = { ...ucpErrors, headers: NO_STORE };
