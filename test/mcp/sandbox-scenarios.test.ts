import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { McpTestClient } from '../support/mcp-client.js';
import { SANDBOX_PRODUCTS, VALID_ADDRESS } from '../support/sandbox.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const ALL = ['unavailable', 'rate_limited', 'out_of_stock', 'price_changed'];

describe('/mcp/sandbox: the scenario argument', () => {
  let sandbox: TestApp;
  let url: string;
  let oil: string;
  const clients: McpTestClient[] = [];
  before(async () => {
    sandbox = await startTestApp({ catalog: SANDBOX_PRODUCTS, config: { sandbox: { cartRateLimit: 100 } } });
    url = `${await sandbox.app.listen({ port: 0, host: '127.0.0.1' })}/mcp/sandbox`;
    oil = await sandbox.variantId('OIL');
  });
  after(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await sandbox.close();
  });

  /** An agent with a key of its own, and a cart of that key holding one olive oil. */
  const agentWithCart = async () => {
    const token = await sandbox.newKey();
    const agent = await McpTestClient.connect(url, { token });
    clients.push(agent);
    const cartId: string = (await agent.call('create_cart', {})).data.id;
    assert.equal((await agent.call('add_to_cart', { cart_id: cartId, variant_id: oil, quantity: 1 })).isError, false);
    return { token, agent, cartId };
  };
  const restCart = (token: string, cartId: string) => sandbox.call(token, 'GET', `/sandbox/v1/carts/${cartId}`);
  /** Every cart tool with valid arguments, so only the scenario decides the outcome. */
  const cartToolCalls = (cartId: string): [string, Record<string, unknown>][] => [
    ['create_cart', {}],
    ['get_cart', { cart_id: cartId }],
    ['add_to_cart', { cart_id: cartId, variant_id: oil, quantity: 1 }],
    ['remove_from_cart', { cart_id: cartId, variant_id: oil }],
    ['set_shipping_address', { cart_id: cartId, address: VALID_ADDRESS }],
    ['list_shipping_options', { cart_id: cartId }],
    ['select_shipping_option', { cart_id: cartId, shipping_option_id: 'sandbox_standard' }],
    ['checkout', { cart_id: cartId }],
  ];

  it('tools/list: every cart tool takes scenario with the four values; create_sandbox_key with two', async () => {
    const { agent } = await agentWithCart();
    const { tools } = await agent.client.listTools();
    const scenarioOf = (name: string) => (tools.find((tool) => tool.name === name)!.inputSchema.properties as Record<string, any>).scenario;
    for (const [name] of cartToolCalls('')) {
      assert.deepEqual(scenarioOf(name).enum, ALL, name);
    }
    for (const scenario of ALL) assert.match(agent.client.getInstructions() ?? '', new RegExp(`\`${scenario}\`: `), scenario);
    assert.deepEqual(scenarioOf('create_sandbox_key').enum, ['unavailable', 'rate_limited']);
    assert.equal(scenarioOf('search_catalog'), undefined);
  });

  it('unavailable: every cart tool and create_sandbox_key fail with sandbox_unavailable, retry_after 1, changing nothing', async () => {
    const { token, agent, cartId } = await agentWithCart();
    const before = (await restCart(token, cartId)).body;
    for (const [tool, args] of [...cartToolCalls(cartId), ['create_sandbox_key', {}] as [string, Record<string, unknown>]]) {
      const outcome = await agent.call(tool, { ...args, scenario: 'unavailable' });
      assert.equal(outcome.isError, true, tool);
      assert.deepEqual([outcome.data.error, outcome.data.retry_after], ['sandbox_unavailable', 1], tool);
    }
    assert.equal((await restCart(token, cartId)).body, before);
  });

  it('rate_limited: sandbox_rate_limited with retry_after 1; the call counts once and the next one runs', async () => {
    const { token, agent, cartId } = await agentWithCart();
    const remaining = Number((await restCart(token, cartId)).headers['ratelimit-remaining']);
    const refused = await agent.call('add_to_cart', { cart_id: cartId, variant_id: oil, quantity: 1, scenario: 'rate_limited' });
    assert.equal(refused.isError, true);
    assert.deepEqual([refused.data.error, refused.data.retry_after], ['sandbox_rate_limited', 1]);
    const key = await agent.call('create_sandbox_key', { scenario: 'rate_limited' });
    assert.equal(key.data.error, 'sandbox_rate_limited');

    const after = await restCart(token, cartId);
    assert.equal(Number(after.headers['ratelimit-remaining']), remaining - 2);
    assert.equal(after.data.items[0].quantity, 1);
    assert.equal((await agent.call('add_to_cart', { cart_id: cartId, variant_id: oil, quantity: 1 })).data.items[0].quantity, 2);
  });

  it('out_of_stock: add_to_cart fails with sandbox_variant_not_purchasable; the catalog and the cart stay as they were', async () => {
    const { token, agent, cartId } = await agentWithCart();
    const ten = await sandbox.variantId('TEN');
    const product = (await agent.call('get_product', { handle: 'cents' })).data.product;
    const before = (await restCart(token, cartId)).body;
    const refused = await agent.call('add_to_cart', { cart_id: cartId, variant_id: ten, quantity: 1, scenario: 'out_of_stock' });
    assert.equal(refused.isError, true);
    assert.equal(refused.data.error, 'sandbox_variant_not_purchasable');
    assert.match(refused.data.message, /out_of_stock scenario/);
    assert.equal((await restCart(token, cartId)).body, before);
    assert.deepEqual((await agent.call('get_product', { handle: 'cents' })).data.product, product);
    assert.equal((await agent.call('get_cart', { cart_id: cartId, scenario: 'out_of_stock' })).isError, false);
  });

  it("price_changed: get_cart shows unit prices 10% up from then on, on REST too, and no other key's cart changes", async () => {
    const { token, agent, cartId } = await agentWithCart();
    const other = await agentWithCart();
    const changed = await agent.call('get_cart', { cart_id: cartId, scenario: 'price_changed' });
    assert.equal(changed.isError, false);
    assert.equal(changed.data.items[0].unit_price, 18.15);
    assert.equal(changed.data.totals.item_total, 18.15);
    assert.deepEqual((await restCart(token, cartId)).data, changed.data);
    assert.equal((await agent.call('get_cart', { cart_id: cartId })).data.items[0].unit_price, 18.15);
    assert.equal((await other.agent.call('get_cart', { cart_id: other.cartId })).data.items[0].unit_price, 16.5);
    assert.equal((await agent.call('get_product', { handle: 'olive-oil' })).data.product.variants[0].price.amount, 16.5);
  });

  it("ownership comes first: a scenario on another key's cart is sandbox_not_found", async () => {
    const owner = await agentWithCart();
    const { agent } = await agentWithCart();
    for (const scenario of ALL) {
      for (const [tool, args] of cartToolCalls(owner.cartId).filter(([name]) => name !== 'create_cart')) {
        const outcome = await agent.call(tool, { ...args, scenario });
        assert.equal(outcome.data.error, 'sandbox_not_found', `${tool} ${scenario}`);
      }
    }
    assert.equal((await owner.agent.call('get_cart', { cart_id: owner.cartId })).data.items[0].unit_price, 16.5);
  });

  it('an unknown scenario is sandbox_invalid_request naming the argument and its values', async () => {
    const { agent, cartId } = await agentWithCart();
    const outcome = await agent.call('get_cart', { cart_id: cartId, scenario: 'offline' });
    assert.equal(outcome.data.error, 'sandbox_invalid_request');
    assert.match(outcome.data.message, /scenario must be one of unavailable, rate_limited, out_of_stock, price_changed/);
    const key = await agent.call('create_sandbox_key', { scenario: 'price_changed' });
    assert.equal(key.data.error, 'sandbox_invalid_request');
    assert.match(key.data.message, /scenario must be one of unavailable, rate_limited\./);
  });

  it('a simulated failure is not stored under its idempotency_key: the retry runs, and the one after replays', async () => {
    const { agent, cartId } = await agentWithCart();
    const add = { cart_id: cartId, variant_id: oil, quantity: 1, idempotency_key: 'rehearsed' };
    assert.equal((await agent.call('add_to_cart', { ...add, scenario: 'unavailable' })).data.error, 'sandbox_unavailable');
    assert.equal((await agent.call('add_to_cart', add)).data.items[0].quantity, 2);
    assert.equal((await agent.call('add_to_cart', add)).data.items[0].quantity, 2);
  });
});
