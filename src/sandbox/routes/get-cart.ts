import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { CART_SCOPE } from '../scopes.js';
import { cartRateLimitHeaders, CART_AUTH_ERRORS, errorResponses, jsonResponse } from './docs.js';
import { CartParams, principalOf, type SandboxRouteKit } from './shared.js';

export function getCartRoute(app: FastifyInstance, { services, guard }: SandboxRouteKit): void {
  app.get<{ Params: Static<typeof CartParams> }>(
    '/v1/carts/:id',
    {
      schema: {
        operationId: 'getSandboxCart',
        tags: ['sandbox'],
        summary: 'Read a cart',
        description:
          "Needs cart:write (else 401). The cart with unit prices and totals recalculated from the live catalog now. Only the key that created the cart can read it; any other key gets 404.",
        security: [{ sandboxBearer: [CART_SCOPE] }],
        params: CartParams,
        response: {
          200: jsonResponse('The cart', 'SandboxCart', cartRateLimitHeaders),
          ...errorResponses(CART_AUTH_ERRORS, cartRateLimitHeaders),
        },
      },
      onRequest: guard(CART_SCOPE),
    },
    async (request) => services.carts.getCart(principalOf(request), request.params.id),
  );
}
