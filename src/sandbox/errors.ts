import type { ErrorSurface } from '../http/error-surface.js';
import { HttpProblem } from '../http/problem.js';
import { isStoreUnavailable } from '../store/store-unavailable.js';
import type { IdempotencyWording } from './idempotency.js';
import type { Scope } from './scopes.js';

/**
 * docs/decisions.md, Error strings: the `SandboxError.error` strings. `sandbox_internal_error` is the error
 * handler's answer to an unexpected failure (500) on any sandbox route, and
 * `sandbox_unavailable` its answer (503, Retry-After) while the store is unreachable.
 */
export const SANDBOX_ERROR_CODES = [
  'sandbox_unauthorized',
  'sandbox_insufficient_scope',
  'sandbox_invalid_request',
  'sandbox_not_found',
  'sandbox_variant_not_purchasable',
  'sandbox_cart_incomplete',
  'sandbox_idempotency_mismatch',
  'sandbox_rate_limited',
  'sandbox_disabled',
  'sandbox_internal_error',
  'sandbox_unavailable',
] as const;

const REALM = 'realm="vetrina-sandbox"';

/**
 * 401 for a request that sent no credentials: RFC 6750 gives it a bare challenge.
 * `howToAuthenticate` lets a surface other than REST say how its clients send a key.
 */
export function missingKey(
  scope?: Scope,
  howToAuthenticate = 'This route needs a sandbox key: send Authorization: Bearer <access_token> (POST /sandbox/v1/keys).',
): HttpProblem {
  return unauthorized(howToAuthenticate, [], scope);
}

/** 401 for a token that is malformed, unknown or expired. */
export function invalidKey(message: string, scope?: Scope): HttpProblem {
  return unauthorized(message, ['error="invalid_token"'], scope);
}

function unauthorized(message: string, attributes: string[], scope: Scope | undefined): HttpProblem {
  const challenge = [`Bearer ${REALM}`, ...attributes, ...(scope ? [`scope="${scope}"`] : [])].join(', ');
  return new HttpProblem(401, 'sandbox_unauthorized', message, {
    ...(scope && { scope }),
    headers: { 'www-authenticate': challenge },
  });
}

/** docs/decisions.md, Scope per route: 401 on the explicit routes, 403 for checkout and the compatibility route. */
export function insufficientScope(scope: Scope, status: 401 | 403): HttpProblem {
  return new HttpProblem(status, 'sandbox_insufficient_scope', `This key lacks the ${scope} scope.`, {
    scope,
    headers: { 'www-authenticate': `Bearer ${REALM}, error="insufficient_scope", scope="${scope}"` },
  });
}

/** docs/decisions.md, Ownership: another key's cart is reported exactly like a cart that does not exist. */
export function cartNotFound(cartId: string): HttpProblem {
  return new HttpProblem(404, 'sandbox_not_found', `No cart ${cartId} belongs to this key.`);
}

/** Setting the quantity of a variant the cart does not hold (docs/decisions.md, Setting a quantity). */
export function lineNotFound(cartId: string, variantId: string): HttpProblem {
  return new HttpProblem(404, 'sandbox_not_found', `Cart ${cartId} has no line for variant ${variantId}; add it first.`);
}

export function invalidRequest(message: string): HttpProblem {
  return new HttpProblem(400, 'sandbox_invalid_request', message);
}

export function variantNotPurchasable(message: string): HttpProblem {
  return new HttpProblem(422, 'sandbox_variant_not_purchasable', message);
}

export function cartIncomplete(missing: string[]): HttpProblem {
  return new HttpProblem(422, 'sandbox_cart_incomplete', `The cart is not ready for checkout: it needs ${missing.join(', ')}.`);
}

/** `message` names the reused key as the caller's surface spells it (a header on REST, an argument on MCP). */
function idempotencyMismatch(message: string): HttpProblem {
  return new HttpProblem(422, 'sandbox_idempotency_mismatch', message);
}

/** The idempotency store's answers in the sandbox's envelope: `mismatchMessage` names the key as the surface's clients send it. */
export function sandboxIdempotencyWording(mismatchMessage: string): IdempotencyWording {
  return { mismatch: () => idempotencyMismatch(mismatchMessage), errorBody: sandboxErrorBody };
}

export function sandboxDisabled(): HttpProblem {
  return new HttpProblem(503, 'sandbox_disabled', 'The sandbox is disabled on this server.');
}

/** How long a sandbox client is asked to wait while the store is unreachable. */
const STORE_RETRY_AFTER_SECONDS = 5;

/** The sandbox's answer while its store is unreachable, for REST and MCP alike. */
function sandboxUnavailable(): HttpProblem {
  return new HttpProblem(503, 'sandbox_unavailable', 'The sandbox store is unreachable; retry shortly.', {
    retryAfter: STORE_RETRY_AFTER_SECONDS,
  });
}

/** The contract's `SandboxError` body. */
export function sandboxErrorBody(problem: HttpProblem): object {
  const { scope, retryAfter } = problem.details;
  return {
    error: problem.code,
    message: problem.message,
    ...(scope !== undefined && { scope }),
    ...(retryAfter !== undefined && { retry_after: retryAfter }),
  };
}

/**
 * The sandbox's envelope (`SandboxError`) for everything under `/sandbox`. The sandbox
 * reads its store on every request, so an unreachable store is 503 with Retry-After
 * rather than a 500. Sandbox answers hold shipping addresses and keys, so no cache may
 * keep any of them: successes, errors, unknown routes and rate-limit answers alike.
 */
export const sandboxErrors: ErrorSurface = {
  body: (problem) => sandboxErrorBody(problem),
  invalidRequestCode: 'sandbox_invalid_request',
  notFoundCode: 'sandbox_not_found',
  internalErrorCode: 'sandbox_internal_error',
  recognise: (error) => (isStoreUnavailable(error) ? sandboxUnavailable() : undefined),
  headers: { 'cache-control': 'no-store' },
};
