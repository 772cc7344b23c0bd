import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { CHECKOUT_SCOPE } from '../scopes.js';
import { cartChangeResponses, IDEMPOTENCY_MISMATCH } from './docs.js';
import { CartParams, IDEMPOTENCY_RULES, optionalBody, principalOf, requiredIdempotencyKey, sendIdempotently, type SandboxRouteKit } from './shared.js';

export function checkoutRoute(app: FastifyInstance, { services, guard }: SandboxRouteKit): void {
  app.post<{ Params: Static<typeof CartParams> }>(
    '/v1/carts/:id/checkout',
    {
      schema: {
        operationId: 'checkoutSandboxCart',
        tags: ['sandbox'],
        summary: 'Simulate checkout',
        description: `Needs checkout:create: without a key 401, with a key lacking the scope 403. A cart with at least one item, a shipping address and a selected shipping option answers 200 with \`status: ready_for_checkout\` and \`checkout_url: null\`; otherwise 422 sandbox_cart_incomplete naming what is missing. Nothing is created: no order, payment, customer or stock reservation, and the cart stays as it is. Idempotency-Key is required. ${IDEMPOTENCY_RULES}`,
        security: [{ sandboxBearer: [CHECKOUT_SCOPE] }],
        params: CartParams,
        headers: requiredIdempotencyKey,
        'x-optional-body': true,
        body: Type.Ref('SandboxEmptyRequest'),
        response: cartChangeResponses(200, 'The simulated checkout result', {
          400: 'sandbox_invalid_request: missing or invalid Idempotency-Key, a non-empty body, or malformed JSON.',
          401: 'sandbox_unauthorized: no, malformed, unknown or expired key.',
          403: 'sandbox_insufficient_scope: the key lacks checkout:create.',
          422: `sandbox_cart_incomplete: no item, no shipping address or no shipping option (the message names them); or ${IDEMPOTENCY_MISMATCH}`,
        }),
      },
      onRequest: guard(CHECKOUT_SCOPE, false),
      preValidation: optionalBody,
    },
    async (request, reply) =>
      sendIdempotently(services, request, reply, 200, () => services.carts.checkout(principalOf(request), request.params.id)),
  );
}
