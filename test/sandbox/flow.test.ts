import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dumpCatalog } from '../support/catalog-store.js';
import { VALID_ADDRESS } from '../support/sandbox.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

describe('a complete sandbox flow on the demo catalog', () => {
  let sandbox: TestApp;
  before(async () => {
    sandbox = await startTestApp({ config: { sandbox: { keyRateLimit: 20, cartRateLimit: 300 } } });
  });
  after(() => sandbox.close());

  test('key, cart, items, address, shipping and checkout leave every catalog table byte for byte unchanged', async () => {
    const before = await dumpCatalog(sandbox.store.db);

    const discovery = await sandbox.client.get('/sandbox/v1');
    assert.equal(discovery.statusCode, 200);
    const key = await sandbox.call(undefined, 'POST', '/sandbox/v1/keys');
    const token: string = key.data.access_token;

    const product = await sandbox.client.get('/public/v1/products/tuscan-extra-virgin-olive-oil');
    const variant = product.data.product.variants.find((v: any) => v.availability.purchasable && v.price?.amount === 16.5);
    assert.ok(variant, 'the demo olive oil has a 16.50 EUR variant');

    const cart = await sandbox.call(token, 'POST', '/sandbox/v1/carts', { currency: 'EUR' }, { 'idempotency-key': 'flow-cart' });
    assert.equal(cart.statusCode, 201);
    assert.equal(cart.headers['ratelimit-limit'], '300');
    const url = `/sandbox/v1/carts/${cart.data.id}`;

    assert.equal((await sandbox.call(token, 'POST', `${url}/items`, { variant_id: variant.id, quantity: 2 })).statusCode, 201);
    assert.equal((await sandbox.call(token, 'POST', `${url}/items`, { variant_id: variant.id, quantity: 1 })).statusCode, 201);
    assert.equal((await sandbox.call(token, 'POST', `${url}/shipping-address`, VALID_ADDRESS)).statusCode, 200);
    const options = await sandbox.call(token, 'GET', `${url}/shipping-options`);
    const chosen = await sandbox.call(token, 'POST', `${url}/shipping-option`, { shipping_option_id: options.data.options[0].id });
    assert.deepEqual(chosen.data.totals, { item_total: 49.5, shipping_total: 4.9, grand_total: 54.4 });

    const checkout = await sandbox.call(token, 'POST', `${url}/checkout`, undefined, { 'idempotency-key': 'flow-checkout' });
    assert.equal(checkout.statusCode, 200);
    assert.equal(checkout.data.status, 'ready_for_checkout');
    assert.equal(checkout.data.checkout_url, null);
    assert.equal(checkout.data.totals.grand_total, 54.4);

    // A catalog read after the flow serves the same stock and prices.
    const again = await sandbox.client.get('/public/v1/products/tuscan-extra-virgin-olive-oil');
    assert.deepEqual(again.data.product, product.data.product);
    assert.deepEqual(await dumpCatalog(sandbox.store.db), before);
  });

  test('unavailable demo variants are refused with 422', async () => {
    const token = (await sandbox.call(undefined, 'POST', '/sandbox/v1/keys')).data.access_token;
    const cart = await sandbox.call(token, 'POST', '/sandbox/v1/carts', { currency: 'USD' }, { 'idempotency-key': 'demo-422' });
    const { db } = sandbox.store;
    const variantOf = async (handle: string, where: (q: any) => any = (q) => q) =>
      (await where(db.selectFrom('variants').innerJoin('products', 'products.id', 'variants.product_id').select('variants.id').where('products.handle', '=', handle)).executeTakeFirstOrThrow()).id as string;
    const refused = {
      weighted: await variantOf('parmigiano-reggiano-whole-wheel'),
      draft: await variantOf('bolognese-ragu'),
      out_of_stock: await variantOf('pecorino-romano', (q) => q.where('variants.inventory_quantity', '=', 0)),
      unpriced_in_usd: await variantOf('pearled-spelt-garfagnana'),
    };
    for (const [why, variantId] of Object.entries(refused)) {
      const response = await sandbox.call(token, 'POST', `/sandbox/v1/carts/${cart.data.id}/items`, { variant_id: variantId, quantity: 1 });
      assert.equal(response.statusCode, 422, why);
      assert.equal(response.data.error, 'sandbox_variant_not_purchasable', why);
    }
  });
});
