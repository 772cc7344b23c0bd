import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { SANDBOX_PRODUCTS } from '../support/sandbox.js';
import { useTestApp } from '../support/test-app.js';
import { ucpTestConfig, usePlatformServer } from '../support/ucp-platform.js';
import { line, ucpShopper } from '../support/ucp-shopping.js';
import { ucpValidator } from '../support/ucp-validator.js';

const { validator, skip } = await ucpValidator();
const VERSION = '2026-04-08';
const CART = 'dev.ucp.shopping.cart';
const DISCOUNT = 'dev.ucp.shopping.discount';

/**
 * UCP's cart operations over REST (/ucp/v1/carts): every answer checked against the
 * app's /openapi.json and the release's schemas, composed with what the platform
 * negotiated.
 */
describe('UCP carts over REST', { skip }, () => {
  const testApp = useTestApp({ catalog: SANDBOX_PRODUCTS, config: { ucp: ucpTestConfig() } });
  const platform = usePlatformServer();
  const shopper = ucpShopper(() => testApp, platform, () => validator!);
  const ids: Record<string, string> = {};
  let token: string;
  before(async () => {
    for (const sku of ['OIL', 'TEN', 'TWENTY', 'SOLD-OUT', 'DRAFT']) ids[sku] = await testApp.variantId(sku);
    token = await testApp.newKey();
  });

  const create = (body: unknown, options: { token?: string; profile?: 'all' | 'plain' | 'catalog' } = {}) =>
    shopper.rest('create_cart', 'POST', '/carts', { token, body, ...options });
  const cartCount = async () => Number((await testApp.store.db.selectFrom('sandbox_carts').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  it('create_cart: 201, the lines the market sells in minor units; an out-of-stock and an unknown item are not added, and messages say why', async () => {
    const response = await create({
      line_items: [line(ids.OIL!, 2), line(ids['SOLD-OUT']!, 1), line(ids.DRAFT!, 1), line(ids.OIL!, 1)],
      context: { address_country: 'de' },
    });
    assert.equal(response.statusCode, 201, response.body);
    const cart = response.data;
    assert.match(cart.id, /^sandbox_cart_/);
    assert.deepEqual(cart.ucp, { version: VERSION, status: 'success', capabilities: { [CART]: [{ version: VERSION }], [DISCOUNT]: [{ version: VERSION }] } });
    assert.deepEqual(cart.line_items, [
      {
        id: ids.OIL,
        item: { id: ids.OIL, title: 'olive oil', price: 1750 },
        quantity: 3,
        totals: [
          { type: 'subtotal', amount: 5250 },
          { type: 'total', amount: 5250 },
        ],
      },
    ]);
    assert.equal(cart.currency, 'EUR');
    assert.deepEqual(cart.totals, [
      { type: 'subtotal', amount: 5250 },
      { type: 'total', amount: 5250 },
    ]);
    assert.deepEqual(cart.context, { address_country: 'DE', currency: 'EUR', language: 'en' });
    assert.deepEqual(
      cart.messages.map((message: any) => [message.type, message.code, message.severity]),
      [
        ['error', 'out_of_stock', 'recoverable'],
        ['error', 'item_unavailable', 'recoverable'],
      ],
    );
    assert.match(cart.messages[0].content, new RegExp(`Item ${ids['SOLD-OUT']} is out of stock: it was not added to the cart`));
    assert.match(cart.messages[1].content, new RegExp(`Item ${ids.DRAFT} is not in the catalog`));
    assert.deepEqual(cart.discounts, { applied: [] });
    assert.equal(cart.continue_url, testApp.config.storefrontUrl);
    assert.ok(Date.parse(cart.expires_at) > Date.now());
    assert.deepEqual([cart.environment, cart.simulated], ['sandbox', true]);

    // The same cart on the sandbox's own REST surface, in major units.
    const sandboxCart = await testApp.call(token, 'GET', `/sandbox/v1/carts/${cart.id}`);
    assert.equal(sandboxCart.data.totals.item_total, 52.5);
  });

  it('create_cart: when no line can be bought, no cart is made and the outcome says why (ucp.status error)', async () => {
    const before = await cartCount();
    const response = await create({ line_items: [line(ids['SOLD-OUT']!, 1), line('variant_that_never_was', 2)] });
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.data.ucp.status, 'error');
    assert.equal(response.data.id, undefined);
    assert.deepEqual(
      response.data.messages.map((message: any) => [message.code, message.severity]),
      [
        ['out_of_stock', 'unrecoverable'],
        ['item_unavailable', 'unrecoverable'],
      ],
    );
    assert.match(response.data.messages[0].content, new RegExp(`Item ${ids['SOLD-OUT']} is out of stock: no cart was created`));
    assert.equal(response.data.continue_url, testApp.config.storefrontUrl);
    assert.equal(await cartCount(), before);
  });

  it('create_cart: an empty cart, in the market context.currency is sold in, titles in Accept-Language', async () => {
    const response = await create({ line_items: [], context: { currency: 'GBP' } }, {});
    assert.equal(response.statusCode, 201, response.body);
    assert.deepEqual(response.data.line_items, []);
    assert.equal(response.data.currency, 'GBP');
    assert.deepEqual(response.data.context, { address_country: 'GB', currency: 'GBP', language: 'en' });
    assert.equal(response.data.messages, undefined);
  });

  it("create_cart: a context naming no served market is the default market's, said in an info message", async () => {
    const response = await create({ line_items: [line(ids.OIL!, 1)], context: { address_country: 'SE' } });
    assert.equal(response.statusCode, 201, response.body);
    assert.equal(response.data.line_items[0].item.price, 1650);
    assert.deepEqual(response.data.messages.map((message: any) => [message.type, message.code]), [['info', 'market_fallback']]);
  });

  it("create_cart: a market whose currency the sandbox does not sell in is 400 invalid_request", async () => {
    const response = await create({ line_items: [line(ids.OIL!, 1)], context: { address_country: 'JP' } });
    assert.equal(response.statusCode, 400, response.body);
    assert.equal(response.data.code, 'invalid_request');
    assert.match(response.data.content, /JPY/);
  });

  it('discount codes: each rejected with a warning discount_code_invalid, nothing applied; without the extension, ignored', async () => {
    const body = { line_items: [line(ids.TEN!, 1)], discounts: { codes: ['SUMMER20', 'vip'] } };
    const response = await create(body);
    assert.equal(response.statusCode, 201, response.body);
    assert.deepEqual(response.data.discounts, { codes: ['SUMMER20', 'vip'], applied: [] });
    assert.deepEqual(
      response.data.messages.map((message: any) => [message.type, message.code, message.path]),
      [
        ['warning', 'discount_code_invalid', '$.discounts.codes[0]'],
        ['warning', 'discount_code_invalid', '$.discounts.codes[1]'],
      ],
    );
    assert.deepEqual(response.data.totals.at(-1), { type: 'total', amount: 10 });

    const plain = await create(body, { profile: 'plain' });
    assert.equal(plain.statusCode, 201, plain.body);
    assert.deepEqual(plain.data.ucp.capabilities, { [CART]: [{ version: VERSION }] });
    assert.equal(plain.data.discounts, undefined);
    assert.equal(plain.data.messages, undefined);
  });

  it('get_cart: the cart as it is; update_cart replaces its lines; cancel_cart answers it as it was, and then it is not_found', async () => {
    const created = (await create({ line_items: [line(ids.OIL!, 1)] })).data;
    const got = await shopper.rest('get_cart', 'GET', `/carts/${created.id}`, { token });
    assert.equal(got.statusCode, 200, got.body);
    assert.deepEqual(got.data, created);

    const updated = await shopper.rest('update_cart', 'PUT', `/carts/${created.id}`, {
      token,
      body: { id: created.id, line_items: [line(ids.TEN!, 2), line(ids.TWENTY!, 1), line(ids['SOLD-OUT']!, 1)] },
    });
    assert.equal(updated.statusCode, 200, updated.body);
    assert.deepEqual(
      updated.data.line_items.map((item: any) => [item.id, item.item.title, item.quantity, item.item.price]),
      [
        [ids.TEN, 'cents (TEN)', 2, 10],
        [ids.TWENTY, 'cents (TWENTY)', 1, 20],
      ],
    );
    assert.deepEqual(updated.data.totals, [
      { type: 'subtotal', amount: 40 },
      { type: 'total', amount: 40 },
    ]);
    assert.deepEqual(updated.data.messages.map((message: any) => message.code), ['out_of_stock']);

    const canceled = await shopper.rest('cancel_cart', 'POST', `/carts/${created.id}/cancel`, { token });
    assert.equal(canceled.statusCode, 200, canceled.body);
    assert.deepEqual(canceled.data.line_items, updated.data.line_items);
    for (const [operation, method, path] of [
      ['get_cart', 'GET', `/carts/${created.id}`],
      ['cancel_cart', 'POST', `/carts/${created.id}/cancel`],
    ] as const) {
      const gone = await shopper.rest(operation, method, path, { token });
      assert.equal(gone.statusCode, 200, gone.body);
      assert.deepEqual(gone.data.ucp, { version: VERSION, status: 'error', capabilities: { [CART]: [{ version: VERSION }], [DISCOUNT]: [{ version: VERSION }] } });
      assert.deepEqual(gone.data.messages.map((message: any) => [message.code, message.severity]), [['not_found', 'unrecoverable']]);
    }
    const stale = await shopper.rest('update_cart', 'PUT', `/carts/${created.id}`, { token, body: { line_items: [] } });
    assert.equal(stale.data.messages[0].code, 'not_found');
  });

  it("another key's cart, and an id that names no cart, are not_found: to get, update and cancel alike", async () => {
    const created = (await create({ line_items: [line(ids.OIL!, 1)] })).data;
    const other = await testApp.newKey();
    for (const id of [created.id, 'sandbox_cart_000000000000000000000000', 'nonsense']) {
      for (const response of [
        await shopper.rest('get_cart', 'GET', `/carts/${id}`, { token: other }),
        await shopper.rest('update_cart', 'PUT', `/carts/${id}`, { token: other, body: { line_items: [line(ids.TEN!, 1)] } }),
        await shopper.rest('cancel_cart', 'POST', `/carts/${id}/cancel`, { token: other }),
      ]) {
        assert.equal(response.statusCode, 200, response.body);
        assert.equal(response.data.messages[0].code, 'not_found');
        assert.doesNotMatch(response.body, /olive/);
      }
    }
    assert.deepEqual((await shopper.rest('get_cart', 'GET', `/carts/${created.id}`, { token })).data, created, 'the cart is as it was');
  });

  it('a platform without the cart capability gets capabilities_incompatible, and nothing is made', async () => {
    const before = await cartCount();
    const response = await create({ line_items: [line(ids.OIL!, 1)] }, { profile: 'catalog' });
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(response.data.ucp, { version: VERSION, status: 'error', capabilities: {} });
    assert.equal(response.data.messages[0].code, 'capabilities_incompatible');
    assert.equal(await cartCount(), before);
  });

  it('401 without a key, with an unknown key, and with a key lacking cart:write', async () => {
    const checkoutOnly = await testApp.newKey(['checkout:create']);
    for (const key of [undefined, 'sbx_test_unknown_key_0000000000000000', checkoutOnly]) {
      const response = await create({ line_items: [] }, { token: key });
      assert.equal(response.statusCode, 401, response.body);
      assert.equal(response.data.code, key === checkoutOnly ? 'sandbox_insufficient_scope' : 'sandbox_unauthorized');
      assert.ok(response.headers['www-authenticate']);
    }
  });

  describe('bad input: 400 invalid_request, never a 500', () => {
    const cases: [string, unknown][] = [
      ['no body', undefined],
      ['no line_items', { context: { address_country: 'IT' } }],
      ['a line without item id', { line_items: [{ item: {}, quantity: 1 }] }],
      ['a quantity of 0', { line_items: [{ item: { id: 'x' }, quantity: 0 }] }],
      ['a quantity as a string', { line_items: [{ item: { id: 'x' }, quantity: '2' }] }],
      ['a quantity above 99', { line_items: [{ item: { id: 'x' }, quantity: 100 }] }],
      ['too many lines', { line_items: Array.from({ length: 101 }, (_, i) => ({ item: { id: `v${i}` }, quantity: 1 })) }],
      ['discount codes that are not strings', { line_items: [], discounts: { codes: [5] } }],
    ];
    for (const [what, body] of cases) {
      it(`create_cart: ${what}`, async () => {
        const response = await create(body);
        assert.equal(response.statusCode, 400, response.body);
        assert.equal(response.data.code, 'invalid_request');
      });
    }

    it('update_cart: quantities of one variant adding up above 99, and a body naming another cart', async () => {
      const created = (await create({ line_items: [] })).data;
      const tooMany = await shopper.rest('update_cart', 'PUT', `/carts/${created.id}`, { token, body: { line_items: [line(ids.TEN!, 60), line(ids.TEN!, 40)] } });
      assert.equal(tooMany.statusCode, 400, tooMany.body);
      assert.match(tooMany.data.content, /100 of variant/);
      const other = await shopper.rest('update_cart', 'PUT', `/carts/${created.id}`, { token, body: { id: 'sandbox_cart_000000000000000000000000', line_items: [] } });
      assert.equal(other.statusCode, 400, other.body);
      assert.equal(other.data.code, 'invalid_request');
    });

    it('a body that is not JSON', async () => {
      const response = await shopper.rest('create_cart', 'POST', '/carts', { token, body: '{"line_items": [', headers: { 'content-type': 'application/json' } });
      assert.equal(response.statusCode, 400, response.body);
      assert.equal(response.data.code, 'invalid_request');
    });
  });
});
