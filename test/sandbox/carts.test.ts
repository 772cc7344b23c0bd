import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertSandboxError, completeCart, SANDBOX_PRODUCTS, VALID_ADDRESS } from '../support/sandbox.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

describe('sandbox carts', () => {
  let sandbox: TestApp;
  let token: string;
  let ids: Record<string, string>;

  before(async () => {
    sandbox = await startTestApp({ catalog: SANDBOX_PRODUCTS });
    token = await sandbox.newKey();
    ids = {};
    for (const sku of ['OIL', 'TEN', 'TWENTY', 'ONE-TEN', 'SOLD-OUT', 'BACKORDER', 'DRAFT', 'WEIGHTED']) ids[sku] = await sandbox.variantId(sku);
  });
  after(() => sandbox.close());

  const cartUrl = (id: string, suffix = '') => `/sandbox/v1/carts/${id}${suffix}`;
  const add = (cartId: string, variant_id: string, quantity: number) =>
    sandbox.call(token, 'POST', cartUrl(cartId, '/items'), { variant_id, quantity });

  describe('POST /sandbox/v1/carts', () => {
    test('201 creates an empty EUR cart by default, marked sandbox and simulated, echoing Idempotency-Key', async () => {
      const response = await sandbox.call(token, 'POST', '/sandbox/v1/carts', undefined, { 'idempotency-key': 'create-default' });
      assert.equal(response.statusCode, 201);
      assert.equal(response.headers['idempotency-key'], 'create-default');
      assert.match(response.data.id, /^sandbox_cart_[0-9a-f]{24}$/);
      assert.deepEqual({ ...response.data, id: undefined }, {
        id: undefined,
        environment: 'sandbox',
        simulated: true,
        currency: 'EUR',
        items: [],
        totals: { item_total: 0, shipping_total: 0, grand_total: 0 },
      });
    });

    test('201 opens a cart in another currency the sandbox sells', async () => {
      const cart = await sandbox.newCart(token, { currency: 'GBP' });
      assert.equal(cart.currency, 'GBP');
    });

    test('400 for a currency no region sells, and for one without a configured shipping amount', async () => {
      for (const currency of ['SEK', 'JPY']) {
        const response = await sandbox.call(token, 'POST', '/sandbox/v1/carts', { currency }, { 'idempotency-key': `c-${currency}` });
        assertSandboxError(response, 400, 'sandbox_invalid_request');
        assert.match(response.data.message, /EUR, GBP, USD/);
      }
    });

    test('400 without an Idempotency-Key', async () => {
      assertSandboxError(await sandbox.call(token, 'POST', '/sandbox/v1/carts', {}), 400, 'sandbox_invalid_request');
    });
  });

  describe('GET /sandbox/v1/carts/{id}', () => {
    test('200 returns the cart', async () => {
      const cart = await sandbox.newCart(token);
      const response = await sandbox.call(token, 'GET', cartUrl(cart.id));
      assert.equal(response.statusCode, 200);
      assert.deepEqual(response.data, cart);
    });

    test('404 sandbox_not_found for an unknown or malformed id', async () => {
      for (const id of [`sandbox_cart_${'0'.repeat(24)}`, 'nope', `sandbox_cart_${'A'.repeat(24)}`]) {
        assertSandboxError(await sandbox.call(token, 'GET', cartUrl(id)), 404, 'sandbox_not_found');
      }
    });
  });

  describe('POST /sandbox/v1/carts/{id}/items', () => {
    test('201 adds a variant at its live unit price; adding it again adds to its quantity', async () => {
      const cart = await sandbox.newCart(token);
      const first = await add(cart.id, ids.OIL!, 2);
      assert.equal(first.statusCode, 201);
      assert.deepEqual(first.data.items, [{ variant_id: ids.OIL, quantity: 2, unit_price: 16.5 }]);
      const second = await add(cart.id, ids.OIL!, 1);
      assert.deepEqual(second.data.items, [{ variant_id: ids.OIL, quantity: 3, unit_price: 16.5 }]);
      assert.deepEqual(second.data.totals, { item_total: 49.5, shipping_total: 0, grand_total: 49.5 });
    });

    test('201 for a backorder variant: it is purchasable', async () => {
      const cart = await sandbox.newCart(token);
      assert.equal((await add(cart.id, ids.BACKORDER!, 1)).statusCode, 201);
    });

    test('400 when the quantity of one variant would go above 99; 99 itself is allowed', async () => {
      const cart = await sandbox.newCart(token);
      assert.equal((await add(cart.id, ids.OIL!, 98)).statusCode, 201);
      assert.equal((await add(cart.id, ids.OIL!, 1)).data.items[0].quantity, 99);
      assertSandboxError(await add(cart.id, ids.OIL!, 1), 400, 'sandbox_invalid_request');
      const after = await sandbox.call(token, 'GET', cartUrl(cart.id));
      assert.equal(after.data.items[0].quantity, 99);
    });

    test('422 sandbox_variant_not_purchasable for out_of_stock, weighted, draft, unknown and unpriced variants', async () => {
      const cart = await sandbox.newCart(token);
      for (const variantId of [ids['SOLD-OUT']!, ids.WEIGHTED!, ids.DRAFT!, 'variant_does_not_exist']) {
        assertSandboxError(await add(cart.id, variantId, 1), 422, 'sandbox_variant_not_purchasable');
      }
      const gbpCart = await sandbox.newCart(token, { currency: 'GBP' });
      const unpriced = await add(gbpCart.id, ids.TEN!, 1);
      assertSandboxError(unpriced, 422, 'sandbox_variant_not_purchasable');
      assert.match(unpriced.data.message, /no price/);
      assert.deepEqual((await sandbox.call(token, 'GET', cartUrl(cart.id))).data.items, []);
    });

    test('concurrent additions to one cart all land (optimistic concurrency, no lost update)', async () => {
      const cart = await sandbox.newCart(token);
      const responses = await Promise.all(Array.from({ length: 20 }, () => add(cart.id, ids.TEN!, 1)));
      assert.ok(responses.every((response) => response.statusCode === 201));
      const final = await sandbox.call(token, 'GET', cartUrl(cart.id));
      assert.deepEqual(final.data.items, [{ variant_id: ids.TEN, quantity: 20, unit_price: 0.1 }]);
      assert.equal(final.data.totals.item_total, 2);
    });
  });

  describe('totals', () => {
    test('3 × 16.50 + 4.90 shipping is exactly 54.4', async () => {
      const cart = await sandbox.newCart(token);
      await add(cart.id, ids.OIL!, 3);
      await sandbox.call(token, 'POST', cartUrl(cart.id, '/shipping-address'), VALID_ADDRESS);
      const response = await sandbox.call(token, 'POST', cartUrl(cart.id, '/shipping-option'), { shipping_option_id: 'sandbox_standard' });
      assert.deepEqual(response.data.totals, { item_total: 49.5, shipping_total: 4.9, grand_total: 54.4 });
      assert.deepEqual(response.data.shipping_option, { id: 'sandbox_standard', name: 'Standard shipping (simulated)', amount: 4.9, currency: 'EUR' });
    });

    test('0.10 + 0.20 is exactly 0.3 and 3 × 1.10 exactly 3.3 (sums in minor units)', async () => {
      const cart = await sandbox.newCart(token);
      await add(cart.id, ids.TEN!, 1);
      const response = await add(cart.id, ids.TWENTY!, 1);
      assert.equal(response.data.totals.item_total, 0.3);
      const other = await sandbox.newCart(token);
      const tripled = await add(other.id, ids['ONE-TEN']!, 3);
      assert.equal(tripled.data.totals.item_total, 3.3);
      assert.equal(tripled.data.totals.grand_total, 3.3);
    });

    test("the address's region sets the market: a DE address applies the EU region price", async () => {
      const cart = await sandbox.newCart(token);
      await add(cart.id, ids.OIL!, 3);
      const response = await sandbox.call(token, 'POST', cartUrl(cart.id, '/shipping-address'), { ...VALID_ADDRESS, country: 'de' });
      assert.equal(response.data.shipping_address.country, 'DE');
      assert.deepEqual(response.data.items, [{ variant_id: ids.OIL, quantity: 3, unit_price: 17.5 }]);
      assert.equal(response.data.totals.item_total, 52.5);
      // A country whose region sells another currency leaves the market at the currency's region.
      const gb = await sandbox.call(token, 'POST', cartUrl(cart.id, '/shipping-address'), { ...VALID_ADDRESS, country: 'GB' });
      assert.equal(gb.data.items[0].unit_price, 16.5);
    });
  });

  describe('DELETE /sandbox/v1/carts/{id}/items', () => {
    test('200 removes the variant with all its quantity', async () => {
      const cart = await sandbox.newCart(token);
      await add(cart.id, ids.OIL!, 2);
      await add(cart.id, ids.TEN!, 1);
      const response = await sandbox.call(token, 'DELETE', cartUrl(cart.id, `/items?variant_id=${ids.OIL}`));
      assert.equal(response.statusCode, 200);
      assert.deepEqual(response.data.items, [{ variant_id: ids.TEN, quantity: 1, unit_price: 0.1 }]);
    });

    test('200 with the cart unchanged when the variant is not in the cart', async () => {
      const cart = await sandbox.newCart(token);
      const added = await add(cart.id, ids.OIL!, 2);
      const response = await sandbox.call(token, 'DELETE', cartUrl(cart.id, '/items?variant_id=variant_not_in_cart'));
      assert.equal(response.statusCode, 200);
      assert.deepEqual(response.data, added.data);
    });

    test('200 also with a Content-Type: application/json header and no body', async () => {
      const cart = await sandbox.newCart(token);
      const response = await sandbox.call(token, 'DELETE', cartUrl(cart.id, `/items?variant_id=${ids.OIL}`), undefined, {
        'content-type': 'application/json',
      });
      assert.equal(response.statusCode, 200);
    });

    test('400 when variant_id is missing', async () => {
      const cart = await sandbox.newCart(token);
      assertSandboxError(await sandbox.call(token, 'DELETE', cartUrl(cart.id, '/items')), 400, 'sandbox_invalid_request');
    });
  });

  describe('shipping', () => {
    test('GET shipping-options lists the one simulated option in the cart currency', async () => {
      for (const [currency, amount] of [['EUR', 4.9], ['GBP', 4.5], ['USD', 5.95]] as const) {
        const cart = await sandbox.newCart(token, { currency });
        const response = await sandbox.call(token, 'GET', cartUrl(cart.id, '/shipping-options'));
        assert.equal(response.statusCode, 200);
        assert.deepEqual(response.data, {
          environment: 'sandbox',
          simulated: true,
          options: [{ id: 'sandbox_standard', name: 'Standard shipping (simulated)', amount, currency }],
        });
      }
    });

    test('POST shipping-address 200 stores the address; POST shipping-option 200 selects the option', async () => {
      const cart = await sandbox.newCart(token);
      const address = { ...VALID_ADDRESS, line_two: 'Scala B', state: 'MI', phone_number: '+39 02 1234567' };
      const withAddress = await sandbox.call(token, 'POST', cartUrl(cart.id, '/shipping-address'), address);
      assert.equal(withAddress.statusCode, 200);
      assert.deepEqual(withAddress.data.shipping_address, address);
      const withOption = await sandbox.call(token, 'POST', cartUrl(cart.id, '/shipping-option'), { shipping_option_id: 'sandbox_standard' });
      assert.equal(withOption.statusCode, 200);
      assert.equal(withOption.data.shipping_option.id, 'sandbox_standard');
      assert.equal(withOption.data.totals.shipping_total, 4.9);
    });

    test('400 for a shipping option other than sandbox_standard', async () => {
      const cart = await sandbox.newCart(token);
      for (const payload of [{ shipping_option_id: 'express' }, {}, { shipping_option_id: 1 }]) {
        assertSandboxError(await sandbox.call(token, 'POST', cartUrl(cart.id, '/shipping-option'), payload), 400, 'sandbox_invalid_request');
      }
    });
  });

  describe('POST /sandbox/v1/carts/{id}/checkout', () => {
    const checkout = (cartId: string, key = `checkout-${Math.random()}`) =>
      sandbox.call(token, 'POST', cartUrl(cartId, '/checkout'), undefined, { 'idempotency-key': key });

    test('200 ready_for_checkout with checkout_url null for a complete cart; the cart itself is unchanged', async () => {
      const cartId = await completeCart(sandbox, token);
      const before = await sandbox.call(token, 'GET', cartUrl(cartId));
      const response = await checkout(cartId);
      assert.equal(response.statusCode, 200);
      assert.equal(response.data.status, 'ready_for_checkout');
      assert.equal(response.data.checkout_url, null);
      assert.equal(response.data.environment, 'sandbox');
      assert.equal(response.data.simulated, true);
      assert.deepEqual({ ...response.data, status: undefined, checkout_url: undefined }, { ...before.data, status: undefined, checkout_url: undefined });
      assert.deepEqual((await sandbox.call(token, 'GET', cartUrl(cartId))).data, before.data);
    });

    test('200 also with an empty JSON object body', async () => {
      const cartId = await completeCart(sandbox, token);
      const response = await sandbox.call(token, 'POST', cartUrl(cartId, '/checkout'), {}, { 'idempotency-key': 'empty-object' });
      assert.equal(response.statusCode, 200);
    });

    test('422 sandbox_cart_incomplete naming each missing part', async () => {
      const empty = await sandbox.newCart(token);
      const all = await checkout(empty.id);
      assertSandboxError(all, 422, 'sandbox_cart_incomplete');
      assert.match(all.data.message, /at least one item, a shipping address, a shipping option/);

      const noItem = await sandbox.newCart(token);
      await sandbox.call(token, 'POST', cartUrl(noItem.id, '/shipping-address'), VALID_ADDRESS);
      await sandbox.call(token, 'POST', cartUrl(noItem.id, '/shipping-option'), { shipping_option_id: 'sandbox_standard' });
      const itemMissing = await checkout(noItem.id);
      assertSandboxError(itemMissing, 422, 'sandbox_cart_incomplete');
      assert.match(itemMissing.data.message, /needs at least one item\.$/);

      const noAddress = await sandbox.newCart(token);
      await add(noAddress.id, ids.OIL!, 1);
      await sandbox.call(token, 'POST', cartUrl(noAddress.id, '/shipping-option'), { shipping_option_id: 'sandbox_standard' });
      const addressMissing = await checkout(noAddress.id);
      assertSandboxError(addressMissing, 422, 'sandbox_cart_incomplete');
      assert.match(addressMissing.data.message, /needs a shipping address\.$/);

      const noOption = await sandbox.newCart(token);
      await add(noOption.id, ids.OIL!, 1);
      await sandbox.call(token, 'POST', cartUrl(noOption.id, '/shipping-address'), VALID_ADDRESS);
      const optionMissing = await checkout(noOption.id);
      assertSandboxError(optionMissing, 422, 'sandbox_cart_incomplete');
      assert.match(optionMissing.data.message, /needs a shipping option\.$/);
    });

    test('422 sandbox_cart_incomplete once every item was removed', async () => {
      const cartId = await completeCart(sandbox, token);
      await sandbox.call(token, 'DELETE', cartUrl(cartId, `/items?variant_id=${ids.OIL}`));
      assertSandboxError(await checkout(cartId), 422, 'sandbox_cart_incomplete');
    });

    test('400 for a non-empty body or a missing Idempotency-Key', async () => {
      const cartId = await completeCart(sandbox, token);
      assertSandboxError(
        await sandbox.call(token, 'POST', cartUrl(cartId, '/checkout'), { confirm: true }, { 'idempotency-key': 'x' }),
        400,
        'sandbox_invalid_request',
      );
      assertSandboxError(await sandbox.call(token, 'POST', cartUrl(cartId, '/checkout')), 400, 'sandbox_invalid_request');
    });
  });
});
