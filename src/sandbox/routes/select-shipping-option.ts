import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import type { SandboxShippingOptionRequest } from '../schemas.js';
import { CART_SCOPE } from '../scopes.js';
import { cartChangeResponses } from './docs.js';
import { CartParams, IDEMPOTENCY_RULES, optionalIdempotencyKey, principalOf, sendIdempotently, type SandboxRouteKit } from './shared.js';

export function selectShippingOptionRoute(app: FastifyInstance, { services, guard }: SandboxRouteKit): void {
  app.post<{ Params: Static<typeof CartParams>; Body: Static<typeof SandboxShippingOptionRequest> }>(
    '/v1/carts/:id/shipping-option',
    {
      schema: {
        operationId: 'selectSandboxShippingOption',
        tags: ['sandbox'],
        summary: 'Select the shipping option',
        description: `Needs cart:write (else 401). Selects \`sandbox_standard\`, the only option; its amount is added to the totals. Idempotency-Key is optional. ${IDEMPOTENCY_RULES}`,
        security: [{ sandboxBearer: [CART_SCOPE] }],
        params: CartParams,
        headers: optionalIdempotencyKey,
        body: Type.Ref('SandboxShippingOptionRequest'),
        response: cartChangeResponses(200, 'The updated cart', {
          400: 'sandbox_invalid_request: shipping_option_id missing or not sandbox_standard, extra properties, invalid Idempotency-Key, or malformed JSON.',
        }),
      },
      onRequest: guard(CART_SCOPE),
    },
    async (request, reply) =>
      sendIdempotently(services, request, reply, 200, () =>
        services.carts.selectShippingOption(principalOf(request), request.params.id, request.body.shipping_option_id),
      ),
  );
}
