import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import type { SandboxItemRequest } from '../schemas.js';
import { CART_SCOPE } from '../scopes.js';
import { cartChangeResponses, IDEMPOTENCY_MISMATCH } from './docs.js';
import { CartParams, IDEMPOTENCY_RULES, optionalIdempotencyKey, principalOf, sendIdempotently, type SandboxRouteKit } from './shared.js';

export function addItemRoute(app: FastifyInstance, { services, guard }: SandboxRouteKit): void {
  app.post<{ Params: Static<typeof CartParams>; Body: Static<typeof SandboxItemRequest> }>(
    '/v1/carts/:id/items',
    {
      schema: {
        operationId: 'addSandboxCartItem',
        tags: ['sandbox'],
        summary: 'Add a variant to a cart',
        description: `Needs cart:write (else 401). Only a purchasable variant (in_stock or backorder) of a published product with a price in the cart's market can be added; otherwise 422 sandbox_variant_not_purchasable (unknown, draft, weighted, out of stock or unpriced). Adding a variant already in the cart adds to its quantity; more than 99 of one variant is 400. Idempotency-Key is optional. ${IDEMPOTENCY_RULES}`,
        security: [{ sandboxBearer: [CART_SCOPE] }],
        params: CartParams,
        headers: optionalIdempotencyKey,
        body: Type.Ref('SandboxItemRequest'),
        response: cartChangeResponses(201, 'The updated cart', {
          400: 'sandbox_invalid_request: invalid item (variant_id 1 to 128 characters, quantity an integer 1 to 99, no other properties), a total above 99 of one variant, invalid Idempotency-Key, or malformed JSON.',
          422: `sandbox_variant_not_purchasable: the variant is unknown, draft, weighted, out of stock or has no price in the cart's market; or ${IDEMPOTENCY_MISMATCH}`,
        }),
      },
      onRequest: guard(CART_SCOPE),
    },
    async (request, reply) =>
      sendIdempotently(services, request, reply, 201, () => services.carts.addItem(principalOf(request), request.params.id, request.body)),
  );
}
