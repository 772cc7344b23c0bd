import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { McpTestClient } from '../support/mcp-client.js';
import { SANDBOX_PRODUCTS, VALID_ADDRESS } from '../support/sandbox.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const CART_TOOLS = [
  'add_to_cart',
  'checkout',
  'create_cart',
  'get_cart',
  'list_shipping_options',
  'remove_from_cart',
  'select_shipping_option',
  'set_shipping_address',
  'update_cart_item',
];

/**
 * A sandbox app listening on a real port for the suite around it, and `connect`, which
 * opens an MCP client on its /mcp/sandbox that is closed with the app.
 */
function sandboxMcpServer() {
  const server = { sandbox: undefined as unknown as TestApp, url: '' };
  const clients: McpTestClient[] = [];
  before(async () => {
    server.sandbox = await startTestApp({ catalog: SANDBOX_PRODUCTS });
    server.url = `${await server.sandbox.app.listen({ port: 0, host: '127.0.0.1' })}/mcp/sandbox`;
  });
  after(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await server.sandbox.close();
  });
  const connect = async (options: { token?: string; pinCurrent?: boolean } = {}) => {
    const client = await McpTestClient.connect(server.url, options);
    clients.push(client);
    return client;
  };
  return { server, connect };
}

describe('POST /mcp/sandbox: simulated cart and checkout tools', () => {
  const { server, connect } = sandboxMcpServer();

  it('lists the catalog tools, create_sandbox_key and every cart tool', async () => {
    const mcp = await connect();
    assert.deepEqual(await mcp.toolNames(), [...CART_TOOLS, 'create_sandbox_key', 'get_catalog_changes', 'get_product', 'list_categories', 'list_markets', 'lookup_catalog', 'search_catalog'].sort());
    const { tools } = await mcp.client.listTools();
    for (const tool of tools) {
      assert.equal(tool.outputSchema, undefined, `${tool.name} advertises no outputSchema`);
      assert.equal(typeof tool.annotations?.readOnlyHint, 'boolean', `${tool.name} says whether it is read-only`);
    }
    assert.match(mcp.client.getInstructions() ?? '', /create_sandbox_key[\s\S]*checkout/);
  });

  for (const pinCurrent of [false, true]) {
    it(`walks the whole flow through MCP alone and ends where REST says the cart is (${pinCurrent ? '2026-07-28' : '2025-11-25'})`, async () => {
      const anonymous = await connect({ pinCurrent });
      const key = await anonymous.call('create_sandbox_key', {});
      assert.equal(key.isError, false);
      assert.deepEqual(key.data.scopes, ['catalog:read', 'cart:write', 'checkout:create']);
      const token: string = key.data.access_token;

      const agent = await connect({ token, pinCurrent });
      const search = await agent.call('search_catalog', { query: 'olive oil' });
      const handle = search.data.products[0].handle;
      const product = await agent.call('get_product', { handle });
      const variantId = product.data.product.variants[0].id;
      const otherVariant = await server.sandbox.variantId('TEN');

      const cart = await agent.call('create_cart', { currency: 'EUR', idempotency_key: `flow-${pinCurrent}` });
      assert.equal(cart.isError, false);
      const cartId = cart.data.id;
      await agent.call('add_to_cart', { cart_id: cartId, variant_id: variantId, quantity: 2 });
      const withTwo = await agent.call('add_to_cart', { cart_id: cartId, variant_id: otherVariant, quantity: 3 });
      assert.equal(withTwo.data.items.length, 2);
      const removed = await agent.call('remove_from_cart', { cart_id: cartId, variant_id: otherVariant });
      assert.deepEqual(removed.data.items.map((item: { variant_id: string }) => item.variant_id), [variantId]);
      await agent.call('set_shipping_address', { cart_id: cartId, address: VALID_ADDRESS });
      const options = await agent.call('list_shipping_options', { cart_id: cartId });
      assert.equal(options.data.options[0].id, 'sandbox_standard');
      await agent.call('select_shipping_option', { cart_id: cartId, shipping_option_id: 'sandbox_standard' });
      const checkout = await agent.call('checkout', { cart_id: cartId, idempotency_key: `pay-${pinCurrent}` });

      assert.equal(checkout.isError, false);
      assert.equal(checkout.data.status, 'ready_for_checkout');
      assert.equal(checkout.data.checkout_url, null);
      assert.deepEqual(checkout.data.totals, { item_total: 33, shipping_total: 4.9, grand_total: 37.9 });

      const viaRest = await server.sandbox.call(token, 'POST', `/sandbox/v1/carts/${cartId}/checkout`, undefined, { 'idempotency-key': 'rest' });
      assert.equal(viaRest.statusCode, 200);
      assert.deepEqual(checkout.data, viaRest.data);
      const viaGet = await agent.call('get_cart', { cart_id: cartId });
      const { status: _status, checkout_url: _url, ...cartFields } = checkout.data;
      assert.deepEqual(viaGet.data, cartFields);
    });
  }

  it('an idempotent create_cart retried returns the same cart; other arguments under the key are a mismatch', async () => {
    const agent = await connect({ token: await server.sandbox.newKey() });
    const first = await agent.call('create_cart', { idempotency_key: 'once' });
    const again = await agent.call('create_cart', { idempotency_key: 'once' });
    assert.equal(again.data.id, first.data.id);
    const other = await agent.call('create_cart', { idempotency_key: 'once', currency: 'GBP' });
    assert.equal(other.isError, true);
    assert.equal(other.data.error, 'sandbox_idempotency_mismatch');
    assert.match(other.data.message, /idempotency_key was already used with different arguments/);
  });

  it('cart tools without a key, with the public key or without a scope are tool errors naming the scope', async () => {
    const anonymous = await connect();
    const publicKey = await connect({ token: server.sandbox.config.sandbox.publicKey });
    const cartOnly = await connect({ token: await server.sandbox.newKey(['cart:write']) });
    const readOnly = await connect({ token: await server.sandbox.newKey(['catalog:read']) });
    const badToken = await connect({ token: 'sbx_test_this_key_does_not_exist_anywhere' });

    for (const client of [anonymous, badToken]) {
      const outcome = await client.call('create_cart', {});
      assert.equal(outcome.isError, true);
      assert.equal(outcome.data.error, 'sandbox_unauthorized');
      assert.equal(outcome.data.scope, 'cart:write');
    }
    for (const client of [publicKey, readOnly]) {
      const outcome = await client.call('create_cart', {});
      assert.equal(outcome.data.error, 'sandbox_insufficient_scope');
      assert.equal(outcome.data.scope, 'cart:write');
    }
    const cart = await cartOnly.call('create_cart', {});
    const checkout = await cartOnly.call('checkout', { cart_id: cart.data.id });
    assert.equal(checkout.data.error, 'sandbox_insufficient_scope');
    assert.equal(checkout.data.scope, 'checkout:create');

    assert.equal((await publicKey.call('search_catalog', { query: 'olive' })).isError, false);
    assert.equal((await anonymous.call('list_markets')).isError, false);
  });

  it("another key's cart is sandbox_not_found on every cart tool", async () => {
    const owner = await connect({ token: await server.sandbox.newKey() });
    const stranger = await connect({ token: await server.sandbox.newKey() });
    const cartId = (await owner.call('create_cart', {})).data.id;
    const variantId = await server.sandbox.variantId('OIL');
    const calls: [string, Record<string, unknown>][] = [
      ['get_cart', {}],
      ['add_to_cart', { variant_id: variantId, quantity: 1 }],
      ['remove_from_cart', { variant_id: variantId }],
      ['set_shipping_address', { address: VALID_ADDRESS }],
      ['list_shipping_options', {}],
      ['select_shipping_option', { shipping_option_id: 'sandbox_standard' }],
      ['checkout', {}],
    ];
    for (const [tool, args] of calls) {
      const outcome = await stranger.call(tool, { cart_id: cartId, ...args });
      assert.equal(outcome.data.error, 'sandbox_not_found', tool);
    }
    assert.equal((await owner.call('get_cart', { cart_id: cartId })).isError, false);
  });

  it('business rules answer with the REST error strings', async () => {
    const agent = await connect({ token: await server.sandbox.newKey() });
    const cartId = (await agent.call('create_cart', {})).data.id;
    for (const sku of ['SOLD-OUT', 'DRAFT', 'WEIGHTED']) {
      const outcome = await agent.call('add_to_cart', { cart_id: cartId, variant_id: await server.sandbox.variantId(sku), quantity: 1 });
      assert.equal(outcome.data.error, 'sandbox_variant_not_purchasable', sku);
    }
    const incomplete = await agent.call('checkout', { cart_id: cartId });
    assert.equal(incomplete.data.error, 'sandbox_cart_incomplete');
    assert.match(incomplete.data.message, /item/);
  });

  it('invalid arguments are rejected by each tool', async () => {
    const agent = await connect({ token: await server.sandbox.newKey() });
    const cartId = (await agent.call('create_cart', {})).data.id;
    const oil = await server.sandbox.variantId('OIL');
    const invalid: [string, Record<string, unknown>][] = [
      ['create_sandbox_key', { scopes: ['admin'] }],
      ['create_sandbox_key', { scopes: ['cart:write', 'cart:write'] }],
      ['create_cart', { currency: 'eur' }],
      ['create_cart', { idempotency_key: '' }],
      ['get_cart', {}],
      ['add_to_cart', { cart_id: cartId, variant_id: oil, quantity: 0 }],
      ['add_to_cart', { cart_id: cartId, variant_id: oil, quantity: 100 }],
      ['add_to_cart', { cart_id: cartId, variant_id: oil, quantity: 1.5 }],
      ['add_to_cart', { cart_id: cartId, variant_id: 'v'.repeat(129), quantity: 1 }],
      ['remove_from_cart', { cart_id: cartId }],
      ['set_shipping_address', { cart_id: cartId, address: { ...VALID_ADDRESS, country: 'ITA' } }],
      ['set_shipping_address', { cart_id: cartId, address: { ...VALID_ADDRESS, extra: 1 } }],
      ['list_shipping_options', { cart_id: cartId, extra: 1 }],
      ['select_shipping_option', { cart_id: cartId, shipping_option_id: 'express' }],
      ['checkout', { cart_id: cartId, idempotency_key: 'k'.repeat(256) }],
    ];
    for (const [tool, args] of invalid) {
      const outcome = await agent.call(tool, args);
      assert.equal(outcome.isError, true, `${tool} ${JSON.stringify(args)}`);
      assert.equal(outcome.data.error, 'sandbox_invalid_request', `${tool} ${JSON.stringify(args)}`);
    }
    const untouched = await agent.call('get_cart', { cart_id: cartId });
    assert.deepEqual(untouched.data.items, []);
    assert.equal(untouched.data.shipping_address, undefined);
  });
});

describe('/mcp/sandbox: what an agent can act on', () => {
  const { server, connect: connectWithOptions } = sandboxMcpServer();
  const connect = (token?: string) => connectWithOptions({ token });

  it('argument errors name the field and the values it accepts', async () => {
    const agent = await connect(await server.sandbox.newKey());
    const cartId = (await agent.call('create_cart', {})).data.id;
    const oil = await server.sandbox.variantId('OIL');
    for (const [tool, args, sentence] of [
      ['select_shipping_option', { cart_id: cartId, shipping_option_id: 'express' }, 'shipping_option_id must be sandbox_standard'],
      ['add_to_cart', { cart_id: cartId, variant_id: oil, quantity: 100 }, 'quantity must be an integer from 1 to 99'],
      ['add_to_cart', { cart_id: cartId, variant_id: oil, quantity: 1.5 }, 'quantity must be an integer from 1 to 99'],
      ['add_to_cart', { cart_id: cartId, variant_id: oil }, 'quantity is required and must be an integer from 1 to 99'],
      ['create_cart', { currency: 'eur' }, 'currency must be a string matching ^[A-Z]{3}$'],
      ['create_sandbox_key', { scopes: ['admin'] }, 'scopes[0] must be one of catalog:read, cart:write, checkout:create'],
      ['set_shipping_address', { cart_id: cartId, address: { ...VALID_ADDRESS, country: 'ITA' } }, 'address.country must be a string matching ^[A-Za-z]{2}$'],
      ['set_shipping_address', { cart_id: cartId, address: { ...VALID_ADDRESS, fax: '1' } }, 'address.fax is not accepted (accepted: name, line_one'],
      ['get_cart', { cart: cartId }, 'cart_id is required and must be a string from 1 to 64 characters; cart is not accepted (accepted: cart_id, sandbox_key, scenario)'],
    ] as const) {
      const outcome = await agent.call(tool, args);
      assert.equal(outcome.data.error, 'sandbox_invalid_request');
      assert.ok(outcome.data.message.includes(sentence), `${outcome.data.message} should say "${sentence}"`);
    }
  });

  it('a client that cannot send headers passes the key as sandbox_key and walks the flow', async () => {
    const agent = await connect();
    const token: string = (await agent.call('create_sandbox_key', {})).data.access_token;
    const cart = await agent.call('create_cart', { currency: 'EUR', sandbox_key: token, idempotency_key: 'arg-key' });
    assert.equal(cart.isError, false, JSON.stringify(cart.data));
    const cartId = cart.data.id;
    const added = await agent.call('add_to_cart', { cart_id: cartId, variant_id: await server.sandbox.variantId('OIL'), quantity: 2, sandbox_key: token });
    assert.equal(added.data.items[0].quantity, 2);
    await agent.call('set_shipping_address', { cart_id: cartId, address: VALID_ADDRESS, sandbox_key: token });
    await agent.call('select_shipping_option', { cart_id: cartId, shipping_option_id: 'sandbox_standard', sandbox_key: token });
    const checkout = await agent.call('checkout', { cart_id: cartId, sandbox_key: token });
    assert.equal(checkout.data.status, 'ready_for_checkout');
    // The same cart over REST with the same key: the argument authenticated that key.
    assert.equal((await server.sandbox.call(token, 'GET', `/sandbox/v1/carts/${cartId}`)).statusCode, 200);
    const replay = await agent.call('create_cart', { currency: 'EUR', sandbox_key: token, idempotency_key: 'arg-key' });
    assert.equal(replay.data.id, cartId);
  });

  it('the Authorization header wins over sandbox_key', async () => {
    const headerToken = await server.sandbox.newKey();
    const argumentToken = await server.sandbox.newKey();
    const headerCart = await server.sandbox.newCart(headerToken);
    const argumentCart = await server.sandbox.newCart(argumentToken);
    const agent = await connect(headerToken);
    const own = await agent.call('get_cart', { cart_id: headerCart.id, sandbox_key: argumentToken });
    assert.equal(own.isError, false);
    const other = await agent.call('get_cart', { cart_id: argumentCart.id, sandbox_key: argumentToken });
    assert.equal(other.data.error, 'sandbox_not_found');
  });

  it('without any key the error says how to pass one; a malformed or unknown sandbox_key is refused', async () => {
    const agent = await connect();
    const missing = await agent.call('create_cart', {});
    assert.equal(missing.data.error, 'sandbox_unauthorized');
    assert.equal(missing.data.scope, 'cart:write');
    assert.match(missing.data.message, /sandbox_key.*create_sandbox_key.*Authorization: Bearer/);
    assert.doesNotMatch(missing.data.message, /\/sandbox\/v1/);
    const malformed = await agent.call('create_cart', { sandbox_key: 'not a key' });
    assert.equal(malformed.data.error, 'sandbox_invalid_request');
    assert.match(malformed.data.message, /sandbox_key must be a string matching \^sbx_test_/);
    assert.doesNotMatch(malformed.data.message, /not a key/);
    const unknown = await agent.call('create_cart', { sandbox_key: 'sbx_test_this_key_does_not_exist_anywhere' });
    assert.equal(unknown.data.error, 'sandbox_unauthorized');
  });

  it('the instructions give the purchase flow as its steps, and the cart tools a client may call at any point as optional', async () => {
    const agent = await connect();
    const instructions = agent.client.getInstructions() ?? '';
    assert.match(instructions, /Flow: create_sandbox_key -> create_cart -> add_to_cart -> set_shipping_address -> list_shipping_options -> select_shipping_option -> checkout;/);
    assert.match(instructions, /at any point along it: get_cart \([^)]*\), update_cart_item \([^)]*\), remove_from_cart \([^)]*\)\./);
  });

  it('tools and instructions tell the trade-off of a key in an argument', async () => {
    const agent = await connect();
    const { tools } = await agent.client.listTools();
    const createCart = tools.find((tool) => tool.name === 'create_cart')!;
    const argument = (createCart.inputSchema.properties as Record<string, { description: string }>).sandbox_key!;
    assert.match(argument.description, /transcript/);
    assert.match(argument.description, /header wins/);
    assert.match(tools.find((tool) => tool.name === 'create_sandbox_key')!.description!, /sandbox_key.*transcript/s);
    assert.match(agent.client.getInstructions() ?? '', /sandbox_key.*transcript/s);
    for (const tool of tools.filter((t) => CART_TOOLS.includes(t.name))) {
      assert.ok((tool.inputSchema.properties as object)['sandbox_key' as never], `${tool.name} takes sandbox_key`);
    }
  });
});

describe('/mcp/sandbox never logs a sandbox key', () => {
  it('passed as sandbox_key, a key appears in no log line at any level, whatever the outcome', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const testApp = await startTestApp({ logger: { level: 'trace', stream } });
    try {
      const base = await testApp.app.listen({ port: 0, host: '127.0.0.1' });
      const agent = await McpTestClient.connect(`${base}/mcp/sandbox`);
      const token: string = (await agent.call('create_sandbox_key', {})).data.access_token;
      const unknownToken = 'sbx_test_unknown_key_for_the_log_test_0000';
      const cartId = (await agent.call('create_cart', { sandbox_key: token })).data.id;
      await agent.call('add_to_cart', { cart_id: cartId, variant_id: 'nope', quantity: 1, sandbox_key: token });
      await agent.call('add_to_cart', { cart_id: cartId, variant_id: 'nope', quantity: 500, sandbox_key: token });
      await agent.call('get_cart', { cart_id: cartId, sandbox_key: unknownToken });
      // A body that is not JSON, carrying a key: the parse error is logged, the key is not.
      await fetch(`${base}/mcp/sandbox`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"sandbox_key":"${token}",` });
      await agent.close();
      assert.ok(lines.length > 10, 'the app logged requests');
      for (const secret of [token, unknownToken, token.slice('sbx_test_'.length)]) {
        assert.equal(lines.filter((line) => line.includes(secret)).length, 0, 'a sandbox key was logged');
      }
    } finally {
      await testApp.close();
    }
  });
});

describe('/mcp/sandbox limits', () => {
  it('cart tools count against the REST cart limit of the key', async () => {
    const sandbox = await startTestApp({ catalog: SANDBOX_PRODUCTS, config: { sandbox: { cartRateLimit: 3 } } });
    try {
      const url = `${await sandbox.app.listen({ port: 0, host: '127.0.0.1' })}/mcp/sandbox`;
      const token = await sandbox.newKey();
      const cart = await sandbox.newCart(token);
      const agent = await McpTestClient.connect(url, { token });
      assert.equal((await agent.call('get_cart', { cart_id: cart.id })).isError, false);
      assert.equal((await agent.call('get_cart', { cart_id: cart.id })).isError, false);
      const limited = await agent.call('get_cart', { cart_id: cart.id });
      assert.equal(limited.data.error, 'sandbox_rate_limited');
      assert.equal((await sandbox.call(token, 'GET', `/sandbox/v1/carts/${cart.id}`)).statusCode, 429);
      await agent.close();
    } finally {
      await sandbox.close();
    }
  });

  it('cart tools answer sandbox_disabled when the sandbox is switched off, catalog tools still work', async () => {
    const sandbox = await startTestApp({ catalog: SANDBOX_PRODUCTS, config: { sandbox: { enabled: false } } });
    try {
      const url = `${await sandbox.app.listen({ port: 0, host: '127.0.0.1' })}/mcp/sandbox`;
      const agent = await McpTestClient.connect(url);
      assert.equal((await agent.call('create_sandbox_key')).data.error, 'sandbox_disabled');
      assert.equal((await agent.call('list_markets')).isError, false);
      await agent.close();
    } finally {
      await sandbox.close();
    }
  });
});
