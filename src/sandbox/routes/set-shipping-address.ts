import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import type { SandboxAddress } from '../schemas.js';
import { CART_SCOPE } from '../scopes.js';
import { cartChangeResponses } from './docs.js';
import { CartParams, IDEMPOTENCY_RULES, optionalIdempotencyKey, principalOf, sendIdempotently, type SandboxRouteKit } from './shared.js';

export function setShippingAddressRoute(app: FastifyInstance, { services, guard }: SandboxRouteKit): void {
  app.post<{ Params: Static<typeof CartParams>; Body: Static<typeof SandboxAddress> }>(
    '/v1/carts/:id/shipping-address',
    {
      schema: {
        operationId: 'setSandboxShippingAddress',
        tags: ['sandbox'],
        summary: 'Set the shipping address',
        description: `Needs cart:write (else 401). Replaces the cart's simulated shipping address. When a catalog region serves its country and sells in the cart's currency, that region becomes the cart's market, and its region-specific prices apply from this answer on; otherwise the market stays the currency's region. Idempotency-Key is optional. ${IDEMPOTENCY_RULES}`,
        security: [{ sandboxBearer: [CART_SCOPE] }],
        params: CartParams,
        headers: optionalIdempotencyKey,
        body: Type.Ref('SandboxAddress'),
        response: cartChangeResponses(200, 'The updated cart', {
          400: 'sandbox_invalid_request: a field missing or outside its bounds, a country that is not two letters, extra properties, invalid Idempotency-Key, or malformed JSON.',
        }),
      },
      onRequest: guard(CART_SCOPE),
    },
    async (request, reply) =>
      sendIdempotently(services, request, reply, 200, () =>
        services.carts.setShippingAddress(principalOf(request), request.params.id, request.body),
      ),
  );
}
