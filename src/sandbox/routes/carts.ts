import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { DEFAULT_COUNTRY } from '../../catalog/market.js';
import { cartLimitText } from '../rate-limits.js';
import {
  DEFAULT_CURRENCY,
  MAX_QUANTITY,
  VARIANT_ID_MAX_LENGTH,
  variantId,
  type SandboxAddress,
  type SandboxCartRequest,
  type SandboxItemQuantityRequest,
  type SandboxItemRequest,
  type SandboxShippingOptionRequest,
} from '../schemas.js';
import { CART_SCOPE, CHECKOUT_SCOPE } from '../scopes.js';
import { shippingAmountsText, shippingCurrenciesText, STANDARD_SHIPPING_ID, STANDARD_SHIPPING_TEXT } from '../shipping.js';
import {
  cartChangeResponses,
  cartRateLimitHeaders,
  cartResponse,
  CART_AUTH_ERRORS,
  errorResponses,
  idempotencyHeaders,
  IDEMPOTENCY_MISMATCH,
  jsonResponse,
  UNKNOWN_SCENARIO,
} from './docs.js';
import {
  CartParams,
  cartHeaders,
  cartHeadersRequiringIdempotencyKey,
  cartHeadersWithIdempotencyKey,
  cartsFor,
  IDEMPOTENCY_RULES,
  optionalBody,
  principalOf,
  requireKey,
  requireKeyWithScope,
  sendIdempotently,
  type SandboxRouteKit,
} from './shared.js';

type OnCart = { Params: Static<typeof CartParams> };

const RemoveQuery = Type.Object({ variant_id: variantId('The variant to remove with all its quantity.') });

const LineParams = Type.Object({ ...CartParams.properties, variant_id: variantId('The variant whose line to set: one of the cart\'s `items[].variant_id`.') });

const NEEDS_CART_WRITE = `Needs ${CART_SCOPE} (else 401).`;

/** The explicit cart routes: a cart, its items, its shipping address and option, and checkout. */
/**
 * A cart request as it was compared before `country` existed, when the schema filled in
 * the default currency: `{}` and `{"currency": "EUR"}` stay one request for an
 * Idempotency-Key, as they were (and a retry of `{}` stored before still matches).
 */
function asFirstStored(body: Static<typeof SandboxCartRequest> | undefined): Static<typeof SandboxCartRequest> | undefined {
  return body && body.country === undefined && body.currency === undefined ? { ...body, currency: DEFAULT_CURRENCY } : body;
}

export function cartRoutes(app: FastifyInstance, { config, services }: SandboxRouteKit): void {
  const rateLimit = cartRateLimitHeaders(config.sandbox);
  const createHeaders = { ...rateLimit, ...idempotencyHeaders };
  const cartWrite = requireKeyWithScope(services, CART_SCOPE);
  const { shippingAmounts } = config.sandbox;

  app.post<{ Body: Static<typeof SandboxCartRequest> }>(
    '/v1/carts',
    {
      schema: {
        operationId: 'createSandboxCart',
        tags: ['sandbox'],
        summary: 'Create a simulated cart',
        description: `${NEEDS_CART_WRITE} Opens an empty cart in \`currency\` (default ${DEFAULT_CURRENCY}), owned by the calling key and expiring with it; only that key can see it. The currency must be sold by a catalog region and have a sandbox shipping amount (${shippingCurrenciesText(shippingAmounts)} here), else 400. To price the cart in the market the shopper browsed, send their \`country\` (and the \`locale\` of the titles): the cart then has the prices the catalog shows for that country, \`currency\` defaults to that country's region's (another currency, or a country no region serves, is 400), and the cart answers as SandboxMarketCart (\`market\`, and per line the product handle, title, variant display name, thumbnail and line total), as does a cart opened with \`locale\` alone. Without them the market is the currency's region (that of ${DEFAULT_COUNTRY} where it sells the currency) and the answer a plain SandboxCart. Idempotency-Key is required. ${IDEMPOTENCY_RULES} Limit: ${cartLimitText(config.sandbox)}.`,
        security: [{ sandboxBearer: [CART_SCOPE] }],
        headers: cartHeadersRequiringIdempotencyKey,
        'x-optional-body': true,
        body: Type.Ref('SandboxCartRequest'),
        response: {
          201: cartResponse('The new, empty cart', createHeaders),
          ...errorResponses(
            {
              400: "sandbox_invalid_request: missing or invalid Idempotency-Key, an unknown Sandbox-Scenario, invalid currency, country or locale, a currency the sandbox does not sell, a country no catalog region serves, a currency other than the country's region's, extra properties, or malformed JSON.",
              401: CART_AUTH_ERRORS[401],
              422: IDEMPOTENCY_MISMATCH,
              429: CART_AUTH_ERRORS[429],
            },
            createHeaders,
          ),
        },
      },
      onRequest: cartWrite,
      preValidation: optionalBody,
    },
    async (request, reply) =>
      sendIdempotently(services, request, reply, 201, () => cartsFor(services, request).createCart(principalOf(request), request.body), asFirstStored(request.body)),
  );

  app.get<OnCart>(
    '/v1/carts/:id',
    {
      schema: {
        operationId: 'getSandboxCart',
        tags: ['sandbox'],
        summary: 'Read a cart',
        description: `${NEEDS_CART_WRITE} The cart with unit prices and totals recalculated from the live catalog now. Only the key that created the cart can read it; any other key gets 404.`,
        security: [{ sandboxBearer: [CART_SCOPE] }],
        params: CartParams,
        headers: cartHeaders,
        response: {
          200: cartResponse('The cart', rateLimit),
          ...errorResponses({ 400: UNKNOWN_SCENARIO, ...CART_AUTH_ERRORS }, rateLimit),
        },
      },
      onRequest: cartWrite,
    },
    async (request) => cartsFor(services, request).getCart(principalOf(request), request.params.id),
  );

  app.post<OnCart & { Body: Static<typeof SandboxItemRequest> }>(
    '/v1/carts/:id/items',
    {
      schema: {
        operationId: 'addSandboxCartItem',
        tags: ['sandbox'],
        summary: 'Add a variant to a cart',
        description: `${NEEDS_CART_WRITE} Only a purchasable variant (in_stock or backorder) of a published product with a price in the cart's market can be added; otherwise 422 sandbox_variant_not_purchasable (unknown, draft, weighted, out of stock or unpriced). Adding a variant already in the cart adds to its quantity; more than ${MAX_QUANTITY} of one variant is 400. Idempotency-Key is optional. ${IDEMPOTENCY_RULES}`,
        security: [{ sandboxBearer: [CART_SCOPE] }],
        params: CartParams,
        headers: cartHeadersWithIdempotencyKey,
        body: Type.Ref('SandboxItemRequest'),
        response: cartChangeResponses(rateLimit, 201, 'The updated cart', {
          400: `sandbox_invalid_request: invalid item (variant_id 1 to ${VARIANT_ID_MAX_LENGTH} characters, quantity an integer 1 to ${MAX_QUANTITY}, no other properties), a total above ${MAX_QUANTITY} of one variant, invalid Idempotency-Key, an unknown Sandbox-Scenario, or malformed JSON.`,
          422: `sandbox_variant_not_purchasable: the variant is unknown, draft, weighted, out of stock or has no price in the cart's market, or the out_of_stock scenario was asked for; or ${IDEMPOTENCY_MISMATCH}`,
        }),
      },
      onRequest: cartWrite,
    },
    async (request, reply) =>
      sendIdempotently(services, request, reply, 201, () => cartsFor(services, request).addItem(principalOf(request), request.params.id, request.body)),
  );

  app.delete<OnCart & { Querystring: Static<typeof RemoveQuery> }>(
    '/v1/carts/:id/items',
    {
      schema: {
        operationId: 'removeSandboxCartItem',
        tags: ['sandbox'],
        summary: 'Remove a variant from a cart',
        description: `${NEEDS_CART_WRITE} Removes the variant and all its quantity. Removing a variant that is not in the cart is not an error: the answer is 200 with the cart unchanged, so a retried DELETE succeeds like the first one.`,
        security: [{ sandboxBearer: [CART_SCOPE] }],
        params: CartParams,
        querystring: RemoveQuery,
        headers: cartHeaders,
        response: {
          200: cartResponse('The updated cart', rateLimit),
          ...errorResponses({ 400: `sandbox_invalid_request: variant_id missing or outside 1 to ${VARIANT_ID_MAX_LENGTH} characters, or an unknown Sandbox-Scenario.`, ...CART_AUTH_ERRORS }, rateLimit),
        },
      },
      onRequest: cartWrite,
    },
    async (request) => cartsFor(services, request).removeItem(principalOf(request), request.params.id, request.query.variant_id),
  );

  app.post<{ Params: Static<typeof LineParams>; Body: Static<typeof SandboxItemQuantityRequest> }>(
    '/v1/carts/:id/items/:variant_id',
    {
      schema: {
        operationId: 'setSandboxCartItemQuantity',
        tags: ['sandbox'],
        summary: "Set a line's quantity",
        description: `${NEEDS_CART_WRITE} Sets the quantity of the cart's line for the variant, 0 to ${MAX_QUANTITY}; 0 removes the line. A positive quantity is checked as an addition is: only a purchasable variant priced in the cart's market, else 422 sandbox_variant_not_purchasable. A variant that is not a line of the cart (as the cart answers it) is 404 sandbox_not_found: add it with POST /sandbox/v1/carts/{id}/items. Idempotency-Key is optional. ${IDEMPOTENCY_RULES}`,
        security: [{ sandboxBearer: [CART_SCOPE] }],
        params: LineParams,
        headers: cartHeadersWithIdempotencyKey,
        body: Type.Ref('SandboxItemQuantityRequest'),
        response: cartChangeResponses(rateLimit, 200, 'The updated cart', {
          400: `sandbox_invalid_request: quantity missing or not an integer 0 to ${MAX_QUANTITY}, variant_id outside 1 to ${VARIANT_ID_MAX_LENGTH} characters, extra properties, invalid Idempotency-Key, an unknown Sandbox-Scenario, or malformed JSON.`,
          404: "sandbox_not_found: no such cart, another key's cart, or a variant that is not in the cart.",
          422: `sandbox_variant_not_purchasable: a positive quantity of a variant that is unknown, draft, weighted, out of stock or has no price in the cart's market, or the out_of_stock scenario was asked for; or ${IDEMPOTENCY_MISMATCH}`,
        }),
      },
      onRequest: cartWrite,
    },
    async (request, reply) =>
      sendIdempotently(services, request, reply, 200, () =>
        cartsFor(services, request).setItemQuantity(principalOf(request), request.params.id, request.params.variant_id, request.body.quantity),
      ),
  );

  app.post<OnCart & { Body: Static<typeof SandboxAddress> }>(
    '/v1/carts/:id/shipping-address',
    {
      schema: {
        operationId: 'setSandboxShippingAddress',
        tags: ['sandbox'],
        summary: 'Set the shipping address',
        description: `${NEEDS_CART_WRITE} Replaces the cart's simulated shipping address. When a catalog region serves its country and sells in the cart's currency, that region becomes the cart's market, and its region-specific prices apply from this answer on. An address in any other country is accepted too, and the cart stays in the market it was opened for: its \`country\`'s region, or its currency's region (\`market\` of a SandboxMarketCart says which). Idempotency-Key is optional. ${IDEMPOTENCY_RULES}`,
        security: [{ sandboxBearer: [CART_SCOPE] }],
        params: CartParams,
        headers: cartHeadersWithIdempotencyKey,
        body: Type.Ref('SandboxAddress'),
        response: cartChangeResponses(rateLimit, 200, 'The updated cart', {
          400: 'sandbox_invalid_request: a field missing or outside its bounds, a country that is not two letters, extra properties, invalid Idempotency-Key, an unknown Sandbox-Scenario, or malformed JSON.',
        }),
      },
      onRequest: cartWrite,
    },
    async (request, reply) =>
      sendIdempotently(services, request, reply, 200, () => cartsFor(services, request).setShippingAddress(principalOf(request), request.params.id, request.body)),
  );

  app.get<OnCart>(
    '/v1/carts/:id/shipping-options',
    {
      schema: {
        operationId: 'listSandboxShippingOptions',
        tags: ['sandbox'],
        summary: "The cart's shipping options",
        description: `${NEEDS_CART_WRITE} One simulated option, ${STANDARD_SHIPPING_TEXT}, at the amount configured for the cart's currency (${shippingAmountsText(shippingAmounts)} here). A currency whose amount was removed from the configuration after the cart was opened has no option.`,
        security: [{ sandboxBearer: [CART_SCOPE] }],
        params: CartParams,
        headers: cartHeaders,
        response: {
          200: jsonResponse('The shipping options', 'SandboxShippingOptions', rateLimit),
          ...errorResponses({ 400: UNKNOWN_SCENARIO, ...CART_AUTH_ERRORS }, rateLimit),
        },
      },
      onRequest: cartWrite,
    },
    async (request) => cartsFor(services, request).listShippingOptions(principalOf(request), request.params.id),
  );

  app.post<OnCart & { Body: Static<typeof SandboxShippingOptionRequest> }>(
    '/v1/carts/:id/shipping-option',
    {
      schema: {
        operationId: 'selectSandboxShippingOption',
        tags: ['sandbox'],
        summary: 'Select the shipping option',
        description: `${NEEDS_CART_WRITE} Selects ${STANDARD_SHIPPING_TEXT}, the only option; its amount is added to the totals. Idempotency-Key is optional. ${IDEMPOTENCY_RULES}`,
        security: [{ sandboxBearer: [CART_SCOPE] }],
        params: CartParams,
        headers: cartHeadersWithIdempotencyKey,
        body: Type.Ref('SandboxShippingOptionRequest'),
        response: cartChangeResponses(rateLimit, 200, 'The updated cart', {
          400: `sandbox_invalid_request: shipping_option_id missing or not ${STANDARD_SHIPPING_ID}, extra properties, invalid Idempotency-Key, an unknown Sandbox-Scenario, or malformed JSON.`,
        }),
      },
      onRequest: cartWrite,
    },
    async (request, reply) =>
      sendIdempotently(services, request, reply, 200, () =>
        cartsFor(services, request).selectShippingOption(principalOf(request), request.params.id, request.body.shipping_option_id),
      ),
  );

  app.post<OnCart>(
    '/v1/carts/:id/checkout',
    {
      schema: {
        operationId: 'checkoutSandboxCart',
        tags: ['sandbox'],
        summary: 'Simulate checkout',
        description: `Needs ${CHECKOUT_SCOPE}: without a key 401, with a key lacking the scope 403. A cart with at least one item, a shipping address and a selected shipping option answers 200 with \`status: ready_for_checkout\` and \`checkout_url: null\`; otherwise 422 sandbox_cart_incomplete naming what is missing. Nothing is created: no order, payment, customer or stock reservation, and the cart stays as it is. Idempotency-Key is required. ${IDEMPOTENCY_RULES}`,
        security: [{ sandboxBearer: [CHECKOUT_SCOPE] }],
        params: CartParams,
        headers: cartHeadersRequiringIdempotencyKey,
        'x-optional-body': true,
        body: Type.Ref('SandboxEmptyRequest'),
        response: cartChangeResponses(rateLimit, 200, 'The simulated checkout result', {
          400: 'sandbox_invalid_request: missing or invalid Idempotency-Key, an unknown Sandbox-Scenario, a non-empty body, or malformed JSON.',
          401: 'sandbox_unauthorized: no, malformed, unknown or expired key.',
          403: `sandbox_insufficient_scope: the key lacks ${CHECKOUT_SCOPE}.`,
          422: `sandbox_cart_incomplete: no item, no shipping address or no shipping option (the message names them); or ${IDEMPOTENCY_MISMATCH}`,
        }),
      },
      onRequest: requireKey(services, CHECKOUT_SCOPE),
      preValidation: optionalBody,
    },
    async (request, reply) => sendIdempotently(services, request, reply, 200, () => cartsFor(services, request).checkout(principalOf(request), request.params.id)),
  );
}
