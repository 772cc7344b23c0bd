import { Type } from 'typebox';
import { UcpOutcome } from '../../src/ucp/errors.js';
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

/** A create of the checkout capability, without payload. */
export const OPEN_CHECKOUT: UcpOperation<undefined> = {
  name: 'test_open_checkout',
  title: 'Open a checkout (test)',
  description: 'Answers a fixed checkout id.',
  capability: ROOT_CAPABILITIES.checkout,
  method: 'POST',
  path: '/test/checkouts',
  creates: true,
  result: Type.Object({ id: Type.String() }),
  idempotent: true,
  readOnly: false,
  run: async (_input, { idempotencyKey }) => ({ id: `checkout_${idempotencyKey ?? 'plain'}` }),
};

export const testUcpOperations = (_kit: UcpOperationKit): UcpOperation<any>[] => [NOTE_CART, OPEN_CHECKOUT];
