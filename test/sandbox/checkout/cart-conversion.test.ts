import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { SandboxPrincipal } from '../../../src/sandbox/auth.js';
import type { CheckoutSessionService } from '../../../src/sandbox/checkout/checkout-service.js';
import { APPROVED, principalOf, refusalOf } from '../../support/checkout.js';
import { completeCart, SANDBOX_PRODUCTS, VALID_ADDRESS } from '../../support/sandbox.js';
import { useTestApp } from '../../support/test-app.js';

describe('a checkout session made from a sandbox cart', () => {
  const sandbox = useTestApp({ catalog: SANDBOX_PRODUCTS });
  let checkouts: CheckoutSessionService;
  let token: string;
  let principal: SandboxPrincipal;
  before(async () => {
    checkouts = sandbox.app.sandbox.checkouts;
    token = await sandbox.newKey();
    principal = await principalOf(sandbox, token);
  });

  test("takes the cart's lines, market, address and shipping option, and the buyer given", async () => {
    const cartId = await completeCart(sandbox, token);
    const cart = (await sandbox.call(token, 'GET', `/sandbox/v1/carts/${cartId}`)).data;
    const session = await checkouts.create(principal, {
      cart_id: cartId,
      // The cart's lines and market win over overlapping input.
      lines: [{ variant_id: await sandbox.variantId('TEN'), quantity: 5 }],
      country: 'GB',
      buyer: { email: 'ada@example.com', consent: { marketing: false } },
    });
    assert.equal(session.status, 'ready_for_complete');
    assert.equal(session.cart_id, cartId);
    assert.equal(session.currency, 'EUR');
    assert.deepEqual(session.lines.map((line) => [line.variant_id, line.quantity]), [[await sandbox.variantId('OIL'), 1]]);
    assert.deepEqual(session.shipping_address, VALID_ADDRESS);
    assert.equal(session.selected_fulfillment_option_id, 'sandbox_standard');
    assert.deepEqual(session.buyer, { email: 'ada@example.com', consent: { marketing: false } });
    // The same amounts as the cart's, in minor units.
    assert.deepEqual(session.totals, { subtotal: Math.round(cart.totals.item_total * 100), fulfillment: Math.round(cart.totals.shipping_total * 100), total: Math.round(cart.totals.grand_total * 100) });
  });

  test('answers the open session of the cart rather than a second one, even when asked at once; once it is done, a new one', async () => {
    const cartId = await completeCart(sandbox, token);
    const sessions = await Promise.all([1, 2, 3].map(() => checkouts.create(principal, { cart_id: cartId })));
    assert.equal(new Set(sessions.map((session) => session.id)).size, 1);
    const first = sessions[0]!;
    assert.equal((await checkouts.create(principal, { cart_id: cartId })).id, first.id);

    await checkouts.complete(principal, first.id, APPROVED);
    const second = await checkouts.create(principal, { cart_id: cartId });
    assert.notEqual(second.id, first.id);
    assert.equal(second.status, 'ready_for_complete', 'the cart stays as it was');
    await checkouts.cancel(principal, second.id);
    assert.notEqual((await checkouts.create(principal, { cart_id: cartId })).id, second.id);
  });

  test("another key's cart, or one that does not exist, is not found", async () => {
    const cartId = await completeCart(sandbox, token);
    const other = await principalOf(sandbox, await sandbox.newKey());
    for (const id of [cartId, 'sandbox_cart_000000000000000000000000', 'not-a-cart']) {
      const { message, ...refusal } = await refusalOf(checkouts.create(other, { cart_id: id }));
      assert.deepEqual(refusal, { kind: 'not_found', resource: 'cart', id });
      assert.equal(message, `No cart ${id} belongs to this key.`);
    }
  });

  test('a cart that rehearsed price_changed keeps its raised prices in the session and the order', async () => {
    const cartId = await completeCart(sandbox, token);
    const raised = await sandbox.call(token, 'GET', `/sandbox/v1/carts/${cartId}`, undefined, { 'sandbox-scenario': 'price_changed' });
    const session = await checkouts.create(principal, { cart_id: cartId });
    assert.deepEqual(session.totals.subtotal, Math.round(raised.data.totals.item_total * 100));
    const { order } = await checkouts.complete(principal, session.id, APPROVED);
    assert.equal(order!.totals.subtotal, session.totals.subtotal);
  });
});
