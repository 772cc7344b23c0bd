import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { importCatalog } from '../../src/catalog/store/import-catalog.js';
import { catalog, product, variant } from '../support/catalog-builder.js';
import { assertSandboxError, SANDBOX_PRODUCTS, VALID_ADDRESS } from '../support/sandbox.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { CatalogWriter } from '../../src/catalog/store/catalog-writer.js';

/** The sandbox catalog plus a product with a thumbnail, two options and an Italian title. */
const COFFEE = product('coffee-beans', {
  title: 'Coffee beans',
  titleIt: 'Caffè in grani',
  thumbnail: 'https://images.example/coffee-beans.jpg',
  options: [
    { name: 'Size', values: ['250 g', '1 kg'] },
    { name: 'Grind', values: ['Whole bean', 'Espresso'] },
  ],
  variants: [
    variant('BEANS-250', {
      options: ['250 g', 'Whole bean'],
      prices: [
        { currency: 'EUR', amount: 790 },
        { currency: 'EUR', amount: 850, region: 'reg_eu' },
      ],
    }),
    variant('BEANS-1KG', { options: ['1 kg', 'Espresso'], prices: [{ currency: 'EUR', amount: 2490 }] }),
  ],
});
const PRODUCTS = [...SANDBOX_PRODUCTS, COFFEE];

const market = (country: string, region_id: string, currency = 'EUR', locale = 'en') => ({ locale, country, currency, region_id });

describe('sandbox carts opened for a market (country, locale)', () => {
  let sandbox: TestApp;
  let token: string;
  let ids: Record<string, string>;

  before(async () => {
    sandbox = await startTestApp({ catalog: PRODUCTS });
    token = await sandbox.newKey();
    ids = {};
    for (const sku of ['OIL', 'TEN', 'ONE-TEN', 'SOLD-OUT', 'BEANS-250', 'BEANS-1KG']) ids[sku] = await sandbox.variantId(sku);
  });
  after(() => sandbox.close());

  const cartUrl = (id: string, suffix = '') => `/sandbox/v1/carts/${id}${suffix}`;
  const create = (body: object, idempotencyKey: string) => sandbox.call(token, 'POST', '/sandbox/v1/carts', body, { 'idempotency-key': idempotencyKey });

  test('{} and {"currency":"EUR"} are one request for an Idempotency-Key, as before country existed; {"country":"DE"} is another', async () => {
    const first = await create({}, 'same-cart');
    assert.equal(first.statusCode, 201);
    const again = await create({ currency: 'EUR' }, 'same-cart');
    assert.equal(again.statusCode, 201);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(again.data.id, first.data.id);
    assertSandboxError(await create({ country: 'DE' }, 'same-cart'), 422, 'sandbox_idempotency_mismatch');
  });
  const add = (cartId: string, variant_id: string, quantity: number) => sandbox.call(token, 'POST', cartUrl(cartId, '/items'), { variant_id, quantity });
  const ship = (cartId: string, country: string) => sandbox.call(token, 'POST', cartUrl(cartId, '/shipping-address'), { ...VALID_ADDRESS, country });
  const countCarts = async () =>
    Number((await sandbox.store.db.selectFrom('sandbox_carts').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  describe('POST /sandbox/v1/carts with country', () => {
    test("201 in the currency of the country's region, priced as the catalog prices that country", async () => {
      const response = await create({ country: 'DE' }, 'de');
      assert.equal(response.statusCode, 201);
      assert.equal(response.data.currency, 'EUR');
      assert.deepEqual(response.data.market, market('DE', 'reg_eu'));
      const added = await add(response.data.id, ids.OIL!, 1);
      const shown = await sandbox.client.get('/public/v1/products/olive-oil?country=DE');
      assert.equal(added.data.items[0].unit_price, shown.data.product.variants[0].price.amount);
      assert.equal(added.data.items[0].unit_price, 17.5);
      // The same currency without a country is the default country's market.
      const plain = await sandbox.newCart(token);
      assert.equal((await add(plain.id, ids.OIL!, 1)).data.items[0].unit_price, 16.5);
    });

    test('the country is case-insensitive and echoed upper-case; another region gives its own currency', async () => {
      const response = await create({ country: 'gb' }, 'gb');
      assert.equal(response.statusCode, 201);
      assert.equal(response.data.currency, 'GBP');
      assert.deepEqual(response.data.market, market('GB', 'reg_gb', 'GBP'));
    });

    test("201 with the currency of the country's region given too", async () => {
      const response = await create({ country: 'FR', currency: 'EUR' }, 'fr-eur');
      assert.equal(response.statusCode, 201);
      assert.deepEqual(response.data.market, market('FR', 'reg_eu'));
    });

    test("400 naming currency for a currency the country's region does not sell; nothing is created", async () => {
      const carts = await countCarts();
      const response = await create({ country: 'DE', currency: 'GBP' }, 'de-gbp');
      assertSandboxError(response, 400, 'sandbox_invalid_request');
      assert.match(response.data.message, /Country DE is sold in EUR, not GBP\. Omit currency, or send EUR\./);
      assert.equal(await countCarts(), carts);
    });

    test('400 naming country for a country no region serves; nothing is created', async () => {
      const carts = await countCarts();
      const response = await create({ country: 'se' }, 'se');
      assertSandboxError(response, 400, 'sandbox_invalid_request');
      assert.match(response.data.message, /No region serves country SE\. Served countries: IT, DE, FR, GB, US, JP\./);
      assert.equal(await countCarts(), carts);
    });

    test('400 naming country for a country whose currency the sandbox cannot ship in', async () => {
      const response = await create({ country: 'JP' }, 'jp');
      assertSandboxError(response, 400, 'sandbox_invalid_request');
      assert.match(response.data.message, /The sandbox sells in EUR, GBP, USD; JPY \(the currency of country JP\) is not one of them\./);
    });

    test('400 for a country that is not two letters and for a locale the catalog does not serve', async () => {
      for (const body of [{ country: '' }, { country: 'DEU' }, { country: 'D1' }, { country: 49 }, { locale: 'fr' }, { locale: 'EN' }, { locale: '' }]) {
        assertSandboxError(await create(body, `bad-${JSON.stringify(body)}`), 400, 'sandbox_invalid_request');
      }
    });

    test('without country or locale the answer is the contract cart: no market, lines without the new fields', async () => {
      const cart = await create({ currency: 'EUR' }, 'plain');
      assert.equal('market' in cart.data, false);
      const added = await add(cart.data.id, ids['BEANS-250']!, 2);
      assert.deepEqual(added.data.items, [{ variant_id: ids['BEANS-250'], quantity: 2, unit_price: 7.9 }]);
      assert.equal('market' in added.data, false);
    });
  });

  describe("the address's country and the cart's market", () => {
    test('an address served by a region of the currency moves the cart there; any other keeps the market it was opened for', async () => {
      const cart = await sandbox.newCart(token, { country: 'DE' });
      await add(cart.id, ids.OIL!, 2);

      const italy = await ship(cart.id, 'it');
      assert.equal(italy.statusCode, 200);
      assert.deepEqual(italy.data.market, market('IT', 'reg_it'));
      assert.equal(italy.data.items[0].unit_price, 16.5);

      const france = await ship(cart.id, 'FR');
      assert.deepEqual(france.data.market, market('FR', 'reg_eu'));
      assert.equal(france.data.items[0].unit_price, 17.5);

      // GB is served in GBP, SE by no region: both are accepted, and the cart is back in Germany's market.
      for (const country of ['GB', 'SE']) {
        const other = await ship(cart.id, country);
        assert.equal(other.statusCode, 200);
        assert.equal(other.data.shipping_address.country, country);
        assert.equal(other.data.currency, 'EUR');
        assert.deepEqual(other.data.market, market('DE', 'reg_eu'));
        assert.equal(other.data.items[0].unit_price, 17.5);
        assert.equal(other.data.totals.item_total, 35);
      }
    });

    test("a cart opened with a locale alone follows the contract's rule: the address's region, else the default country's", async () => {
      const cart = await sandbox.newCart(token, { locale: 'it' });
      assert.deepEqual(cart.market, market('IT', 'reg_it', 'EUR', 'it'));
      await add(cart.id, ids.OIL!, 1);
      assert.deepEqual((await ship(cart.id, 'DE')).data.market, market('DE', 'reg_eu', 'EUR', 'it'));
      const gb = await ship(cart.id, 'GB');
      assert.deepEqual(gb.data.market, market('IT', 'reg_it', 'EUR', 'it'));
      assert.equal(gb.data.items[0].unit_price, 16.5);
    });

    test('a GBP cart opened for GB stays in GB when the address is in a country sold in EUR', async () => {
      const cart = await sandbox.newCart(token, { country: 'GB' });
      const added = await add(cart.id, ids.OIL!, 1);
      assert.equal(added.data.items[0].unit_price, 14.2);
      const germany = await ship(cart.id, 'DE');
      assert.deepEqual(germany.data.market, market('GB', 'reg_gb', 'GBP'));
      assert.equal(germany.data.items[0].unit_price, 14.2);
    });

    test("market is null when no region sells the cart's currency any more", async () => {
      const other = await startTestApp({ catalog: PRODUCTS });
      try {
        const key = await other.newKey();
        const cart = await other.newCart(key, { country: 'US' });
        assert.deepEqual(cart.market, market('US', 'reg_us', 'USD'));
        await importCatalog(new CatalogWriter(other.store.db), catalog(PRODUCTS, [{ id: 'reg_us', name: 'United States', currency: 'CAD', countries: ['US'] }]));
        await other.app.catalogReadModel.refresh();
        const read = await other.call(key, 'GET', `/sandbox/v1/carts/${cart.id}`);
        assert.equal(read.statusCode, 200);
        assert.equal(read.data.market, null);
        assert.deepEqual(read.data.items, []);
      } finally {
        await other.close();
      }
    });
  });

  describe('the lines of a cart opened for a market', () => {
    test('say what they are, as the catalog shows the product and variant in the cart\'s locale', async () => {
      const cart = await sandbox.newCart(token, { country: 'DE', locale: 'it' });
      await add(cart.id, ids['BEANS-250']!, 2);
      const response = await add(cart.id, ids.OIL!, 1);
      const beans = (await sandbox.client.get('/public/v1/products/coffee-beans?country=DE&locale=it')).data.product;
      assert.deepEqual(response.data.items, [
        {
          variant_id: ids['BEANS-250'],
          quantity: 2,
          unit_price: beans.variants[0].price.amount,
          product_handle: 'coffee-beans',
          title: beans.title,
          variant_display_name: beans.variants[0].display_name,
          thumbnail: beans.thumbnail,
          line_total: 17,
        },
        // No Italian title, no options, no thumbnail: the English title and nulls.
        { variant_id: ids.OIL, quantity: 1, unit_price: 17.5, product_handle: 'olive-oil', title: 'olive oil', variant_display_name: null, thumbnail: null, line_total: 17.5 },
      ]);
      assert.equal(beans.title, 'Caffè in grani');
      assert.equal(beans.variants[0].display_name, '250 g / Whole bean');
      assert.equal(beans.thumbnail, 'https://images.example/coffee-beans.jpg');
    });

    test('titles are in English by default', async () => {
      const cart = await sandbox.newCart(token, { country: 'IT' });
      const response = await add(cart.id, ids['BEANS-1KG']!, 1);
      assert.equal(response.data.items[0].title, 'Coffee beans');
      assert.equal(response.data.items[0].variant_display_name, '1 kg / Espresso');
    });

    test('line_total is unit_price × quantity, exact in minor units, at every quantity', async () => {
      const cart = await sandbox.newCart(token, { country: 'IT' });
      const expected: [string, number, number][] = [
        ['ONE-TEN', 3, 3.3],
        ['TEN', 3, 0.3],
        ['BEANS-1KG', 1, 24.9],
        ['OIL', 99, 1633.5],
      ];
      let response;
      for (const [sku, quantity] of expected) response = await add(cart.id, ids[sku]!, quantity);
      assert.deepEqual(
        response!.data.items.map((item: { quantity: number; line_total: number }) => [item.quantity, item.line_total]),
        expected.map(([, quantity, total]) => [quantity, total]),
      );
      assert.equal(response!.data.totals.item_total, 1662);
    });

    test('GET and checkout answer the same market and lines', async () => {
      const cart = await sandbox.newCart(token, { country: 'FR', locale: 'it' });
      await add(cart.id, ids.OIL!, 2);
      await ship(cart.id, 'FR');
      const selected = await sandbox.call(token, 'POST', cartUrl(cart.id, '/shipping-option'), { shipping_option_id: 'sandbox_standard' });
      const checkout = await sandbox.call(token, 'POST', cartUrl(cart.id, '/checkout'), undefined, { 'idempotency-key': `checkout-${cart.id}` });
      assert.equal(checkout.statusCode, 200);
      const { status, checkout_url: _url, ...cartFields } = checkout.data;
      assert.equal(status, 'ready_for_checkout');
      assert.deepEqual(cartFields, selected.data);
      assert.deepEqual(cartFields, (await sandbox.call(token, 'GET', cartUrl(cart.id))).data);
      assert.deepEqual(cartFields.market, market('FR', 'reg_eu', 'EUR', 'it'));
      assert.equal(cartFields.items[0].line_total, 35);
    });
  });

  describe('POST /sandbox/v1/carts/{id}/items/{variant_id}', () => {
    const setQuantity = (cartId: string, variantId: string, payload: unknown, headers: Record<string, string> = {}) =>
      sandbox.call(token, 'POST', cartUrl(cartId, `/items/${encodeURIComponent(variantId)}`), payload, headers);

    test("200 sets the line's quantity, down and up, and the totals follow", async () => {
      const cart = await sandbox.newCart(token);
      await add(cart.id, ids.OIL!, 5);
      await add(cart.id, ids.TEN!, 1);
      const down = await setQuantity(cart.id, ids.OIL!, { quantity: 2 });
      assert.equal(down.statusCode, 200);
      assert.deepEqual(down.data.items, [
        { variant_id: ids.OIL, quantity: 2, unit_price: 16.5 },
        { variant_id: ids.TEN, quantity: 1, unit_price: 0.1 },
      ]);
      assert.equal(down.data.totals.item_total, 33.1);
      const up = await setQuantity(cart.id, ids.OIL!, { quantity: 99 });
      assert.equal(up.data.items[0].quantity, 99);
      assert.equal(up.data.totals.item_total, 1633.6);
    });

    test('200 with line_total following the quantity on a cart opened for a market', async () => {
      const cart = await sandbox.newCart(token, { country: 'DE' });
      await add(cart.id, ids['BEANS-250']!, 1);
      const response = await setQuantity(cart.id, ids['BEANS-250']!, { quantity: 3 });
      assert.equal(response.data.items[0].line_total, 25.5);
      assert.deepEqual(response.data.market, market('DE', 'reg_eu'));
    });

    test('quantity 0 removes the line and leaves the others', async () => {
      const cart = await sandbox.newCart(token);
      await add(cart.id, ids.OIL!, 2);
      await add(cart.id, ids.TEN!, 3);
      const response = await setQuantity(cart.id, ids.OIL!, { quantity: 0 });
      assert.equal(response.statusCode, 200);
      assert.deepEqual(response.data.items, [{ variant_id: ids.TEN, quantity: 3, unit_price: 0.1 }]);
      assert.deepEqual((await sandbox.call(token, 'GET', cartUrl(cart.id))).data.items, response.data.items);
    });

    test('400 for a quantity above 99, below 0, not an integer, missing, or with other properties; the cart is unchanged', async () => {
      const cart = await sandbox.newCart(token);
      await add(cart.id, ids.OIL!, 2);
      for (const payload of [{ quantity: 100 }, { quantity: -1 }, { quantity: 1.5 }, { quantity: '2' }, {}, { quantity: 2, variant_id: ids.OIL }, undefined]) {
        assertSandboxError(await setQuantity(cart.id, ids.OIL!, payload), 400, 'sandbox_invalid_request');
      }
      assertSandboxError(await setQuantity(cart.id, 'v'.repeat(129), { quantity: 1 }), 400, 'sandbox_invalid_request');
      assert.equal((await sandbox.call(token, 'GET', cartUrl(cart.id))).data.items[0].quantity, 2);
    });

    test('404 sandbox_not_found for a variant that is not in the cart, at any quantity', async () => {
      const cart = await sandbox.newCart(token);
      await add(cart.id, ids.OIL!, 1);
      for (const quantity of [1, 0]) {
        const response = await setQuantity(cart.id, ids.TEN!, { quantity });
        assertSandboxError(response, 404, 'sandbox_not_found');
        assert.match(response.data.message, new RegExp(`no line for variant ${ids.TEN}`));
      }
      assertSandboxError(await setQuantity(cart.id, 'variant_does_not_exist', { quantity: 0 }), 404, 'sandbox_not_found');
      assert.deepEqual((await sandbox.call(token, 'GET', cartUrl(cart.id))).data.items.length, 1);
    });

    test('422 sandbox_variant_not_purchasable for a positive quantity of a variant that cannot be added', async () => {
      const cart = await sandbox.newCart(token);
      for (const variantId of [ids['SOLD-OUT']!, 'variant_does_not_exist']) {
        assertSandboxError(await setQuantity(cart.id, variantId, { quantity: 1 }), 422, 'sandbox_variant_not_purchasable');
      }
    });

    test('the out_of_stock scenario refuses a positive quantity as it refuses an addition; 0 still removes the line', async () => {
      const cart = await sandbox.newCart(token);
      await add(cart.id, ids.OIL!, 2);
      const scenario = { 'sandbox-scenario': 'out_of_stock' };
      const refused = await setQuantity(cart.id, ids.OIL!, { quantity: 3 }, scenario);
      assertSandboxError(refused, 422, 'sandbox_variant_not_purchasable');
      assert.match(refused.data.message, /Simulated by the out_of_stock scenario/);
      assert.equal((await sandbox.call(token, 'GET', cartUrl(cart.id))).data.items[0].quantity, 2);
      const removed = await setQuantity(cart.id, ids.OIL!, { quantity: 0 }, scenario);
      assert.equal(removed.statusCode, 200);
      assert.deepEqual(removed.data.items, []);
    });

    test('line_total follows the unit price a price_changed cart shows', async () => {
      const cart = await sandbox.newCart(token, { country: 'IT' });
      await add(cart.id, ids.OIL!, 1);
      const response = await setQuantity(cart.id, ids.OIL!, { quantity: 3 }, { 'sandbox-scenario': 'price_changed' });
      assert.deepEqual([response.data.items[0].unit_price, response.data.items[0].line_total], [18.15, 54.45]);
      assert.equal(response.data.totals.item_total, 54.45);
    });

    test('an Idempotency-Key replays the first answer; the same key with another quantity is 422 sandbox_idempotency_mismatch', async () => {
      const cart = await sandbox.newCart(token);
      await add(cart.id, ids.OIL!, 5);
      const first = await setQuantity(cart.id, ids.OIL!, { quantity: 2 }, { 'idempotency-key': 'set-2' });
      assert.equal(first.headers['idempotency-key'], 'set-2');
      await add(cart.id, ids.OIL!, 1);
      const retry = await setQuantity(cart.id, ids.OIL!, { quantity: 2 }, { 'idempotency-key': 'set-2' });
      assert.equal(retry.statusCode, 200);
      assert.equal(retry.headers['idempotent-replayed'], 'true');
      assert.equal(retry.body, first.body);
      // The replay changed nothing: the addition made after the first call stands.
      assert.equal((await sandbox.call(token, 'GET', cartUrl(cart.id))).data.items[0].quantity, 3);
      assertSandboxError(await setQuantity(cart.id, ids.OIL!, { quantity: 4 }, { 'idempotency-key': 'set-2' }), 422, 'sandbox_idempotency_mismatch');
      // The key is scoped to the route with its variant: on another line it is a new request.
      await add(cart.id, ids.TEN!, 1);
      const otherLine = await setQuantity(cart.id, ids.TEN!, { quantity: 2 }, { 'idempotency-key': 'set-2' });
      assert.equal(otherLine.statusCode, 200);
      assert.equal(otherLine.headers['idempotent-replayed'], undefined);
    });

    test('a 404 is recorded and replayed under its Idempotency-Key too', async () => {
      const cart = await sandbox.newCart(token);
      const first = await setQuantity(cart.id, ids.OIL!, { quantity: 1 }, { 'idempotency-key': 'missing-line' });
      assertSandboxError(first, 404, 'sandbox_not_found');
      await add(cart.id, ids.OIL!, 1);
      const retry = await setQuantity(cart.id, ids.OIL!, { quantity: 1 }, { 'idempotency-key': 'missing-line' });
      assertSandboxError(retry, 404, 'sandbox_not_found');
      assert.equal(retry.headers['idempotent-replayed'], 'true');
    });
  });
});

describe('setting a quantity counts against the cart limit', () => {
  test('429 sandbox_rate_limited once the key has used its cart calls', async () => {
    const sandbox = await startTestApp({ catalog: SANDBOX_PRODUCTS, config: { sandbox: { cartRateLimit: 3 } } });
    try {
      const token = await sandbox.newKey();
      const cart = await sandbox.newCart(token);
      const oil = await sandbox.variantId('OIL');
      await sandbox.call(token, 'POST', `/sandbox/v1/carts/${cart.id}/items`, { variant_id: oil, quantity: 1 });
      const last = await sandbox.call(token, 'POST', `/sandbox/v1/carts/${cart.id}/items/${oil}`, { quantity: 2 });
      assert.equal(last.statusCode, 200);
      assert.equal(last.headers['ratelimit-remaining'], '0');
      assertSandboxError(await sandbox.call(token, 'POST', `/sandbox/v1/carts/${cart.id}/items/${oil}`, { quantity: 3 }), 429, 'sandbox_rate_limited');
    } finally {
      await sandbox.close();
    }
  });
});

describe('on the demo catalog', () => {
  test("a cart opened for Germany charges the 13.90 the catalog shows there, not Italy's 12.90", async () => {
    const demo = await startTestApp();
    try {
      const token = await demo.newKey();
      const handle = 'coratina-extra-virgin-olive-oil';
      const shown = async (country: string) =>
        (await demo.client.get(`/public/v1/products/${handle}?country=${country}`)).data.product.variants.find(
          (variant: { sku: string }) => variant.sku === 'BV-OIL-COR-500',
        );
      const [germany, italy] = [await shown('DE'), await shown('IT')];
      assert.deepEqual([germany.price.amount, italy.price.amount], [13.9, 12.9]);
      const priceIn = async (body: object) => {
        const cart = await demo.newCart(token, body);
        return (await demo.call(token, 'POST', `/sandbox/v1/carts/${cart.id}/items`, { variant_id: germany.id, quantity: 1 })).data.items[0].unit_price;
      };
      assert.equal(await priceIn({ country: 'DE' }), 13.9);
      assert.equal(await priceIn({ currency: 'EUR' }), 12.9);
    } finally {
      await demo.close();
    }
  });
});
