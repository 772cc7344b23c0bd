import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { CART_SCOPE } from '../scopes.js';
import { cartRateLimitHeaders, CART_AUTH_ERRORS, errorResponses, jsonResponse } from './docs.js';
import { CartParams, principalOf, type SandboxRouteKit } from './shared.js';

const Query = Type.Object({
  variant_id: Type.String({ minLength: 1, maxLength: 128, description: 'The variant to remove with all its quantity.' }),
});

export function removeItemRoute(app: FastifyInstance, { services, guard }: SandboxRouteKit): void {
  app.delete<{ Params: Static<typeof CartParams>; Querystring: Static<typeof Query> }>(
    '/v1/carts/:id/items',
    {
      schema: {
        operationId: 'removeSandboxCartItem',
        tags: ['sandbox'],
        summary: 'Remove a variant from a cart',
        description:
          'Needs cart:write (else 401). Removes the variant and all its quantity. Removing a variant that is not in the cart is not an error: the answer is 200 with the cart unchanged, so a retried DELETE succeeds like the first one.',
        security: [{ sandboxBearer: [CART_SCOPE] }],
        params: CartParams,
        querystring: Query,
        response: {
          200: jsonResponse('The updated cart', 'SandboxCart', cartRateLimitHeaders),
          ...errorResponses(
            { 400: 'sandbox_invalid_request: variant_id missing or outside 1 to 128 characters.', ...CART_AUTH_ERRORS },
            cartRateLimitHeaders,
          ),
        },
      },
      onRequest: guard(CART_SCOPE),
    },
    async (request) => services.carts.removeItem(principalOf(request), request.params.id, request.query.variant_id),
  );
}
