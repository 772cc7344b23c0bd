import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import type { SandboxCartRequest } from '../schemas.js';
import { CART_SCOPE } from '../scopes.js';
import { cartRateLimitHeaders, CART_AUTH_ERRORS, errorResponses, idempotencyHeaders, IDEMPOTENCY_MISMATCH, jsonResponse } from './docs.js';
import { IDEMPOTENCY_RULES, optionalBody, principalOf, requiredIdempotencyKey, sendIdempotently, type SandboxRouteKit } from './shared.js';

export function createCartRoute(app: FastifyInstance, { services, guard }: SandboxRouteKit): void {
  const headers = { ...cartRateLimitHeaders, ...idempotencyHeaders };
  app.post<{ Body: Static<typeof SandboxCartRequest> }>(
    '/v1/carts',
    {
      schema: {
        operationId: 'createSandboxCart',
        tags: ['sandbox'],
        summary: 'Create a simulated cart',
        description: `Needs cart:write (else 401). Opens an empty cart in \`currency\` (default EUR), owned by the calling key and expiring with it; only that key can see it. The currency must be sold by a catalog region and have a sandbox shipping amount, else 400. Idempotency-Key is required. ${IDEMPOTENCY_RULES} 300 cart calls per key per minute.`,
        security: [{ sandboxBearer: [CART_SCOPE] }],
        headers: requiredIdempotencyKey,
        'x-optional-body': true,
        body: Type.Ref('SandboxCartRequest'),
        response: {
          201: jsonResponse('The new, empty cart', 'SandboxCart', headers),
          ...errorResponses(
            {
              400: 'sandbox_invalid_request: missing or invalid Idempotency-Key, invalid currency, a currency the sandbox does not sell, extra properties, or malformed JSON.',
              401: CART_AUTH_ERRORS[401],
              422: IDEMPOTENCY_MISMATCH,
              429: CART_AUTH_ERRORS[429],
            },
            headers,
          ),
        },
      },
      onRequest: guard(CART_SCOPE),
      preValidation: optionalBody,
    },
    async (request, reply) =>
      sendIdempotently(services, request, reply, 201, () => services.carts.createCart(principalOf(request), request.body)),
  );
}
