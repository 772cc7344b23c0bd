import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertAcpError, assertReplayed, useAcpShop, type AcpRequest } from '../support/acp.js';
import { acpValidator } from '../support/acp-validator.js';
import { principalOf } from '../support/checkout.js';
import { assertSandboxError } from '../support/sandbox.js';

const { validator, skip } = acpValidator();

/**
 * ACP carts under /acp over the sandbox's carts: every answer checked against the app's
 * /openapi.json and the release's openapi.cart.yaml for its operation and status.
 */
describe('ACP carts', { skip }, () => {
  const shop = useAcpShop(() => validator!);
  const { testApp, acp, ids, items } = shop;

  const create = (body: unknown, request: AcpRequest = {}) => acp('createCart', 'POST', '/carts', { token: shop.token, body, ...request }, 'cart');
  const get = (id: string, request: AcpRequest = {}) => acp('getCart', 'GET', `/carts/${id}`, { token: shop.token, ...request }, 'cart');
  const update = (id: string, body: unknown, request: AcpRequest = {}) => acp('updateCart', 'PUT', `/carts/${id}`, { token: shop.token, body, ...request }, 'cart');
  const cancel = (id: string, request: AcpRequest = {}) => acp('cancelCart', 'POST', `/carts/${id}/cancel`, { token: shop.token, ...request }, 'cart');
  const lines = (cart: any) => cart.line_items.map((line: any) => [line.id, line.quantity, line.unit_amount]);
  const amounts = (cart: any) => cart.totals.map((total: any) => [total.type, total.amount]);
  const errors = (cart: any) => cart.messages.filter((message: any) => message.type === 'error').map((message: any) => [message.code, message.content]);
  const cartCount = async () =>
    Number((await testApp.store.db.selectFrom('sandbox_carts').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  it('create: 201, a sandbox cart in the default market priced in minor units, simulated said in an info message, expiring with its key', async () => {
    const response = await create({ line_items: items('OIL', 'TEN', 'OIL'), buyer: { email: 'ada@example.com' } });
    assert.equal(response.statusCode, 201, response.body);
    const cart = response.data;
    assert.match(cart.id, /^sandbox_cart_[0-9a-f]{24}$/);
    assert.equal(cart.currency, 'eur');
    assert.deepEqual(lines(cart), [
      [ids.OIL, 2, 1650],
      [ids.TEN, 1, 10],
    ]);
    assert.equal(cart.line_items[0].totals.find((total: any) => total.type === 'total').amount, 3300);
    assert.deepEqual(amounts(cart), [
      ['items_base_amount', 3310],
      ['subtotal', 3310],
      ['total', 3310],
    ]);
    assert.deepEqual(
      cart.messages.map((message: any) => message.type),
      ['info'],
    );
    assert.match(cart.messages[0].content, /simulated/);
    assert.equal(cart.continue_url, testApp.config.storefrontUrl);
    assert.equal(cart.expires_at, (await principalOf(testApp, shop.token)).expiresAt!.toISOString());
    assert.equal(cart.buyer, undefined);
    assert.equal(response.headers['cache-control'], 'no-store');
  });

  it("the locale's region picks the market and its currency, its language the names; else the Accept-Language header; a country not sold in falls back, saying so", async () => {
    const british = await create({ line_items: items('OIL'), locale: 'en-GB' });
    assert.equal(british.data.currency, 'gbp');
    assert.deepEqual(lines(british.data), [[ids.OIL, 1, 1420]]);
    const german = await create({ line_items: items('OIL') }, { headers: { 'accept-language': 'de-DE,de;q=0.9' } });
    assert.equal(german.data.currency, 'eur');
    // Germany is in the region with its own EUR price.
    assert.deepEqual(lines(german.data), [[ids.OIL, 1, 1750]]);
    const elsewhere = await create({ line_items: items('OIL'), locale: 'pt-BR' });
    assert.equal(elsewhere.statusCode, 201, elsewhere.body);
    assert.deepEqual(lines(elsewhere.data), [[ids.OIL, 1, 1650]]);
    const note = elsewhere.data.messages.find((message: any) => message.param === '$.locale');
    assert.equal(note.type, 'info');
    assert.match(note.content, /does not sell in BR.*priced for IT, in EUR/);
    const malformed = await create({ line_items: items('OIL'), locale: 'not a locale' });
    assertAcpError(malformed, 400, 'invalid_request');
    assert.equal(malformed.data.param, '$.locale');
  });

  it('an item the market cannot sell is not added, and an error message says why; the rest is the cart', async () => {
    const british = await create({ line_items: items('OIL', 'TEN'), locale: 'en-GB' });
    assert.equal(british.statusCode, 201, british.body);
    assert.deepEqual(lines(british.data), [[ids.OIL, 1, 1420]]);
    assert.deepEqual(errors(british.data), [['region_restricted', `Item ${ids.TEN} is not sold in this market: it was not added to the cart.`]]);
    const soldOut = await create({ line_items: items('OIL', 'SOLD-OUT') });
    assert.equal(soldOut.statusCode, 201, soldOut.body);
    assert.deepEqual(lines(soldOut.data), [[ids.OIL, 1, 1650]]);
    assert.deepEqual(errors(soldOut.data), [['out_of_stock', `Item ${ids['SOLD-OUT']} is out of stock: it was not added to the cart.`]]);
  });

  it('create with nothing that can be bought: 422 out_of_stock, and no cart is made', async () => {
    const before = await cartCount();
    const response = await create({ line_items: items('SOLD-OUT', 'SOLD-OUT') });
    assertAcpError(response, 422, 'out_of_stock');
    assert.match(response.data.message, new RegExp(`${ids['SOLD-OUT']} is out of stock`));
    assert.equal(await cartCount(), before);
  });

  it('get: 200, the cart as it is; the same cart through the sandbox\'s own API, in major units', async () => {
    const created = await create({ line_items: items('OIL', 'OIL', 'TEN'), locale: 'it-IT' });
    const read = await get(created.data.id);
    assert.equal(read.statusCode, 200, read.body);
    assert.equal(read.body, created.body);
    const sandbox = await testApp.call(shop.token, 'GET', `/sandbox/v1/carts/${created.data.id}`);
    assert.equal(sandbox.statusCode, 200, sandbox.body);
    assert.equal(sandbox.data.simulated, true);
    assert.equal(sandbox.data.currency, 'EUR');
    assert.equal(sandbox.data.market.country, 'IT');
    assert.deepEqual(
      sandbox.data.items.map((item: any) => [item.variant_id, item.quantity, item.unit_price]),
      [
        [ids.OIL, 2, 16.5],
        [ids.TEN, 1, 0.1],
      ],
    );
    // A change made through the sandbox's API is the ACP cart's too.
    assert.equal((await testApp.call(shop.token, 'POST', `/sandbox/v1/carts/${created.data.id}/items`, { variant_id: ids.TEN, quantity: 2 })).statusCode, 201);
    assert.deepEqual(lines((await get(created.data.id)).data), [
      [ids.OIL, 2, 1650],
      [ids.TEN, 3, 10],
    ]);
  });

  it('update (PUT): the items replace the cart\'s; items that cannot be bought are said and left out, all of them leaving it empty', async () => {
    const created = await create({ line_items: items('OIL', 'TEN') });
    const updated = await update(created.data.id, { line_items: items('TEN', 'TEN', 'SOLD-OUT') });
    assert.equal(updated.statusCode, 200, updated.body);
    assert.equal(updated.data.id, created.data.id);
    assert.deepEqual(lines(updated.data), [[ids.TEN, 2, 10]]);
    assert.deepEqual(amounts(updated.data).at(-1), ['total', 20]);
    assert.deepEqual(
      errors(updated.data).map(([code]: string[]) => code),
      ['out_of_stock'],
    );
    assert.deepEqual(lines((await get(created.data.id)).data), [[ids.TEN, 2, 10]]);
    const emptied = await update(created.data.id, { line_items: items('SOLD-OUT') });
    assert.equal(emptied.statusCode, 200, emptied.body);
    assert.deepEqual(emptied.data.line_items, []);
    assert.deepEqual(amounts(emptied.data).at(-1), ['total', 0]);
    assert.deepEqual(
      errors(emptied.data).map(([code]: string[]) => code),
      ['out_of_stock'],
    );
  });

  it('cancel: 200 and the cart as it was; then it is gone: a second cancel, a read, an update are 404, and so is it on the sandbox\'s API', async () => {
    const created = await create({ line_items: items('OIL') });
    const canceled = await cancel(created.data.id, { body: {} });
    assert.equal(canceled.statusCode, 200, canceled.body);
    assert.deepEqual(lines(canceled.data), lines(created.data));
    const again = await cancel(created.data.id);
    assertAcpError(again, 404, 'not_found');
    assert.match(again.data.message, /canceled/);
    assertAcpError(await get(created.data.id), 404, 'not_found');
    assertAcpError(await update(created.data.id, { line_items: items('TEN') }), 404, 'not_found');
    assertSandboxError(await testApp.call(shop.token, 'GET', `/sandbox/v1/carts/${created.data.id}`), 404, 'sandbox_not_found');
    // Without a body, too.
    const other = await create({ line_items: items('TEN') });
    assert.equal((await cancel(other.data.id)).statusCode, 200);
  });

  it("another key's cart is 404 to every operation, and is left as it was", async () => {
    const created = await create({ line_items: items('OIL') });
    const other = await testApp.newKey();
    assertAcpError(await get(created.data.id, { token: other }), 404, 'not_found');
    assertAcpError(await update(created.data.id, { line_items: items('TEN') }, { token: other }), 404, 'not_found');
    assertAcpError(await cancel(created.data.id, { token: other }), 404, 'not_found');
    assert.equal((await get(created.data.id)).body, created.body);
    assertAcpError(await get('sandbox_cart_000000000000000000000000'), 404, 'not_found');
    assertAcpError(await get('nonsense'), 404, 'not_found');
  });

  it('an unknown item is 400 invalid_item_id pointing at it, on create and update; a draft is not in the catalog either', async () => {
    const unknown = await create({ line_items: [{ id: ids.OIL }, { id: 'variant_nope' }] });
    assertAcpError(unknown, 400, 'invalid_item_id');
    assert.equal(unknown.data.param, '$.line_items[1].id');
    assertAcpError(await create({ line_items: items('DRAFT') }), 400, 'invalid_item_id');
    const created = await create({ line_items: items('OIL') });
    const changed = await update(created.data.id, { line_items: [{ id: 'variant_nope' }] });
    assertAcpError(changed, 400, 'invalid_item_id');
    assert.equal(changed.data.param, '$.line_items[0].id');
    assert.deepEqual(lines((await get(created.data.id)).data), [[ids.OIL, 1, 1650]]);
  });

  it('idempotency: the same key and body replay the first answer, another body is 422 idempotency_conflict; on create, update and cancel', async () => {
    const body = { line_items: items('TEN') };
    const headers = { 'idempotency-key': 'acp-cart-replay-1' };
    const before = await cartCount();
    const first = await create(body, { headers });
    const replay = await create(body, { headers });
    assert.equal(first.statusCode, 201, first.body);
    assertReplayed(first, replay, 'acp-cart-replay-1');
    assert.equal(await cartCount(), before + 1);
    assertAcpError(await create({ line_items: items('OIL') }, { headers }), 422, 'idempotency_conflict');
    const id = first.data.id;
    const change = { 'idempotency-key': 'acp-cart-replay-2' };
    const updated = await update(id, { line_items: items('TEN', 'TEN') }, { headers: change });
    // Changed meanwhile: the replay is still the first answer, and does not run again.
    await update(id, { line_items: items('OIL') });
    const replayed = await update(id, { line_items: items('TEN', 'TEN') }, { headers: change });
    assertReplayed(updated, replayed, 'acp-cart-replay-2');
    assert.deepEqual(lines((await get(id)).data), [[ids.OIL, 1, 1650]]);
    assertAcpError(await update(id, { line_items: items('TEN') }, { headers: change }), 422, 'idempotency_conflict');
    const canceling = { 'idempotency-key': 'acp-cart-replay-3' };
    const canceled = await cancel(id, { headers: canceling });
    assert.equal((await cancel(id, { headers: canceling })).body, canceled.body);
  });

  it('the protocol headers as on every ACP route: API-Version required, an Idempotency-Key on POST and PUT, Request-Id echoed', async () => {
    const created = await create({ line_items: items('TEN') }, { headers: { 'request-id': 'cart-trace-1' } });
    assert.equal(created.headers['request-id'], 'cart-trace-1');
    assertAcpError(await create({ line_items: items('TEN') }, { headers: { 'api-version': undefined } }), 400, 'missing_api_version');
    assertAcpError(await get(created.data.id, { headers: { 'api-version': '2025-09-29' } }), 400, 'unsupported_api_version');
    assertAcpError(await create({ line_items: items('TEN') }, { headers: { 'idempotency-key': undefined } }), 400, 'idempotency_key_required');
    assertAcpError(await update(created.data.id, { line_items: items('TEN') }, { headers: { 'idempotency-key': undefined } }), 400, 'idempotency_key_required');
    assertAcpError(await cancel(created.data.id, { headers: { 'idempotency-key': undefined } }), 400, 'idempotency_key_required');
    assert.equal((await get(created.data.id)).statusCode, 200);
  });

  it('401 without a key, with an unknown one, or with one lacking cart:write (the public key, a checkout-only key)', async () => {
    const body = { line_items: items('TEN') };
    assertAcpError(await create(body, { headers: { authorization: undefined } }), 401, 'unauthorized');
    assertAcpError(await create(body, { token: 'sbx_test_00000000000000000000000000000000' }), 401, 'unauthorized');
    assertAcpError(await create(body, { token: testApp.config.sandbox.publicKey }), 401, 'insufficient_scope');
    const checkoutOnly = await testApp.newKey(['checkout:create']);
    assertAcpError(await create(body, { token: checkoutOnly }), 401, 'insufficient_scope');
    const created = await create(body);
    assertAcpError(await get(created.data.id, { token: checkoutOnly }), 401, 'insufficient_scope');
  });

  it("bad input is a 4xx in the release's shape, never a 500", async () => {
    const cases: [string, unknown][] = [
      ['no line items', { line_items: [] }],
      ['no line_items at all', { buyer: { email: 'ada@example.com' } }],
      ['a currency, which the release does not take', { line_items: items('TEN'), currency: 'eur' }],
      ['an item with a quantity, which the release does not define', { line_items: [{ id: ids.TEN, quantity: 2 }] }],
      ['a malformed email', { line_items: items('TEN'), buyer: { email: 'nope' } }],
    ];
    for (const [what, body] of cases) {
      const response = await create(body);
      assert.equal(response.statusCode, 400, what);
      assert.equal(response.data.code, 'invalid_request', what);
    }
    const tooMany = await create({ line_items: Array.from({ length: 100 }, () => ({ id: ids.TEN })) });
    assertAcpError(tooMany, 400, 'invalid_request');
    assert.match(tooMany.data.message, /at most 99/);
    const created = await create({ line_items: items('TEN') });
    assertAcpError(await update(created.data.id, { line_items: items('TEN'), locale: 'en-GB' }), 400, 'invalid_request');
    const malformed = await testApp.client.request({
      method: 'PUT',
      url: `/acp/carts/${created.data.id}`,
      headers: { 'api-version': '2026-04-17', 'idempotency-key': 'bad-json', authorization: `Bearer ${shop.token}`, 'content-type': 'application/json' },
      payload: '{"line_items":',
    });
    assertAcpError(malformed, 400, 'invalid_request');
  });
});
