import { Type } from 'typebox';
import type { ErrorSurface } from '../http/error-surface.js';
import { HttpProblem, type ProblemDetails } from '../http/problem.js';
import { SandboxRefusalError } from '../sandbox/refusals.js';
import { isStoreUnavailable } from '../store/store-unavailable.js';
import { unsellableItemSays } from './checkout/messages.js';

/**
 * How ACP words failures, in one place: the release's flat error object `{ type, code,
 * message, param? }` for whatever stops a request, while what a buyer can fix on a
 * checkout session is a message of the session itself (src/acp/checkout/messages.ts).
 */

/** A failure in ACP's words: its code (snake_case) and, when it is about one, the request field (`param`). */
export class AcpProblem extends HttpProblem {
  constructor(
    statusCode: number,
    code: string,
    message: string,
    readonly param?: string,
    details: ProblemDetails = {},
  ) {
    super(statusCode, code, message, details);
    this.name = 'AcpProblem';
  }
}

/** The error types the release defines: what the client sent, a failure here, or a passing unavailability. */
function errorType(statusCode: number): 'invalid_request' | 'processing_error' | 'service_unavailable' {
  if (statusCode === 503) return 'service_unavailable';
  return statusCode >= 500 ? 'processing_error' : 'invalid_request';
}

/** Codes of the mechanisms ACP shares with the sandbox (keys, idempotency, limits), in ACP's words. */
const SHARED_CODES: Record<string, string> = {
  sandbox_unauthorized: 'unauthorized',
  sandbox_insufficient_scope: 'insufficient_scope',
  sandbox_rate_limited: 'rate_limited',
  sandbox_disabled: 'sandbox_disabled',
};

/** ACP's flat error object: the sandbox's codes as SHARED_CODES words them, other surfaces' lower-cased (RATE_LIMITED is `rate_limited`). */
export function acpErrorBody(problem: HttpProblem): { type: string; code: string; message: string; param?: string } {
  const param = problem instanceof AcpProblem ? problem.param : undefined;
  const code = SHARED_CODES[problem.code] ?? problem.code.toLowerCase();
  return { type: errorType(problem.statusCode), code, message: problem.message, ...(param !== undefined && { param }) };
}

/** The error object, for the document (the release's `Error` schemas are the authority). */
export const AcpErrorSchema = Type.Object(
  {
    type: Type.String({ description: 'invalid_request, processing_error or service_unavailable.' }),
    code: Type.String({
      description: 'What went wrong, for programs: feed_not_found, invalid_request, missing_api_version, idempotency_key_required, idempotency_conflict, unauthorized, not_found, rate_limited...',
    }),
    message: Type.String({ description: 'What went wrong, for people.' }),
    param: Type.Optional(Type.String({ description: 'The request field the error is about (a JSONPath for a body field).' })),
  },
  { title: 'AcpError' },
);

/** A documented error answer. */
export const acpErrorResponse = (description: string) => ({ description, content: { 'application/json': { schema: AcpErrorSchema } } });

/** How long a client is asked to wait while the store is unreachable. */
const STORE_RETRY_AFTER_SECONDS = 5;

/** The envelope of every URL under `/acp`: the release's flat error object. No cache keeps an error. */
export const acpErrors: ErrorSurface = {
  body: (problem) => acpErrorBody(problem),
  invalidRequestCode: 'invalid_request',
  notFoundCode: 'not_found',
  internalErrorCode: 'processing_error',
  recognise: (error) =>
    isStoreUnavailable(error) ? new AcpProblem(503, 'unavailable', 'The store is unreachable; retry shortly.', undefined, { retryAfter: STORE_RETRY_AFTER_SECONDS }) : undefined,
  errorHeaders: { 'cache-control': 'no-store' },
};

const RESOURCE_NAMES = { cart: 'Cart', checkout: 'Checkout session', order: 'Order' } as const;

/**
 * A refusal of the sandbox in ACP's terms, with the JSONPath of the request field at
 * fault where there is one (`paths`, by the sandbox's kind, as each operation's request
 * names it). The cart service reports its refusals as the sandbox's REST problems
 * (`sandbox_not_found`, `sandbox_invalid_request`), worded here too. Anything that is
 * not a refusal: undefined.
 */
export function wordSandboxRefusal(error: unknown, paths: Partial<Record<string, string>> = {}): AcpProblem | undefined {
  if (error instanceof HttpProblem) return wordCartProblem(error, paths);
  if (!(error instanceof SandboxRefusalError)) return undefined;
  const { refusal } = error;
  const problem = (status: number, code: string, message = error.message, details: ProblemDetails = {}) =>
    new AcpProblem(status, code, message, paths[refusal.kind], details);
  switch (refusal.kind) {
    case 'not_found':
      return problem(404, 'not_found', `${RESOURCE_NAMES[refusal.resource]} ${refusal.id} was not found: it does not exist, has expired (with the sandbox key that made it), or belongs to another key.`);
    case 'not_modifiable':
      // The session's state no longer allows the method: only GET is left (rfc.agentic_checkout.md, Cancel Session: 405).
      return problem(405, 'not_modifiable', `${error.message} Create a new checkout session to buy again.`, { headers: { allow: 'GET' } });
    case 'not_ready':
      return problem(422, 'not_ready_for_payment', `${error.message} GET the session: its messages say what to fix.`);
    case 'invalid_market':
    case 'unsupported_currency':
      return problem(400, 'unsupported_currency');
    case 'too_many_lines':
      return problem(400, 'too_many_line_items');
    case 'quantity_out_of_range':
      return problem(400, 'quantity_exceeded');
    case 'unknown_fulfillment_option':
      return problem(400, 'invalid_fulfillment_option');
    case 'real_card_refused':
    case 'unknown_instrument':
    case 'invalid_card':
      return problem(400, refusal.kind);
    case 'insufficient_scope':
      return problem(401, 'insufficient_scope');
    case 'nothing_sellable': {
      // rfc.cart.md, Create Cart: when all requested items are unavailable, 422 out_of_stock instead of a cart.
      const lines = refusal.lines.map((line) => `${line.variant_id} ${unsellableItemSays(line.problem)}`).join('; ');
      return problem(422, 'out_of_stock', `None of the items can be bought now (${lines}): nothing was created. Choose other items.`);
    }
    default: {
      // A kind the sandbox adds must be worded here: left out, it would escape as a 500.
      const unworded: never = refusal;
      return unworded;
    }
  }
}

/** The cart service's problems (src/sandbox/errors.ts) in ACP's words; other problems (an AcpProblem among them) are not refusals. */
function wordCartProblem(error: HttpProblem, paths: Partial<Record<string, string>>): AcpProblem | undefined {
  if (error.code === 'sandbox_not_found') {
    return new AcpProblem(404, 'not_found', `${error.message} It does not exist, has expired (with the sandbox key that made it), was canceled, or belongs to another key.`);
  }
  if (error.code === 'sandbox_invalid_request') return new AcpProblem(400, 'invalid_request', error.message, paths[error.code]);
  return undefined;
}

/** Runs a sandbox call, throwing its refusals as {@link wordSandboxRefusal} words them. */
export async function wordingRefusals<T>(call: () => Promise<T>, paths?: Partial<Record<string, string>>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw wordSandboxRefusal(error, paths) ?? error;
  }
}
