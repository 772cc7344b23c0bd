import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { CART_SCOPE } from '../scopes.js';
import { cartRateLimitHeaders, CART_AUTH_ERRORS, errorResponses, jsonResponse } from './docs.js';
import { CartParams, principalOf, type SandboxRouteKit } from './shared.js';

export function listShippingOptionsRoute(app: FastifyInstance, { services, guard }: SandboxRouteKit): void {
  app.get<{ Params: Static<typeof CartParams> }>(
    '/v1/carts/:id/shipping-options',
    {
      schema: {
        operationId: 'listSandboxShippingOptions',
        tags: ['sandbox'],
        summary: "The cart's shipping options",
        description:
          'Needs cart:write (else 401). One simulated option, `sandbox_standard` ("Standard shipping (simulated)"), at the amount configured for the cart\'s currency (4.90 EUR, 4.50 GBP, 5.95 USD, 6.90 CHF by default). A currency whose amount was removed from the configuration after the cart was opened has no option.',
        security: [{ sandboxBearer: [CART_SCOPE] }],
        params: CartParams,
        response: {
          200: jsonResponse('The shipping options', 'SandboxShippingOptions', cartRateLimitHeaders),
          ...errorResponses(CART_AUTH_ERRORS, cartRateLimitHeaders),
        },
      },
      onRequest: guard(CART_SCOPE),
    },
    async (request) => services.carts.listShippingOptions(principalOf(request), request.params.id),
  );
}
