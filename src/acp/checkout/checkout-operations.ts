import type { CheckoutCreateInput } from '../../sandbox/checkout/checkout-service.js';
import { DECLINED_BECAUSE, SANDBOX_PAYMENT_TOKENS } from '../../sandbox/payment/simulated-payments.js';
import { MAX_QUANTITY } from '../../sandbox/schemas.js';
import { CHECKOUT_SCOPE } from '../../sandbox/scopes.js';
import { shippingAmountsText, STANDARD_SHIPPING_TEXT } from '../../sandbox/shipping.js';
import { AcpProblem, wordingRefusals } from '../errors.js';
import type { AcpOperation, AcpOperationKit } from '../operation.js';
import { ACP_PAYMENT_HANDLER_ID, acpPaymentHandler } from '../payment/payment-handler.js';
import { rejectedCodeMessages, type AcpMessage } from './messages.js';
import {
  AcpCancelRequest,
  AcpCompleteRequest,
  AcpCreateRequest,
  AcpUpdateRequest,
  linesOf,
  requireKnownItems,
  type AcpBuyer,
  type AcpFulfillmentDetails,
} from './requests.js';
import { AcpCheckoutSessionSchema, AcpCheckoutSessionWithOrderSchema, acpSession, withOrder } from './session.js';

type CheckoutAddress = NonNullable<CheckoutCreateInput['shipping_address']>;
type CheckoutBuyer = NonNullable<CheckoutCreateInput['buyer']>;

const KEY = `Needs a sandbox key with ${CHECKOUT_SCOPE} (POST /sandbox/v1/keys) as the bearer token; a session belongs to its key, and another key's is 404. Simulated: nothing is bought, paid or shipped.`;
const STATUS = 'status is not_ready_for_payment while messages list errors to fix (each with the JSONPath of the field), ready_for_payment without.';
const ITEMS = `line_items: each { id: <catalog variant id> } is one unit (an id given n times is n of it; 1 to ${MAX_QUANTITY} per variant, else 400 quantity_exceeded); an id not in the catalog is 400 invalid_item_id. An item out of stock or not sold in the market stays, with an error message.`;
const FULFILLMENT = `fulfillment_details.address (name, line_one, city, state, country, postal_code) is the shipping address; selected_fulfillment_options: [{ type: "shipping", option_id, item_ids }] picks one of fulfillment_options (${STANDARD_SHIPPING_TEXT}) for every line.`;
const CODES = 'discounts.codes (or coupons) are each answered with a warning discount_code_invalid: the sandbox has no discounts.';
const NOT_FOUND = "404 not_found: an unknown or expired session, or another key's.";
const NOT_MODIFIABLE = '405 not_modifiable: the session is completed or canceled (Allow: GET).';
const TOKENS = SANDBOX_PAYMENT_TOKENS.map(({ token, result }) => `${token} (${result.outcome === 'approved' ? 'approved' : `declined: ${result.reason}`})`).join(', ');

/** Where each sandbox refusal points in the requests. */
const LINES_PATHS = { too_many_lines: '$.line_items', quantity_out_of_range: '$.line_items' };
const CREATE_PATHS = { ...LINES_PATHS, unsupported_currency: '$.currency', invalid_market: '$.currency' };
const UPDATE_PATHS = { ...LINES_PATHS, unknown_fulfillment_option: '$.selected_fulfillment_options[0].option_id' };
const COMPLETE_PATHS = { real_card_refused: '$.payment_data', unknown_instrument: '$.payment_data.instrument.credential.token' };

/**
 * ACP's checkout sessions (rfc.agentic_checkout.md, openapi.agentic_checkout.yaml) over
 * the sandbox's protocol-neutral checkout sessions and simulated orders
 * (src/sandbox/checkout/), rendered by src/acp/checkout/session.ts.
 */
export function checkoutOperations({ config, catalog, sandbox, orderEvents }: AcpOperationKit): AcpOperation<any>[] {
  const checkouts = sandbox.checkouts;
  const { publicBaseUrl } = config;
  const context = (notes: readonly AcpMessage[] = []) => ({ paymentHandlers: [acpPaymentHandler(publicBaseUrl)], continueUrl: config.storefrontUrl, publicBaseUrl, notes });
  const codeNotes = (body: { discounts?: { codes?: string[] }; coupons?: string[] }) => [
    ...rejectedCodeMessages(body.discounts?.codes, 'discounts.codes'),
    ...rejectedCodeMessages(body.coupons, 'coupons'),
  ];

  const create: AcpOperation<AcpCreateRequest> = {
    name: 'createCheckoutSession',
    mcpTool: 'create_checkout_session',
    title: 'Create a checkout session',
    description: `A new sandbox checkout session in the currency named (its market: ${shippingAmountsText(config.sandbox.shippingAmounts)} are the currencies shipped to, at those shipping amounts), priced in minor units from the live catalog. ${ITEMS} buyer (first_name, last_name, email, phone_number) is kept. ${FULFILLMENT} ${CODES} ${STATUS} capabilities, attribution and metadata are accepted and not kept. ${KEY}`,
    method: 'POST',
    path: '/checkout_sessions',
    successStatus: 201,
    body: { schema: AcpCreateRequest, required: true },
    result: AcpCheckoutSessionSchema,
    scope: CHECKOUT_SCOPE,
    errors: { 400: 'invalid_item_id: an item is not in the catalog; unsupported_currency: the sandbox does not sell in the currency; too_many_line_items, quantity_exceeded.' },
    run: async ({ body }, { principal }) => {
      requireKnownItems(catalog.live, body.line_items);
      const address = addressOf(body.fulfillment_details);
      const session = await wordingRefusals(
        () =>
          checkouts.create(principal, {
            currency: body.currency.toUpperCase(),
            lines: linesOf(body.line_items),
            ...(body.buyer && { buyer: buyerOf(body.buyer) }),
            ...(address && { shipping_address: address }),
          }),
        CREATE_PATHS,
      );
      return acpSession(session, context(codeNotes(body)));
    },
  };

  const get: AcpOperation<undefined> = {
    name: 'getCheckoutSession',
    mcpTool: 'get_checkout_session',
    title: 'Retrieve a checkout session',
    description: `The session as it is now: priced from the live catalog until it completes, as its order froze it after (a completed session read back carries no order). ${STATUS} ${NOT_FOUND} ${KEY}`,
    method: 'GET',
    path: '/checkout_sessions/{checkout_session_id}',
    successStatus: 200,
    result: AcpCheckoutSessionSchema,
    scope: CHECKOUT_SCOPE,
    errors: { 404: NOT_FOUND },
    run: async ({ id }, { principal }) => acpSession(await wordingRefusals(() => checkouts.get(principal, id!)), context()),
  };

  const update: AcpOperation<AcpUpdateRequest> = {
    name: 'updateCheckoutSession',
    mcpTool: 'update_checkout_session',
    title: 'Update a checkout session',
    description: `Changes what the request names and leaves the rest: line_items replace the session's items; buyer and fulfillment_details.address replace theirs; selected_fulfillment_options picks the shipping option ([] clears it; an option not offered is 400 invalid_fulfillment_option). An address in another served country selling the session's currency moves its market there; the currency never changes. ${ITEMS} ${FULFILLMENT} ${CODES} ${STATUS} ${NOT_FOUND} ${NOT_MODIFIABLE} ${KEY}`,
    method: 'POST',
    path: '/checkout_sessions/{checkout_session_id}',
    successStatus: 200,
    body: { schema: AcpUpdateRequest, required: true },
    result: AcpCheckoutSessionSchema,
    scope: CHECKOUT_SCOPE,
    errors: { 400: 'invalid_item_id, invalid_fulfillment_option, quantity_exceeded, too_many_line_items.', 404: NOT_FOUND, 405: NOT_MODIFIABLE },
    run: async ({ id, body }, { principal }) => {
      if (body.line_items) requireKnownItems(catalog.live, body.line_items);
      const address = addressOf(body.fulfillment_details);
      const option = selectedOption(body.selected_fulfillment_options);
      const session = await wordingRefusals(
        () =>
          checkouts.update(principal, id!, {
            ...(body.line_items && { lines: linesOf(body.line_items) }),
            ...(body.buyer && { buyer: buyerOf(body.buyer) }),
            ...(address && { shipping_address: address }),
            ...(option !== undefined && { fulfillment_option_id: option }),
          }),
        UPDATE_PATHS,
      );
      return acpSession(session, context(codeNotes(body)));
    },
  };

  const complete: AcpOperation<AcpCompleteRequest> = {
    name: 'completeCheckoutSession',
    mcpTool: 'complete_checkout_session',
    title: 'Complete a checkout session',
    description: `Pays a ready session with payment_data { handler_id: "${ACP_PAYMENT_HANDLER_ID}", instrument: { type: "card", credential: { type, token } } }, the token a delegated one (POST /acp/agentic_commerce/delegate_payment: its allowance must cover the session, else the payment is declined) or one of the sandbox's fixed tokens: ${TOKENS}. Approved: the session is completed, a simulated order is made and the answer carries order { id, checkout_session_id, permalink_url }; buyer, when sent, is kept on it. With an order webhook registered for the key (PUT /acp/sandbox/order_webhook), its events are sent there. Declined: 402 payment_declined, and the session stays as it was, ready for another token. Anything that looks like a real card number anywhere in the request is 400 real_card_refused, a token the sandbox does not know 400 unknown_instrument; nothing of it is stored or echoed. A session with errors to fix is 422 not_ready_for_payment. ${NOT_FOUND} ${NOT_MODIFIABLE} ${KEY}`,
    method: 'POST',
    path: '/checkout_sessions/{checkout_session_id}/complete',
    successStatus: 200,
    body: { schema: AcpCompleteRequest, required: true },
    result: AcpCheckoutSessionWithOrderSchema,
    scope: CHECKOUT_SCOPE,
    errors: {
      400: `real_card_refused, unknown_instrument (a token the sandbox does not know, or another key's delegated token); invalid_payment_handler: another handler than ${ACP_PAYMENT_HANDLER_ID}; unsupported_payment_method: no instrument (purchase orders are not taken).`,
      402: 'payment_declined: the simulated payment was declined; the session is unchanged.',
      404: NOT_FOUND,
      405: NOT_MODIFIABLE,
      422: 'not_ready_for_payment: the session has errors to fix (GET it for its messages).',
    },
    run: async ({ id, body }, { principal }) => {
      const token = paymentToken(body.payment_data);
      // The whole request is searched for card numbers, not only the credential.
      const payment = { token, credential: body };
      const changes = body.buyer ? { buyer: buyerOf(body.buyer) } : {};
      const { session, order } = await wordingRefusals(() => checkouts.complete(principal, id!, payment, orderEvents.hooks(principal), changes), COMPLETE_PATHS);
      if (order === null) {
        const declined = session.problems.find((problem) => problem.kind === 'payment_declined');
        const reason = declined?.kind === 'payment_declined' ? declined.reason : 'generic';
        throw new AcpProblem(402, 'payment_declined', `${DECLINED_BECAUSE[reason]} Nothing was charged and the session is unchanged: complete it again with another token.`, '$.payment_data');
      }
      return withOrder(acpSession(session, context()), order.id, publicBaseUrl);
    },
  };

  const cancel: AcpOperation<Record<string, unknown>> = {
    name: 'cancelCheckoutSession',
    mcpTool: 'cancel_checkout_session',
    title: 'Cancel a checkout session',
    description: `Cancels an open session: it can no longer change or complete. The body (intent_trace) is optional and not kept. ${NOT_FOUND} ${NOT_MODIFIABLE} ${KEY}`,
    method: 'POST',
    path: '/checkout_sessions/{checkout_session_id}/cancel',
    successStatus: 200,
    body: { schema: AcpCancelRequest, required: false },
    result: AcpCheckoutSessionSchema,
    scope: CHECKOUT_SCOPE,
    errors: { 404: NOT_FOUND, 405: NOT_MODIFIABLE },
    run: async ({ id }, { principal }) => acpSession(await wordingRefusals(() => checkouts.cancel(principal, id!)), context()),
  };

  return [create, get, update, complete, cancel];
}

function buyerOf({ first_name, last_name, email, phone_number }: AcpBuyer): CheckoutBuyer {
  return { ...(first_name !== undefined && { first_name }), ...(last_name !== undefined && { last_name }), email, ...(phone_number !== undefined && { phone_number }) };
}

/** The shipping address of fulfillment details, with their phone number; none without an address. */
function addressOf(details: AcpFulfillmentDetails | undefined): CheckoutAddress | undefined {
  if (!details?.address) return undefined;
  const phone = details.phone_number;
  return { ...details.address, ...(phone !== undefined && { phone_number: phone }) };
}

/** The option chosen: undefined leaves it, null clears it ([]); one shipping option serves every line. */
function selectedOption(selected: AcpUpdateRequest['selected_fulfillment_options']): string | null | undefined {
  if (selected === undefined) return undefined;
  const [choice] = selected;
  if (choice === undefined) return null;
  if (choice.type !== 'shipping') {
    throw new AcpProblem(400, 'invalid_fulfillment_option', `The sandbox only ships: ${choice.type} is not offered.`, '$.selected_fulfillment_options[0].type');
  }
  return choice.option_id;
}

/** The token of the sandbox handler's instrument. */
function paymentToken(payment: AcpCompleteRequest['payment_data']): string {
  if (!payment.instrument) {
    throw new AcpProblem(400, 'unsupported_payment_method', `The sandbox takes card instruments of the ${ACP_PAYMENT_HANDLER_ID} handler only, not purchase orders.`, '$.payment_data.instrument');
  }
  if (payment.handler_id !== ACP_PAYMENT_HANDLER_ID) {
    throw new AcpProblem(400, 'invalid_payment_handler', `payment_data.handler_id must be ${ACP_PAYMENT_HANDLER_ID}, the session's payment handler.`, '$.payment_data.handler_id');
  }
  return payment.instrument.credential.token;
}
