import { Type } from 'typebox';
import { CHECKOUT_SCOPE } from '../../src/sandbox/scopes.js';
import { UcpOutcome, UcpProtocolError } from '../../src/ucp/errors.js';
import type { UcpOperation, UcpOperationKit } from '../../src/ucp/operation.js';
import { ROOT_CAPABILITIES } from '../../src/ucp/version.js';

/**
 * Operations that exist only in tests of the UCP bindings themselves (negotiation, the
 * `ucp` field, errors), independent of the release's operations: each answers what the
 * request negotiated.
 */
const Negotiation = {
  platform_profile: Type.String(),
  order_webhook_url: Type.Union([Type.String(), Type.Null()]),
};

/** An operation of the cart capability on a resource: `missing` is not found (a business outcome). */
export const NOTE_CART: UcpOperation<{ note: string }> = {
  name: 'test_note_cart',
  title: 'Note on a cart (test)',
  description: 'Echoes the note and what the request negotiated.',
  capability: ROOT_CAPABILITIES.cart,
  method: 'POST',
  path: '/test/carts/{id}',
  payload: { name: 'cart', schema: Type.Object({ note: Type.String({ maxLength: 20 }) }, { additionalProperties: false }) },
  result: Type.Object({ id: Type.String(), note: Type.String(), ...Negotiation }),
  errors: { 409: 'conflict: never (test).' },
  readOnly: true,
  run: async ({ id, payload }, { negotiated }) => {
    if (id === 'missing') return new UcpOutcome([{ type: 'error', code: 'not_found', content: 'No such cart.', severity: 'unrecoverable' }]);
    return { id: id!, note: payload.note, platform_profile: negotiated.platformProfileUrl, order_webhook_url: negotiated.orderWebhookUrl ?? null };
  },
};

/** A create of the checkout capability, keyless and without payload. */
export const OPEN_CHECKOUT: UcpOperation<undefined> = {
  name: 'test_open_checkout',
  title: 'Open a checkout (test)',
  description: 'Answers a fixed checkout id.',
  capability: ROOT_CAPABILITIES.checkout,
  method: 'POST',
  path: '/test/checkouts',
  creates: true,
  result: Type.Object({ id: Type.String() }),
  readOnly: false,
  run: async () => ({ id: 'checkout_1' }),
};

/** How many times PAY_CHECKOUT ran for each checkout id: tests pick ids of their own. */
const paymentRuns = new Map<string, number>();

/**
 * A keyed, idempotent create on a resource, whose key the MCP binding requires (as the
 * release's complete_checkout): each run counts, and `outcome` makes it answer a business
 * outcome (`declined`) or refuse with a protocol error (`refused`, 403).
 */
export const PAY_CHECKOUT: UcpOperation<{ amount: number; outcome?: 'declined' | 'refused' }> = {
  name: 'test_pay_checkout',
  title: 'Pay a checkout (test)',
  description: 'Records a payment of the checkout and answers how many times it ran for that checkout.',
  capability: ROOT_CAPABILITIES.checkout,
  method: 'POST',
  path: '/test/checkouts/{id}/payments',
  creates: true,
  payload: {
    name: 'checkout',
    schema: Type.Object(
      { amount: Type.Integer({ minimum: 1, maximum: 1_000_000 }), outcome: Type.Optional(Type.Union([Type.Literal('declined'), Type.Literal('refused')])) },
      { additionalProperties: false },
    ),
  },
  result: Type.Object({ id: Type.String(), amount: Type.Integer(), runs: Type.Integer() }),
  scope: CHECKOUT_SCOPE,
  idempotent: true,
  idempotencyKeyRequiredOnMcp: true,
  errors: { 403: 'test_refused: asked for (test).' },
  readOnly: false,
  run: async ({ id, payload }) => {
    const runs = (paymentRuns.get(id!) ?? 0) + 1;
    paymentRuns.set(id!, runs);
    if (payload.outcome === 'refused') throw new UcpProtocolError(403, 'test_refused', `Refused on run ${runs}.`);
    if (payload.outcome === 'declined') {
      return new UcpOutcome([{ type: 'error', code: 'payment_declined', content: `Declined on run ${runs}.`, severity: 'recoverable' }]);
    }
    return { id: id!, amount: payload.amount, runs };
  },
};

export const testUcpOperations = (_kit: UcpOperationKit): UcpOperation<any>[] => [NOTE_CART, OPEN_CHECKOUT, PAY_CHECKOUT];
