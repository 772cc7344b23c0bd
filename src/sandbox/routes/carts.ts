import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { ADD_ITEM, CHECKOUT, CREATE_CART, GET_CART, LIST_SHIPPING, REMOVE_ITEM, SELECT_SHIPPING, SET_ADDRESS, SET_QUANTITY } from '../operations.js';
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
import { STANDARD_SHIPPING_ID } from '../shipping.js';
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
  cartsFor,
  operationSchema,
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

/**
 * A cart request as it was compared before `country` existed, when the schema filled in
 * the default currency: `{}` and `{"currency": "EUR"}` stay one request for an
 * Idempotency-Key, as they were (and a retry of `{}` stored before still matches).
 */
function asFirstStored(body: Static<typeof SandboxCartRequest> | undefined): Static<typeof SandboxCartRequest> | undefined {
  return body && body.country === undefined && body.currency === undefined ? { ...body, currency: DEFAULT_CURRENCY } : body;
}

/** The explicit cart routes: a cart, its items, its shipping address and option, and checkout. */
export function cartRoutes(app: FastifyInstance, { config, services }: SandboxRouteKit): void {
  const rateLimit = cartRateLimitHeaders(config.sandbox);
  const createHeaders = { ...rateLimit, ...idempotencyHeaders };
  const cartWrite = requireKeyWithScope(services, CART_SCOPE);

  app.post<{ Body: Static<typeof SandboxCartRequest> }>(
    CREATE_CART.route,
    {
      schema: {
        ...operationSchema(CREATE_CART, config.sandbox),
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
    GET_CART.route,
    {
      schema: {
        ...operationSchema(GET_CART, config.sandbox),
        params: CartParams,
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
    ADD_ITEM.route,
    {
      schema: {
        ...operationSchema(ADD_ITEM, config.sandbox),
        params: CartParams,
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
    REMOVE_ITEM.route,
    {
      schema: {
        ...operationSchema(REMOVE_ITEM, config.sandbox),
        params: CartParams,
        querystring: RemoveQuery,
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
    SET_QUANTITY.route,
    {
      schema: {
        ...operationSchema(SET_QUANTITY, config.sandbox),
        params: LineParams,
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
    SET_ADDRESS.route,
    {
      schema: {
        ...operationSchema(SET_ADDRESS, config.sandbox),
        params: CartParams,
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
    LIST_SHIPPING.route,
    {
      schema: {
        ...operationSchema(LIST_SHIPPING, config.sandbox),
        params: CartParams,
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
    SELECT_SHIPPING.route,
    {
      schema: {
        ...operationSchema(SELECT_SHIPPING, config.sandbox),
        params: CartParams,
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
    CHECKOUT.route,
    {
      schema: {
        ...operationSchema(CHECKOUT, config.sandbox),
        params: CartParams,
        'x-optional-body': true,
        body: Type.Ref('SandboxEmptyRequest'),
        response: cartChangeResponses(rateLimit, 200, 'The simulated checkout result', {
          400: 'sandbox_invalid_request: missing or invalid Idempotency-Key, an unknown Sandbox-Scenario, a non-empty body, or malformed JSON.',
          401: 'sandbox_unauthorized: no, malformed, unknown or expired key.',
          403: `sandbox_insufficient_scope: the key lacks ${CHECKOUT_SCOPE}.`,
          422: `sandbox_cart_incomplete: no item, no shipping address or no shipping option (the message names them); or ${IDEMPOTENCY_MISMATCH}`,
        }),
      },
      onRequest: requireKey(services, CHECKOUT.scope),
      preValidation: optionalBody,
    },
    async (request, reply) => sendIdempotently(services, request, reply, 200, () => cartsFor(services, request).checkout(principalOf(request), request.params.id)),
  );
}
