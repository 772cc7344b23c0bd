import type { ProtocolCartView } from '../sandbox/cart-views.js';
import type { RefusedLine } from '../sandbox/cart-service.js';
import { MAX_QUANTITY } from '../sandbox/schemas.js';
import { CART_SCOPE } from '../sandbox/scopes.js';
import { answeringRefusals } from './errors.js';
import type { UcpMessage } from './messages.js';
import type { UcpCall, UcpOperation, UcpOperationKit } from './operation.js';
import { CartCreateRequest, CartResult, CartUpdateRequest, ucpCart } from './shapes/cart.js';
import { marketFromContext, marketRequest } from './shapes/context.js';
import { rejectedDiscounts, type DiscountsInput } from './shapes/discounts.js';
import { LINE_ITEMS_RULE, lineInputs, requireBodyId } from './shapes/line-items.js';
import { ROOT_CAPABILITIES } from './version.js';

const KEY = `Needs a sandbox key with ${CART_SCOPE} (POST /sandbox/v1/keys), sent as Authorization: Bearer; a cart belongs to its key, and another key's is not_found. Simulated: nothing is reserved.`;
const NOT_FOUND = 'An unknown, expired or canceled cart is the outcome not_found (ucp.status error).';
const DISCOUNTS = 'With the discount extension, every code is rejected (warning discount_code_invalid): the sandbox has no discounts.';
const BAD_REQUEST = `invalid_profile_url: the UCP-Agent header is missing or malformed; invalid_request: the request does not match the schema, or a variant's quantity is above ${MAX_QUANTITY} once its lines are added up.`;

/**
 * UCP's cart operations (dev.ucp.shopping.cart, cart.md) over the sandbox's carts: the
 * same carts the sandbox's REST routes and MCP tools serve, rendered in minor units
 * (src/ucp/shapes/cart.ts).
 */
export function cartOperations({ catalog, sandbox, continueUrl }: UcpOperationKit): UcpOperation<any>[] {
  const carts = sandbox.protocolCarts;
  /** The cart as answered to `call`: the discount extension's part only when negotiated. */
  const answer = (cart: ProtocolCartView, refused: readonly RefusedLine[], call: UcpCall, notes: readonly UcpMessage[] = [], codes?: DiscountsInput) => {
    const discount = rejectedDiscounts(call.negotiated, codes);
    return ucpCart(cart, refused, {
      continueUrl,
      // Only stored keys hold the cart scope, and every stored key expires.
      expiresAt: call.principal!.expiresAt!,
      messages: [...notes, ...discount.messages],
      discounts: discount.discounts,
    });
  };

  const create: UcpOperation<CartCreateRequest> = {
    name: 'create_cart',
    title: 'Create a cart',
    description: `A new sandbox cart holding the line items its market can sell now, priced in minor units. ${LINE_ITEMS_RULE} The market is context.address_country's, else the one context.currency is sold in, else the default; context.language picks the titles' language. Lines that cannot be bought (unknown, out of stock, not sold in the market) are not added, and messages say why (item_unavailable, out_of_stock); when none of the lines can be bought, no cart is made and the answer is that outcome (ucp.status error). ${DISCOUNTS} ${KEY}`,
    capability: ROOT_CAPABILITIES.cart,
    method: 'POST',
    path: '/carts',
    creates: true,
    payload: { name: 'cart', schema: CartCreateRequest },
    result: CartResult,
    scope: CART_SCOPE,
    idempotent: true,
    errors: { 400: BAD_REQUEST },
    readOnly: false,
    run: ({ payload }, call) =>
      answeringRefusals(continueUrl, async () => {
        const { market, notes } = marketFromContext(catalog.live, payload.context, call.request.headers['accept-language']);
        // cart.md, Create Cart: when all requested items are unavailable, no cart (the outcome nothing_sellable words).
        const { cart, refused } = await carts.openCart(call.principal!, marketRequest(market), lineInputs(payload.line_items), { requireSellableLine: true });
        return answer(cart, refused, call, notes, payload.discounts);
      }),
  };

  const get: UcpOperation<undefined> = {
    name: 'get_cart',
    title: 'Get a cart',
    description: `The cart as it is now: every line priced from the live catalog in the cart's market (a line that can no longer be bought is left out). ${NOT_FOUND} ${KEY}`,
    capability: ROOT_CAPABILITIES.cart,
    method: 'GET',
    path: '/carts/{id}',
    result: CartResult,
    scope: CART_SCOPE,
    readOnly: true,
    run: ({ id }, call) => answeringRefusals(continueUrl, async () => answer(await carts.getCart(call.principal!, id!), [], call)),
  };

  const update: UcpOperation<CartUpdateRequest> = {
    name: 'update_cart',
    title: 'Update a cart',
    description: `Replaces the cart's line items with the request's (send the whole list; an empty list empties the cart); lines that cannot be bought are not added, and messages say why. ${LINE_ITEMS_RULE} The market and currency stay those of the cart's creation. ${DISCOUNTS} ${NOT_FOUND} ${KEY}`,
    capability: ROOT_CAPABILITIES.cart,
    method: 'PUT',
    path: '/carts/{id}',
    payload: { name: 'cart', schema: CartUpdateRequest },
    result: CartResult,
    scope: CART_SCOPE,
    idempotent: true,
    errors: { 400: `${BAD_REQUEST} The body's id, when given, must be the cart's.` },
    readOnly: false,
    run: ({ id, payload }, call) => {
      requireBodyId('cart', payload.id, id!);
      return answeringRefusals(continueUrl, async () => {
        const { cart, refused } = await carts.replaceItems(call.principal!, id!, lineInputs(payload.line_items));
        return answer(cart, refused, call, [], payload.discounts);
      });
    },
  };

  const cancel: UcpOperation<undefined> = {
    name: 'cancel_cart',
    title: 'Cancel a cart',
    description: `Deletes the cart and answers it as it was; every later call on it is not_found. A checkout made from it keeps its own lines. ${NOT_FOUND} ${KEY}`,
    capability: ROOT_CAPABILITIES.cart,
    method: 'POST',
    path: '/carts/{id}/cancel',
    result: CartResult,
    scope: CART_SCOPE,
    idempotent: true,
    idempotencyKeyRequiredOnMcp: true,
    readOnly: false,
    run: ({ id }, call) => answeringRefusals(continueUrl, async () => answer(await carts.cancelCart(call.principal!, id!), [], call)),
  };

  return [create, get, update, cancel];
}
