import { Type, type TSchema } from 'typebox';
import type { SandboxConfig } from '../../config.js';
import { cartLimitText, keyLimitText } from '../rate-limits.js';
import { SandboxCartAnswer } from '../schemas.js';
import { CART_SCOPE } from '../scopes.js';

/** OpenAPI response objects of the sandbox routes: bodies by component name, and the headers each carries. */

type Headers = Record<string, TSchema>;

const integer = (description: string) => Type.Integer({ description });

function rateLimitHeaders(allowed: string, left: string): Headers {
  return {
    'RateLimit-Limit': integer(allowed),
    'RateLimit-Remaining': integer(left),
    'RateLimit-Reset': integer('Delta-seconds until the window resets.'),
  };
}

/** The RateLimit headers of the cart routes, stating this deployment's limit. */
export function cartRateLimitHeaders(config: SandboxConfig): Headers {
  return rateLimitHeaders(`Cart calls allowed per sandbox key per window (${cartLimitText(config)}).`, 'Calls left in the current window.');
}

/** The RateLimit headers of key issuance, stating this deployment's limit. */
export function keyRateLimitHeaders(config: SandboxConfig): Headers {
  return rateLimitHeaders(`Keys allowed per client IP per window (${keyLimitText(config)}).`, 'Keys left in the current window.');
}

export const idempotencyHeaders: Headers = {
  'Idempotency-Key': Type.String({ description: "Echo of the request's Idempotency-Key, when it sent one." }),
  'Idempotent-Replayed': Type.String({
    enum: ['true'],
    description: 'Present when this is the stored response of an earlier request with the same key, replayed byte for byte.',
  }),
};

/**
 * The headers of a deprecated route. The Sunset date is the header's `const`, so the
 * document states it machine-readably (the developer portal's changelog reads it there)
 * from the same constant the route sends.
 */
export function deprecationHeaders(sunset: string): Headers {
  return {
    Deprecation: Type.String({ enum: ['true'], description: 'This route is deprecated; use the explicit cart routes.' }),
    Sunset: Type.String({ const: sunset, description: 'HTTP-date after which the route may be removed.' }),
    Link: Type.String({ description: '`<.../openapi.json>; rel="successor-version"`: the explicit routes.' }),
  };
}

const wwwAuthenticate: Headers = {
  'WWW-Authenticate': Type.String({
    description:
      'RFC 6750 challenge: `Bearer realm="vetrina-sandbox"`, plus `error="invalid_token"` for a malformed, unknown or expired key, or `error="insufficient_scope"`, and `scope="..."` naming the scope the route needs.',
  }),
};

const retryAfter: Headers = { 'Retry-After': integer('Seconds until a retry may succeed; equals RateLimit-Reset.') };

/** A JSON answer: a component by name, or a schema. */
export function jsonResponse(description: string, schema: string | TSchema, headers: Headers = {}) {
  return { description, headers, content: { 'application/json': { schema: typeof schema === 'string' ? Type.Ref(schema) : schema } } };
}

/** An answer with a cart (SandboxCartAnswer). */
export function cartResponse(description: string, headers: Headers = {}) {
  return jsonResponse(description, SandboxCartAnswer, headers);
}

export type ErrorStatus = 400 | 401 | 403 | 404 | 422 | 429;

/**
 * The error responses of a route, each a SandboxError. `headers` are those every answer
 * of the route carries (rate limit, idempotency echo...); 401/403 add the challenge,
 * 429 Retry-After. 503 (disabled or unavailable) and 500 apply to every route.
 */
export function errorResponses(descriptions: Partial<Record<ErrorStatus, string>>, headers: Headers = {}) {
  const responses: Record<number, ReturnType<typeof jsonResponse>> = {};
  for (const [status, description] of Object.entries(descriptions)) {
    const code = Number(status);
    const extra = code === 401 || code === 403 ? wwwAuthenticate : code === 429 ? retryAfter : {};
    responses[code] = jsonResponse(description, 'SandboxError', { ...headers, ...extra });
  }
  responses[503] = jsonResponse(
    'sandbox_disabled: the sandbox is switched off on this server; sandbox_unavailable: its store is unreachable for now, or the unavailable scenario was asked for (with Retry-After).',
    'SandboxError',
    { 'Retry-After': integer('With sandbox_unavailable: seconds to wait before retrying.') },
  );
  responses[500] = jsonResponse('sandbox_internal_error: a temporary failure; retry shortly.', 'SandboxError');
  return responses;
}

/** The statuses of every authenticated cart route. */
export const CART_AUTH_ERRORS = {
  401: `sandbox_unauthorized: no, malformed, unknown or expired key; sandbox_insufficient_scope: the key lacks ${CART_SCOPE} (\`scope\` names it).`,
  404: "sandbox_not_found: no such cart, or another key's cart.",
  429: 'sandbox_rate_limited: more than the allowed cart calls per key per minute, or the rate_limited scenario was asked for.',
} as const;

/** The 400 of a cart route that takes no other input than its path and headers. */
export const UNKNOWN_SCENARIO = 'sandbox_invalid_request: an unknown Sandbox-Scenario.';

export const IDEMPOTENCY_MISMATCH = 'sandbox_idempotency_mismatch: this Idempotency-Key was used with a different body.';

/**
 * The responses of a POST that changes an existing cart: the cart with the rate-limit
 * and idempotency headers, or the cart route errors, an idempotency mismatch and `errors`.
 */
export function cartChangeResponses(
  rateLimit: Headers,
  status: 200 | 201,
  description: string,
  errors: Partial<Record<ErrorStatus, string>>,
  extraHeaders: Headers = {},
) {
  const headers = { ...extraHeaders, ...rateLimit, ...idempotencyHeaders };
  return {
    [status]: cartResponse(description, headers),
    ...errorResponses({ ...CART_AUTH_ERRORS, 422: IDEMPOTENCY_MISMATCH, ...errors }, headers),
  };
}
