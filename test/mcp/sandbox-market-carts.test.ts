import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { McpTestClient } from '../support/mcp-client.js';
import { SANDBOX_PRODUCTS, VALID_ADDRESS } from '../support/sandbox.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

describe('/mcp/sandbox: carts opened for a market, and update_cart_item', () => {
  let sandbox: TestApp;
  let url: string;
  const clients: McpTestClient[] = [];
  let oil: string;
  let ten: string;
  before(async () => {
    sandbox = await startTestApp({ catalog: SANDBOX_PRODUCTS });
    url = `${await sandbox.app.listen({ port: 0, host: '127.0.0.1' })}/mcp/sandbox`;
    oil = await sandbox.variantId('OIL');
    ten = await sandbox.variantId('TEN');
  });
  after(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await sandbox.close();
  });
  const connect = async (token?: string) => {
    const client = await McpTestClient.connect(url, { token });
    clients.push(client);
    return client;
  };
  /** An agent with a key of all scopes, and the key. */
  const agent = async () => {
    const token = await sandbox.newKey();
    return { token, mcp: await connect(token) };
  };

  it('create_cart with country and locale prices the market and describes the lines, as REST answers the same cart', async () => {
    const { token, mcp } = await agent();
    const cart = await mcp.call('create_cart', { country: 'de', locale: 'it', idempotency_key: 'market' });
    assert.equal(cart.isError, false, JSON.stringify(cart.data));
    assert.equal(cart.data.currency, 'EUR');
    assert.deepEqual(cart.data.market, { locale: 'it', country: 'DE', currency: 'EUR', region_id: 'reg_eu' });
    const added = await mcp.call('add_to_cart', { cart_id: cart.data.id, variant_id: oil, quantity: 2 });
    assert.deepEqual(added.data.items, [
      { variant_id: oil, quantity: 2, unit_price: 17.5, product_handle: 'olive-oil', title: 'olive oil', variant_display_name: null, thumbnail: null, line_total: 35 },
    ]);
    const moved = await mcp.call('set_shipping_address', { cart_id: cart.data.id, address: { ...VALID_ADDRESS, country: 'GB' } });
    assert.deepEqual(moved.data.market, cart.data.market);
    assert.deepEqual((await sandbox.call(token, 'GET', `/sandbox/v1/carts/${cart.data.id}`)).data, moved.data);
  });

  it('create_cart refuses a country no region serves and a currency its region does not sell, naming them', async () => {
    const { mcp } = await agent();
    const unserved = await mcp.call('create_cart', { country: 'SE' });
    assert.equal(unserved.data.error, 'sandbox_invalid_request');
    assert.match(unserved.data.message, /No region serves country SE/);
    const mismatch = await mcp.call('create_cart', { country: 'DE', currency: 'GBP' });
    assert.equal(mismatch.data.error, 'sandbox_invalid_request');
    assert.match(mismatch.data.message, /Country DE is sold in EUR, not GBP\. Omit currency, or send EUR\./);
    const locale = await mcp.call('create_cart', { locale: 'fr' });
    assert.equal(locale.data.error, 'sandbox_invalid_request');
    assert.match(locale.data.message, /locale must be one of en, it/);
  });

  it('update_cart_item sets a quantity, and 0 removes the line', async () => {
    const { mcp } = await agent();
    const cartId = (await mcp.call('create_cart', { country: 'IT' })).data.id;
    await mcp.call('add_to_cart', { cart_id: cartId, variant_id: oil, quantity: 1 });
    await mcp.call('add_to_cart', { cart_id: cartId, variant_id: ten, quantity: 1 });
    const set = await mcp.call('update_cart_item', { cart_id: cartId, variant_id: ten, quantity: 7 });
    assert.equal(set.isError, false, JSON.stringify(set.data));
    assert.deepEqual(
      set.data.items.map((item: { quantity: number; line_total: number }) => [item.quantity, item.line_total]),
      [
        [1, 16.5],
        [7, 0.7],
      ],
    );
    const removed = await mcp.call('update_cart_item', { cart_id: cartId, variant_id: oil, quantity: 0 });
    assert.deepEqual(removed.data.items.map((item: { variant_id: string }) => item.variant_id), [ten]);
    assert.equal(removed.data.totals.item_total, 0.7);
  });

  it('update_cart_item refuses a quantity above 99, a variant not in the cart and one that cannot be bought', async () => {
    const { mcp } = await agent();
    const cartId = (await mcp.call('create_cart', {})).data.id;
    await mcp.call('add_to_cart', { cart_id: cartId, variant_id: oil, quantity: 1 });
    const tooMany = await mcp.call('update_cart_item', { cart_id: cartId, variant_id: oil, quantity: 100 });
    assert.equal(tooMany.data.error, 'sandbox_invalid_request');
    assert.match(tooMany.data.message, /quantity must be an integer from 0 to 99/);
    const notInCart = await mcp.call('update_cart_item', { cart_id: cartId, variant_id: ten, quantity: 2 });
    assert.equal(notInCart.data.error, 'sandbox_not_found');
    const soldOut = await mcp.call('update_cart_item', { cart_id: cartId, variant_id: await sandbox.variantId('SOLD-OUT'), quantity: 2 });
    assert.equal(soldOut.data.error, 'sandbox_variant_not_purchasable');
    assert.equal((await mcp.call('get_cart', { cart_id: cartId })).data.items[0].quantity, 1);
  });

  it('update_cart_item takes the scenario argument: out_of_stock refuses a positive quantity', async () => {
    const { mcp } = await agent();
    const cartId = (await mcp.call('create_cart', {})).data.id;
    await mcp.call('add_to_cart', { cart_id: cartId, variant_id: oil, quantity: 1 });
    const refused = await mcp.call('update_cart_item', { cart_id: cartId, variant_id: oil, quantity: 4, scenario: 'out_of_stock' });
    assert.equal(refused.data.error, 'sandbox_variant_not_purchasable');
    assert.match(refused.data.message, /Simulated by the out_of_stock scenario/);
    assert.equal((await mcp.call('get_cart', { cart_id: cartId })).data.items[0].quantity, 1);
  });

  it("update_cart_item on another key's cart is sandbox_not_found; without cart:write it names the scope", async () => {
    const { mcp: owner } = await agent();
    const cartId = (await owner.call('create_cart', {})).data.id;
    await owner.call('add_to_cart', { cart_id: cartId, variant_id: oil, quantity: 1 });
    const stranger = await connect(await sandbox.newKey());
    assert.equal((await stranger.call('update_cart_item', { cart_id: cartId, variant_id: oil, quantity: 5 })).data.error, 'sandbox_not_found');
    for (const client of [await connect(await sandbox.newKey(['catalog:read', 'checkout:create'])), await connect(sandbox.config.sandbox.publicKey)]) {
      const refused = await client.call('update_cart_item', { cart_id: cartId, variant_id: oil, quantity: 5 });
      assert.equal(refused.data.error, 'sandbox_insufficient_scope');
      assert.equal(refused.data.scope, 'cart:write');
    }
    const anonymous = await connect();
    const unauthenticated = await anonymous.call('update_cart_item', { cart_id: cartId, variant_id: oil, quantity: 5 });
    assert.equal(unauthenticated.data.error, 'sandbox_unauthorized');
    assert.equal(unauthenticated.data.scope, 'cart:write');
    assert.equal((await owner.call('get_cart', { cart_id: cartId })).data.items[0].quantity, 1);
  });

  it('update_cart_item with an idempotency_key returns its first result again; other arguments under it are a mismatch', async () => {
    const { mcp } = await agent();
    const cartId = (await mcp.call('create_cart', {})).data.id;
    await mcp.call('add_to_cart', { cart_id: cartId, variant_id: oil, quantity: 5 });
    const first = await mcp.call('update_cart_item', { cart_id: cartId, variant_id: oil, quantity: 2, idempotency_key: 'set-once' });
    await mcp.call('add_to_cart', { cart_id: cartId, variant_id: oil, quantity: 1 });
    const again = await mcp.call('update_cart_item', { cart_id: cartId, variant_id: oil, quantity: 2, idempotency_key: 'set-once' });
    assert.deepEqual(again.data, first.data);
    assert.equal((await mcp.call('get_cart', { cart_id: cartId })).data.items[0].quantity, 3);
    const other = await mcp.call('update_cart_item', { cart_id: cartId, variant_id: oil, quantity: 4, idempotency_key: 'set-once' });
    assert.equal(other.data.error, 'sandbox_idempotency_mismatch');
  });

  it('tools/list describes update_cart_item and the new create_cart arguments', async () => {
    const mcp = await connect();
    const { tools } = await mcp.client.listTools();
    const update = tools.find((tool) => tool.name === 'update_cart_item')!;
    const properties = update.inputSchema.properties as Record<string, { minimum?: number; maximum?: number }>;
    assert.deepEqual(Object.keys(properties).sort(), ['cart_id', 'idempotency_key', 'quantity', 'sandbox_key', 'scenario', 'variant_id']);
    assert.deepEqual([properties.quantity!.minimum, properties.quantity!.maximum], [0, 99]);
    assert.deepEqual(update.inputSchema.required, ['cart_id', 'variant_id', 'quantity']);
    assert.deepEqual(update.annotations, { readOnlyHint: false, idempotentHint: true, destructiveHint: true, openWorldHint: false });
    const createCart = tools.find((tool) => tool.name === 'create_cart')!;
    const createArgs = createCart.inputSchema.properties as Record<string, { enum?: string[]; default?: string }>;
    assert.deepEqual(createArgs.locale!.enum, ['en', 'it']);
    assert.ok(createArgs.country);
    assert.equal(createArgs.currency!.default, undefined);
    assert.match(createCart.description!, /country and locale/);
  });
});
