import type { CheckoutSessionView } from '../sandbox/checkout/checkout-views.js';
import { MAX_QUANTITY } from '../sandbox/schemas.js';
import { CHECKOUT_SCOPE } from '../sandbox/scopes.js';
import { SANDBOX_PAYMENT_TOKENS } from '../sandbox/payment/simulated-payments.js';
import { STANDARD_SHIPPING_TEXT } from '../sandbox/shipping.js';
import { answeringRefusals } from './errors.js';
import type { UcpMessage } from './messages.js';
import type { UcpCall, UcpOperation, UcpOperationKit } from './operation.js';
import { SANDBOX_CREDENTIAL_TYPE, SANDBOX_PAYMENT_HANDLER_ID } from './profile/payment-handler.js';
import {
  CheckoutCompleteRequest,
  CheckoutCreateRequest,
  CheckoutResult,
  CheckoutUpdateRequest,
  checkoutChoices,
  chosenInstrument,
  sandboxToken,
  ucpCheckout,
} from './shapes/checkout.js';
import { marketFromContext, marketRequest } from './shapes/context.js';
import { rejectedDiscounts, type DiscountsInput } from './shapes/discounts.js';
import { LINE_ITEMS_RULE, lineInputs, requireBodyId } from './shapes/line-items.js';
import { UcpOrderSchema, ucpOrder } from './shapes/order.js';
import { ROOT_CAPABILITIES } from './version.js';

const keyNeeded = (resource: string) =>
  `Needs a sandbox key with ${CHECKOUT_SCOPE} (POST /sandbox/v1/keys), sent as Authorization: Bearer; ${resource} belongs to its key, and another key's is not_found. Simulated: nothing is bought, paid or shipped.`;
const KEY = keyNeeded('a checkout');
const FULFILLMENT = `With the fulfillment extension, fulfillment.methods[0] is one shipping method: its destinations (a postal address with address_country; the selected one, or the only one) and groups[0].selected_option_id, one of the options answered (${STANDARD_SHIPPING_TEXT}; another is invalid_request). Without it, no destination can be given and the checkout cannot complete.`;
const CHOICES = `buyer (first_name, last_name, email, phone_number; consent with the buyer consent extension) is kept and echoed. ${FULFILLMENT} Discount codes (discount extension) are each rejected with a warning discount_code_invalid.`;
const STATUS = 'status is incomplete while messages list errors to fix (each with the JSONPath of the field), ready_for_complete without.';
const NOT_FOUND = 'An unknown or expired checkout, or another key\'s, is the outcome not_found (ucp.status error).';
const NOT_MODIFIABLE = 'A completed or canceled checkout cannot change: the outcome not_modifiable.';
const BAD_REQUEST = `invalid_profile_url: the UCP-Agent header is missing or malformed; invalid_request: the request does not match the schema, a variant's quantity is above ${MAX_QUANTITY} once its lines are added up, or an option or destination selected is not offered.`;
const TOKENS = SANDBOX_PAYMENT_TOKENS.map(({ token, result }) => `${token} (${result.outcome === 'approved' ? 'approved' : `declined: ${result.reason}`})`).join(', ');

/**
 * UCP's checkout and order operations (dev.ucp.shopping.checkout and .order; checkout.md,
 * order.md) over the sandbox's protocol-neutral checkout sessions and simulated orders
 * (src/sandbox/checkout/), rendered by src/ucp/shapes/checkout.ts and order.ts.
 */
export function checkoutOperations(kit: UcpOperationKit): UcpOperation<any>[] {
  const { catalog, sandbox, continueUrl, config } = kit;
  const checkouts = sandbox.checkouts;
  /** The checkout as answered to `call`: the extensions' parts only when negotiated. */
  const answer = (session: CheckoutSessionView, call: UcpCall, notes: readonly UcpMessage[] = [], codes?: DiscountsInput) => {
    const discount = rejectedDiscounts(call.negotiated, codes);
    return ucpCheckout(session, {
      negotiated: call.negotiated,
      continueUrl,
      publicBaseUrl: config.publicBaseUrl,
      messages: [...notes, ...discount.messages],
      discounts: discount.discounts,
    });
  };

  const create: UcpOperation<CheckoutCreateRequest> = {
    name: 'create_checkout',
    title: 'Create a checkout',
    description: `A new sandbox checkout session, priced in minor units. ${LINE_ITEMS_RULE} The market is the context's, as create_cart's; or cart_id checks out a cart of the key (its lines and market; the key's open checkout of that cart is answered if there is one). Lines that cannot be bought stay, as errors (item_unavailable, out_of_stock); when none of the lines can be bought, no checkout is made and the answer is that outcome (ucp.status error). ${CHOICES} ${STATUS} ${KEY}`,
    capability: ROOT_CAPABILITIES.checkout,
    method: 'POST',
    path: '/checkout-sessions',
    creates: true,
    payload: { name: 'checkout', schema: CheckoutCreateRequest },
    result: CheckoutResult,
    scope: CHECKOUT_SCOPE,
    idempotent: true,
    errors: { 400: BAD_REQUEST },
    readOnly: false,
    run: ({ payload }, call) =>
      answeringRefusals(continueUrl, async () => {
        const principal = call.principal!;
        const choices = checkoutChoices(payload, call.negotiated, false);
        if (payload.cart_id !== undefined) return answer(await checkouts.create(principal, { cart_id: payload.cart_id, ...choices }), call, [], payload.discounts);
        const { market, notes } = marketFromContext(catalog.live, payload.context, call.request.headers['accept-language']);
        // checkout.md, Error Handling: when all items are unavailable, no checkout (the outcome nothing_sellable words).
        const session = await checkouts.create(principal, { ...marketRequest(market), lines: lineInputs(payload.line_items), ...choices, requireSellableLine: true });
        return answer(session, call, notes, payload.discounts);
      }),
  };

  const get: UcpOperation<undefined> = {
    name: 'get_checkout',
    title: 'Get a checkout',
    description: `The checkout as it is now: priced from the live catalog until it completes, as its order froze it after. ${STATUS} ${NOT_FOUND} ${KEY}`,
    capability: ROOT_CAPABILITIES.checkout,
    method: 'GET',
    path: '/checkout-sessions/{id}',
    result: CheckoutResult,
    scope: CHECKOUT_SCOPE,
    readOnly: true,
    run: ({ id }, call) => answeringRefusals(continueUrl, async () => answer(await checkouts.get(call.principal!, id!), call)),
  };

  const update: UcpOperation<CheckoutUpdateRequest> = {
    name: 'update_checkout',
    title: 'Update a checkout',
    description: `Replaces the checkout's line items, buyer and (with the fulfillment extension) fulfillment with the request's: send the whole checkout, what is left out is cleared. ${LINE_ITEMS_RULE} The currency stays the session's; a destination in another served country of the same currency moves its market. ${CHOICES} ${STATUS} ${NOT_FOUND} ${NOT_MODIFIABLE} ${KEY}`,
    capability: ROOT_CAPABILITIES.checkout,
    method: 'PUT',
    path: '/checkout-sessions/{id}',
    payload: { name: 'checkout', schema: CheckoutUpdateRequest },
    result: CheckoutResult,
    scope: CHECKOUT_SCOPE,
    idempotent: true,
    errors: { 400: `${BAD_REQUEST} The body's id, when given, must be the checkout's.` },
    readOnly: false,
    run: ({ id, payload }, call) => {
      requireBodyId('checkout', payload.id, id!);
      return answeringRefusals(continueUrl, async () => {
        const session = await checkouts.update(call.principal!, id!, { lines: lineInputs(payload.line_items), ...checkoutChoices(payload, call.negotiated, true) });
        return answer(session, call, [], payload.discounts);
      });
    },
  };

  const complete: UcpOperation<CheckoutCompleteRequest> = {
    name: 'complete_checkout',
    title: 'Complete a checkout',
    description: `Pays with a sandbox instrument of the ${SANDBOX_PAYMENT_HANDLER_ID} handler (payment.instruments: the selected one, or the only one: { id, handler_id: "${SANDBOX_PAYMENT_HANDLER_ID}", type: "card", credential: { type: "${SANDBOX_CREDENTIAL_TYPE}", token } }). Tokens: ${TOKENS}. Approved, the checkout is completed and a simulated order is made: the answer carries order { id, permalink_url } (get_order), and the platform's order webhook gets its event. Declined, the checkout stays as it was, with an error payment_failed (recoverable). Anything that looks like a real card number is refused (real_card_refused), as is a token the sandbox does not know or an instrument of another handler (unknown_instrument); nothing of it is stored or echoed. A checkout with errors to fix is the outcome listing them. ${NOT_FOUND} ${NOT_MODIFIABLE} ${KEY}`,
    capability: ROOT_CAPABILITIES.checkout,
    method: 'POST',
    path: '/checkout-sessions/{id}/complete',
    payload: { name: 'checkout', schema: CheckoutCompleteRequest },
    result: CheckoutResult,
    scope: CHECKOUT_SCOPE,
    idempotent: true,
    idempotencyKeyRequiredOnMcp: true,
    errors: {
      400: `${BAD_REQUEST} Several instruments without one selected; real_card_refused: a real-looking card number anywhere in the request; unknown_instrument: no sandbox token.`,
    },
    readOnly: false,
    run: ({ id, payload }, call) =>
      answeringRefusals(continueUrl, async () => {
        const token = sandboxToken(chosenInstrument(payload), SANDBOX_PAYMENT_HANDLER_ID, SANDBOX_CREDENTIAL_TYPE);
        // The whole request is searched for card numbers, not only the instrument's credential.
        const { session } = await checkouts.complete(call.principal!, id!, { token, credential: payload }, kit.orderEvents(call.negotiated));
        return answer(session, call);
      }),
  };

  const cancel: UcpOperation<undefined> = {
    name: 'cancel_checkout',
    title: 'Cancel a checkout',
    description: `Cancels an open checkout: it can no longer change or complete (its cart, if any, may start a new one). ${NOT_FOUND} ${NOT_MODIFIABLE} ${KEY}`,
    capability: ROOT_CAPABILITIES.checkout,
    method: 'POST',
    path: '/checkout-sessions/{id}/cancel',
    result: CheckoutResult,
    scope: CHECKOUT_SCOPE,
    idempotent: true,
    idempotencyKeyRequiredOnMcp: true,
    readOnly: false,
    run: ({ id }, call) => answeringRefusals(continueUrl, async () => answer(await checkouts.cancel(call.principal!, id!), call)),
  };

  return [create, get, update, complete, cancel];
}

/** UCP's get_order (dev.ucp.shopping.order): the simulated orders completed checkouts made. */
export function orderOperations({ sandbox, continueUrl, config }: UcpOperationKit): UcpOperation<any>[] {
  const get: UcpOperation<undefined> = {
    name: 'get_order',
    title: 'Get an order',
    description: `A simulated order made by complete_checkout, as its checkout froze it (amounts in minor units): its lines, each processing with nothing fulfilled, one shipping expectation to the checkout's address, and its totals. Nothing is ever shipped. An unknown or expired order, or another key's, is the outcome not_found. ${keyNeeded('an order')}`,
    capability: ROOT_CAPABILITIES.order,
    method: 'GET',
    path: '/orders/{id}',
    result: UcpOrderSchema,
    scope: CHECKOUT_SCOPE,
    readOnly: true,
    run: ({ id }, call) => answeringRefusals(continueUrl, async () => ucpOrder(await sandbox.checkouts.getOrder(call.principal!, id!), config.publicBaseUrl)),
  };
  return [get];
}
