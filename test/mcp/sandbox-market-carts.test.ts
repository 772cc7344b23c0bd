import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { McpTestClient } from '../support/mcp-client.js';
import { SANDBOX_PRODUCTS, VALID_ADDRESS } from '../support/sandbox.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

describe('/mcp/sandbox: carts opened for a market', () => {
  let sandbox: TestApp;
  let url: string;
  const clients: McpTestClient[] = [];
  let oil: string;
  before(async () => {
    sandbox = await startTestApp({ catalog: SANDBOX_PRODUCTS });
    url = `${await sandbox.app.listen({ port: 0, host: '127.0.0.1' })}/mcp/sandbox`;
    oil = await sandbox.variantId('OIL');
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

  it('tools/list describes the new create_cart arguments', async () => {
    const mcp = await connect();
    const { tools } = await mcp.client.listTools();
    const createCart = tools.find((tool) => tool.name === 'create_cart')!;
    const createArgs = createCart.inputSchema.properties as Record<string, { enum?: string[]; default?: string }>;
    assert.deepEqual(createArgs.locale!.enum, ['en', 'it']);
    assert.ok(createArgs.country);
    assert.equal(createArgs.currency!.default, undefined);
    assert.match(createCart.description!, /country and locale/);
    assert.equal(createCart.outputSchema?.type, 'object');
  });
});
