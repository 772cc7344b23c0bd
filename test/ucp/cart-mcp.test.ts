import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { McpTestClient } from '../support/mcp-client.js';
import { SANDBOX_PRODUCTS } from '../support/sandbox.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { ucpTestConfig, usePlatformServer } from '../support/ucp-platform.js';
import { line, ucpShopper } from '../support/ucp-shopping.js';
import { ucpValidator } from '../support/ucp-validator.js';

const { validator, skip } = await ucpValidator();
const TOOLS = ['cancel_cart', 'create_cart', 'get_cart', 'update_cart'];

/**
 * UCP's cart tools on /ucp/mcp through the official MCP client, the sandbox key on the
 * MCP request: every result checked against the release's schemas with the capabilities
 * negotiated, every protocol error as a JSON-RPC error with UCP's `data`.
 */
describe('UCP carts over MCP', { skip }, () => {
  const platform = usePlatformServer();
  let testApp: TestApp;
  let base: string;
  let mcp: McpTestClient;
  let token: string;
  const ids: Record<string, string> = {};
  const shopper = ucpShopper(() => testApp, platform, () => validator!);
  before(async () => {
    testApp = await startTestApp({ catalog: SANDBOX_PRODUCTS, config: { ucp: ucpTestConfig() } });
    base = await testApp.app.listen({ port: 0, host: '127.0.0.1' });
    token = await testApp.newKey();
    mcp = await McpTestClient.connect(`${base}/ucp/mcp`, { token });
    for (const sku of ['OIL', 'TEN', 'SOLD-OUT']) ids[sku] = await testApp.variantId(sku);
  });
  after(async () => {
    await mcp?.close();
    await testApp?.close();
  });

  it("lists the release's four cart tools: meta, id where they act on a cart, the cart payload where they take one", async () => {
    const { tools } = await mcp.client.listTools();
    const cartTools = tools.filter((tool) => TOOLS.includes(tool.name));
    assert.deepEqual(cartTools.map((tool) => tool.name).sort(), TOOLS);
    const required = Object.fromEntries(cartTools.map((tool) => [tool.name, tool.inputSchema.required]));
    assert.deepEqual(required, { create_cart: ['meta', 'cart'], get_cart: ['meta', 'id'], update_cart: ['meta', 'id', 'cart'], cancel_cart: ['meta', 'id'] });
    assert.equal(cartTools.find((tool) => tool.name === 'get_cart')!.annotations?.readOnlyHint, true);
    assert.equal(cartTools.find((tool) => tool.name === 'create_cart')!.annotations?.readOnlyHint, false);
  });

  it('create, get, update and cancel a cart: results with the cart, as REST answers them', async () => {
    const created = await shopper.mcp(mcp, 'create_cart', { meta: shopper.meta(), cart: { line_items: [line(ids.OIL!, 2), line(ids['SOLD-OUT']!, 1)] } });
    const cart = created.result!;
    assert.equal(cart.ucp.status, 'success');
    assert.deepEqual(cart.line_items.map((item: any) => [item.id, item.quantity, item.item.price]), [[ids.OIL, 2, 1650]]);
    assert.deepEqual(cart.messages.map((message: any) => message.code), ['out_of_stock']);

    const got = await shopper.mcp(mcp, 'get_cart', { meta: shopper.meta(), id: cart.id });
    const rest = await testApp.client.request({
      method: 'GET',
      url: `/ucp/v1/carts/${cart.id}`,
      headers: { 'ucp-agent': `profile="${platform.url('/all.json')}"`, authorization: `Bearer ${token}` },
    });
    assert.deepEqual(got.result, rest.data);

    const updated = await shopper.mcp(mcp, 'update_cart', { meta: shopper.meta(), id: cart.id, cart: { line_items: [line(ids.TEN!, 3)], discounts: { codes: ['FREE'] } } });
    assert.deepEqual(updated.result!.line_items.map((item: any) => [item.id, item.quantity]), [[ids.TEN, 3]]);
    assert.deepEqual(updated.result!.messages.map((message: any) => message.code), ['discount_code_invalid']);

    const canceled = await shopper.mcp(mcp, 'cancel_cart', { meta: shopper.meta('all', { 'idempotency-key': randomUUID() }), id: cart.id });
    assert.deepEqual(canceled.result!.line_items, updated.result!.line_items);
    const gone = await shopper.mcp(mcp, 'get_cart', { meta: shopper.meta(), id: cart.id });
    assert.equal(gone.result!.ucp.status, 'error');
    assert.equal(gone.result!.messages[0].code, 'not_found');
  });

  it('capabilities_incompatible for a platform without the cart capability: a result with ucp.status error', async () => {
    const outcome = await shopper.mcp(mcp, 'create_cart', { meta: shopper.meta('catalog'), cart: { line_items: [] } }, 'catalog');
    assert.equal(outcome.result!.ucp.status, 'error');
    assert.equal(outcome.result!.messages[0].code, 'capabilities_incompatible');
  });

  it('-32000 sandbox_unauthorized without a key on the MCP request', async () => {
    const keyless = await McpTestClient.connect(`${base}/ucp/mcp`);
    try {
      const { error } = await shopper.mcp(keyless, 'create_cart', { meta: shopper.meta(), cart: { line_items: [] } });
      assert.equal(error?.code, -32000);
      assert.equal(error.data.code, 'sandbox_unauthorized');
    } finally {
      await keyless.close();
    }
  });

  it('-32602 invalid_request for arguments outside the schema, naming the field', async () => {
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['create_cart', { meta: shopper.meta(), cart: { line_items: [{ item: { id: 'x' }, quantity: 0 }] } }, /quantity/],
      ['create_cart', { meta: shopper.meta() }, /cart/],
      ['get_cart', { meta: shopper.meta() }, /id/],
      ['update_cart', { meta: shopper.meta(), id: 'sandbox_cart_000000000000000000000000', cart: { line_items: 'all' } }, /line_items/],
    ];
    for (const [tool, args, field] of cases) {
      const { error } = await shopper.mcp(mcp, tool, args);
      assert.equal(error?.code, -32602, tool);
      assert.equal(error.data.code, 'invalid_request');
      assert.match(error.data.content, field);
    }
  });
});

