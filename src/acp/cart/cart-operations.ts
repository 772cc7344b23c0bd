import { MAX_QUANTITY } from '../../sandbox/schemas.js';
import { CART_SCOPE } from '../../sandbox/scopes.js';
import { linesOf, requireKnownItems } from '../checkout/requests.js';
import { wordingRefusals } from '../errors.js';
import type { AcpCall, AcpOperation, AcpOperationKit } from '../operation.js';
import { cartMarket } from './cart-market.js';
import { AcpCartCancelRequest, AcpCartCreateRequest, AcpCartSchema, AcpCartUpdateRequest, acpCart, type CartAnswer } from './cart.js';

const KEY = `Needs a sandbox key with ${CART_SCOPE} (POST /sandbox/v1/keys) as the bearer token; a cart belongs to its key, and another key's is 404. The cart is the sandbox's: the same one GET /sandbox/v1/carts/{id} and UCP serve. Simulated: nothing is reserved or bought.`;
const ITEMS = `line_items: each { id: <catalog variant id> } is one unit (an id given n times is n of it; at most ${MAX_QUANTITY} per variant, else 400 invalid_request); an id not in the catalog is 400 invalid_item_id. An item the cart's market cannot sell now (out of stock, not sold there) is not added, and an error message says why (out_of_stock, region_restricted).`;
const BUYER = 'buyer is accepted and not kept: a sandbox cart keeps no buyer (its checkout session does).';
const NOT_FOUND = "404 not_found: an unknown, expired or canceled cart, or another key's.";
/** Where the cart service's invalid requests point: a variant's quantity above the maximum. */
const LINES_PATHS = { sandbox_invalid_request: '$.line_items' };

/**
 * ACP's carts (rfc.cart.md, openapi.cart.yaml) over the sandbox's carts
 * (src/sandbox/cart-service.ts), rendered by src/acp/cart/cart.ts.
 */
export function cartOperations({ config, catalog, sandbox }: AcpOperationKit): AcpOperation<any>[] {
  const carts = sandbox.protocolCarts;
  const answer = (call: AcpCall, parts: Pick<CartAnswer, 'refused' | 'notes'> = {}): CartAnswer => ({
    continueUrl: config.storefrontUrl,
    // Only stored keys hold the cart scope, and every stored key expires.
    expiresAt: call.principal.expiresAt!,
    ...parts,
  });

  const create: AcpOperation<AcpCartCreateRequest> = {
    name: 'createCart',
    title: 'Create a cart',
    description: `A new sandbox cart, priced in minor units from the live catalog in its market: the one locale's region names (else the Accept-Language header's), else the default; the currency is that market's. ${ITEMS} When none of the items can be bought, no cart is made: 422 out_of_stock. ${BUYER} ${KEY}`,
    method: 'POST',
    path: '/carts',
    successStatus: 201,
    body: { schema: AcpCartCreateRequest, required: true },
    result: AcpCartSchema,
    scope: CART_SCOPE,
    errors: {
      400: 'invalid_item_id: an item is not in the catalog; invalid_request: a variant above the maximum quantity, or a locale that is no BCP 47 tag.',
      422: 'out_of_stock: none of the items can be bought now; no cart was made.',
    },
    run: async ({ body }, call) => {
      requireKnownItems(catalog.live, body.line_items);
      const { market, note } = cartMarket(catalog.live, config.sandbox.shippingAmounts, body.locale, call.request.headers['accept-language']);
      const { cart, refused } = await wordingRefusals(() => carts.openCart(call.principal, market, linesOf(body.line_items), { requireSellableLine: true }), LINES_PATHS);
      return acpCart(cart, answer(call, { refused, ...(note && { notes: [note] }) }));
    },
  };

  const get: AcpOperation<undefined> = {
    name: 'getCart',
    title: 'Retrieve a cart',
    description: `The cart as it is now, priced from the live catalog in its market (a line that can no longer be bought is left out). ${NOT_FOUND} ${KEY}`,
    method: 'GET',
    path: '/carts/{id}',
    successStatus: 200,
    result: AcpCartSchema,
    scope: CART_SCOPE,
    errors: { 404: NOT_FOUND },
    run: async ({ id }, call) => acpCart(await wordingRefusals(() => carts.getCart(call.principal, id!)), answer(call)),
  };

  const update: AcpOperation<AcpCartUpdateRequest> = {
    name: 'updateCart',
    title: 'Update a cart',
    description: `Full replacement: line_items replace the cart's (send them all). The market and currency stay those of its creation. ${ITEMS} Items none of which can be bought leave the cart empty, each said in a message. ${BUYER} ${NOT_FOUND} ${KEY}`,
    method: 'PUT',
    path: '/carts/{id}',
    successStatus: 200,
    body: { schema: AcpCartUpdateRequest, required: true },
    result: AcpCartSchema,
    scope: CART_SCOPE,
    errors: { 400: 'invalid_item_id: an item is not in the catalog; invalid_request: a variant above the maximum quantity.', 404: NOT_FOUND },
    run: async ({ id, body }, call) => {
      requireKnownItems(catalog.live, body.line_items);
      const { cart, refused } = await wordingRefusals(() => carts.replaceItems(call.principal, id!, linesOf(body.line_items)), LINES_PATHS);
      return acpCart(cart, answer(call, { refused }));
    },
  };

  const cancel: AcpOperation<Record<string, unknown>> = {
    name: 'cancelCart',
    title: 'Cancel a cart',
    description: `Deletes the cart and answers it as it was; every later call on it, a second cancel too, is 404. The body is optional and not read. ${NOT_FOUND} ${KEY}`,
    method: 'POST',
    path: '/carts/{id}/cancel',
    successStatus: 200,
    body: { schema: AcpCartCancelRequest, required: false },
    result: AcpCartSchema,
    scope: CART_SCOPE,
    errors: { 404: NOT_FOUND },
    run: async ({ id }, call) => acpCart(await wordingRefusals(() => carts.cancelCart(call.principal, id!)), answer(call)),
  };

  return [create, get, update, cancel];
}
