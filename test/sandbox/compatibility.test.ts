import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CheckedResponse } from '../support/contract.js';
import { assertSandboxError, SANDBOX_PRODUCTS, VALID_ADDRESS } from '../support/sandbox.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

describe('POST /sandbox/v1/carts/{id} (deprecated compatibility route)', () => {
  let sandbox: TestApp;
  let token: string;
  let oil: string;
  before(async () => {
    sandbox = await startTestApp({ catalog: SANDBOX_PRODUCTS, config: { publicBaseUrl: 'https://shop.example', sandbox: { cartRateLimit: 1000 } } });
    token = await sandbox.newKey();
    oil = await sandbox.variantId('OIL');
  });
  after(() => sandbox.close());

  const act = (cartId: string, payload: object, key = token, headers: Record<string, string> = {}) =>
    sandbox.call(key, 'POST', `/sandbox/v1/carts/${cartId}`, payload, headers);

  function assertDeprecationHeaders(response: CheckedResponse): void {
    assert.equal(response.headers.deprecation, 'true');
    assert.equal(response.headers.sunset, 'Mon, 31 May 2027 00:00:00 GMT');
    assert.ok(!Number.isNaN(Date.parse(String(response.headers.sunset))));
    assert.equal(response.headers.link, '<https://shop.example/openapi.json>; rel="successor-version"');
  }

  test('the four actions walk a cart to a simulated checkout, each answering 200 with Deprecation, Sunset, Link and RateLimit headers', async () => {
    const cart = await sandbox.newCart(token);
    const added = await act(cart.id, { action: 'add_item', variant_id: oil, quantity: 3 });
    assert.equal(added.statusCode, 200);
    assert.deepEqual(added.data.items, [{ variant_id: oil, quantity: 3, unit_price: 16.5 }]);

    const addressed = await act(cart.id, { action: 'set_shipping_address', address: VALID_ADDRESS });
    assert.equal(addressed.statusCode, 200);
    assert.deepEqual(addressed.data.shipping_address, VALID_ADDRESS);

    const shipped = await act(cart.id, { action: 'select_shipping_option', shipping_option_id: 'sandbox_standard' });
    assert.equal(shipped.statusCode, 200);
    assert.deepEqual(shipped.data.totals, { item_total: 49.5, shipping_total: 4.9, grand_total: 54.4 });

    const checkedOut = await act(cart.id, { action: 'checkout_link' });
    assert.equal(checkedOut.statusCode, 200);
    assert.equal(checkedOut.data.status, 'ready_for_checkout');
    assert.equal(checkedOut.data.checkout_url, null);

    for (const response of [added, addressed, shipped, checkedOut]) {
      assertDeprecationHeaders(response);
      assert.equal(response.headers['ratelimit-limit'], '1000');
    }
  });

  test('each action answers exactly like its explicit route', async () => {
    const viaAction = await sandbox.newCart(token);
    const viaRoute = await sandbox.newCart(token);
    const strip = (response: CheckedResponse) => ({ ...response.data, id: undefined });
    assert.deepEqual(
      strip(await act(viaAction.id, { action: 'add_item', variant_id: oil, quantity: 2 })),
      strip(await sandbox.call(token, 'POST', `/sandbox/v1/carts/${viaRoute.id}/items`, { variant_id: oil, quantity: 2 })),
    );
    const incompleteAction = await act(viaAction.id, { action: 'checkout_link' });
    const incompleteRoute = await sandbox.call(token, 'POST', `/sandbox/v1/carts/${viaRoute.id}/checkout`, undefined, { 'idempotency-key': 'same' });
    assertSandboxError(incompleteAction, 422, 'sandbox_cart_incomplete');
    assert.deepEqual(incompleteAction.data, incompleteRoute.data);
    assertDeprecationHeaders(incompleteAction);
  });

  test('422 sandbox_variant_not_purchasable for add_item of an out-of-stock variant', async () => {
    const cart = await sandbox.newCart(token);
    const response = await act(cart.id, { action: 'add_item', variant_id: await sandbox.variantId('SOLD-OUT'), quantity: 1 });
    assertSandboxError(response, 422, 'sandbox_variant_not_purchasable');
    assertDeprecationHeaders(response);
  });

  test('400 for an add_item beyond 99 of one variant', async () => {
    const cart = await sandbox.newCart(token);
    await act(cart.id, { action: 'add_item', variant_id: oil, quantity: 60 });
    assertSandboxError(await act(cart.id, { action: 'add_item', variant_id: oil, quantity: 40 }), 400, 'sandbox_invalid_request');
  });

  test("403 sandbox_insufficient_scope naming the action's scope; 401 without a key", async () => {
    const cart = await sandbox.newCart(token);
    const noCartWrite = await sandbox.newKey(['catalog:read', 'checkout:create']);
    const noCheckout = await sandbox.newKey(['catalog:read', 'cart:write']);
    const denied = await act(cart.id, { action: 'add_item', variant_id: oil, quantity: 1 }, noCartWrite);
    assertSandboxError(denied, 403, 'sandbox_insufficient_scope');
    assert.equal(denied.data.scope, 'cart:write');
    assertDeprecationHeaders(denied);
    const noCheckoutDenied = await act(cart.id, { action: 'checkout_link' }, noCheckout);
    assertSandboxError(noCheckoutDenied, 403, 'sandbox_insufficient_scope');
    assert.equal(noCheckoutDenied.data.scope, 'checkout:create');
    const anonymous = await sandbox.client.request({ method: 'POST', url: `/sandbox/v1/carts/${cart.id}`, payload: { action: 'checkout_link' } });
    assertSandboxError(anonymous, 401, 'sandbox_unauthorized');
    assertDeprecationHeaders(anonymous);
  });

  test('404 for another key\'s cart', async () => {
    const cart = await sandbox.newCart(token);
    const other = await sandbox.newKey();
    assertSandboxError(await act(cart.id, { action: 'checkout_link' }, other), 404, 'sandbox_not_found');
  });

  test('an optional Idempotency-Key is honoured: a retried add_item adds once and replays', async () => {
    const cart = await sandbox.newCart(token);
    const first = await act(cart.id, { action: 'add_item', variant_id: oil, quantity: 1 }, token, { 'idempotency-key': 'compat-add' });
    const retry = await act(cart.id, { action: 'add_item', variant_id: oil, quantity: 1 }, token, { 'idempotency-key': 'compat-add' });
    assert.equal(retry.body, first.body);
    assert.equal(retry.headers['idempotent-replayed'], 'true');
    assert.equal(retry.headers['idempotency-key'], 'compat-add');
    assertDeprecationHeaders(retry);
    assert.equal((await sandbox.call(token, 'GET', `/sandbox/v1/carts/${cart.id}`)).data.items[0].quantity, 1);
  });
});
