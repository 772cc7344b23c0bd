import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { Type, type Static } from 'typebox';
import type { SandboxPrincipal } from '../auth.js';
import type { SandboxCartService } from '../cart-service.js';
import type { SandboxCartView } from '../cart-views.js';
import { MAX_QUANTITY, type SandboxAction, type SandboxAddressInput } from '../schemas.js';
import { CART_SCOPE, CHECKOUT_SCOPE } from '../scopes.js';
import { cartChangeResponses, cartRateLimitHeaders, deprecationHeaders, IDEMPOTENCY_MISMATCH } from './docs.js';
import {
  CartParams,
  cartHeadersWithIdempotencyKey,
  cartsFor,
  IDEMPOTENCY_RULES,
  principalOf,
  requireKey,
  sendIdempotently,
  type SandboxRouteKit,
} from './shared.js';

/** Fixed so clients can plan: about six months after the explicit routes shipped. */
const COMPATIBILITY_SUNSET = 'Mon, 31 May 2027 00:00:00 GMT';

/** POST /sandbox/v1/carts/{id}: the deprecated one-route-for-every-action API, kept for existing integrations. */
export function compatibilityRoutes(app: FastifyInstance, { config, services }: SandboxRouteKit): void {
  const announceDeprecation: onRequestHookHandler = async (_request, reply) => {
    reply.headers({
      deprecation: 'true',
      sunset: COMPATIBILITY_SUNSET,
      link: `<${config.publicBaseUrl}/openapi.json>; rel="successor-version"`,
    });
  };

  app.post<{ Params: Static<typeof CartParams>; Body: SandboxAction }>(
    '/v1/carts/:id',
    {
      schema: {
        operationId: 'applySandboxCartAction',
        tags: ['sandbox'],
        summary: 'Apply a cart action (deprecated)',
        description: `Deprecated: use the explicit cart routes. Every answer carries \`Deprecation: true\`, \`Sunset: ${COMPATIBILITY_SUNSET}\` and a \`Link\` to their documentation. One action per call, discriminated by \`action\`: add_item, set_shipping_address, select_shipping_option (each needs ${CART_SCOPE}) and checkout_link (needs ${CHECKOUT_SCOPE}), with the same rules as the explicit routes. A key lacking the action's scope gets 403; no or an invalid key 401. Answers are 200 with the updated cart or the simulated checkout result. Idempotency-Key is optional. ${IDEMPOTENCY_RULES}`,
        deprecated: true,
        security: [{ sandboxBearer: [] }],
        params: CartParams,
        headers: cartHeadersWithIdempotencyKey,
        body: Type.Ref('SandboxActionRequest'),
        response: cartChangeResponses(
          cartRateLimitHeaders(config.sandbox),
          200,
          'The updated cart, or the simulated checkout result',
          {
            400: `sandbox_invalid_request: unknown action, a field of the action missing or out of bounds, extra properties, the action's 400s (more than ${MAX_QUANTITY} of a variant), invalid Idempotency-Key, an unknown Sandbox-Scenario, or malformed JSON.`,
            401: 'sandbox_unauthorized: no, malformed, unknown or expired key.',
            403: "sandbox_insufficient_scope: the key lacks the action's scope (`scope` names it).",
            422: `sandbox_variant_not_purchasable (add_item; also the out_of_stock scenario), sandbox_cart_incomplete (checkout_link), or ${IDEMPOTENCY_MISMATCH}`,
          },
          deprecationHeaders(COMPATIBILITY_SUNSET),
        ),
      },
      onRequest: [announceDeprecation, requireKey(services)],
    },
    async (request, reply) =>
      sendIdempotently(services, request, reply, 200, () =>
        applyAction(cartsFor(services, request), principalOf(request), request.params.id, request.body),
      ),
  );
}

/** Each action is the explicit route's service call: the rules live in one place. */
function applyAction(carts: SandboxCartService, principal: SandboxPrincipal, cartId: string, body: SandboxAction): Promise<SandboxCartView> {
  switch (body.action) {
    case 'add_item':
      return carts.addItem(principal, cartId, { variant_id: body.variant_id, quantity: body.quantity });
    case 'set_shipping_address':
      return carts.setShippingAddress(principal, cartId, body.address as SandboxAddressInput);
    case 'select_shipping_option':
      return carts.selectShippingOption(principal, cartId, body.shipping_option_id);
    case 'checkout_link':
      return carts.checkout(principal, cartId);
  }
}
