import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { McpTestClient } from '../support/mcp-client.js';
import { SANDBOX_PRODUCTS } from '../support/sandbox.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { ucpTestConfig, usePlatformServer } from '../support/ucp-platform.js';
import { FULFILLMENT, line, pay, ucpShopper } from '../support/ucp-shopping.js';
import { ucpValidator } from '../support/ucp-validator.js';

const { validator, skip } = await ucpValidator();
const TOOLS = ['cancel_checkout', 'complete_checkout', 'create_checkout', 'get_checkout', 'get_order', 'update_checkout'];


/**
 * UCP's checkout and order tools on /ucp/mcp through the official MCP client, the
 * sandbox key on the MCP request: every result checked against the release's schemas
 * with the capabilities negotiated, every protocol error as a JSON-RPC error.
 */
describe('UCP checkout and orders over MCP', { skip }, () => {
  const platform = usePlatformServer();
  let testApp: TestApp;
  let base: string;
  let mcp: McpTestClient;
  const ids: Record<string, string> = {};
  const shopper = ucpShopper(() => testApp, platform, () => validator!);
  before(async () => {
    testApp = await startTestApp({ catalog: SANDBOX_PRODUCTS, config: { ucp: ucpTestConfig() } });
    base = await testApp.app.listen({ port: 0, host: '127.0.0.1' });
    mcp = await McpTestClient.connect(`${base}/ucp/mcp`, { token: await testApp.newKey() });
    for (const sku of ['OIL', 'TEN']) ids[sku] = await testApp.variantId(sku);
  });
  after(async () => {
    await mcp?.close();
    await testApp?.close();
  });

  /** `meta` with an idempotency key, which the release requires of complete_checkout and cancel_checkout. */
  const once = () => shopper.meta('all', { 'idempotency-key': randomUUID() });

  it("lists the release's checkout tools and get_order", async () => {
    const { tools } = await mcp.client.listTools();
    const listed = tools.filter((tool) => TOOLS.includes(tool.name));
    assert.deepEqual(listed.map((tool) => tool.name).sort(), TOOLS);
    const required = Object.fromEntries(listed.map((tool) => [tool.name, tool.inputSchema.required]));
    assert.deepEqual(required, {
      create_checkout: ['meta', 'checkout'],
      get_checkout: ['meta', 'id'],
      update_checkout: ['meta', 'id', 'checkout'],
      complete_checkout: ['meta', 'id', 'checkout'],
      cancel_checkout: ['meta', 'id'],
      get_order: ['meta', 'id'],
    });
  });

  it('create, update, a declined and an approved complete_checkout, then get_order: every result the release\'s', async () => {
    const created = (await shopper.mcp(mcp, 'create_checkout', { meta: shopper.meta(), checkout: { line_items: [line(ids.OIL!, 1)] } })).result!;
    assert.equal(created.status, 'incomplete');
    assert.ok(created.ucp.payment_handlers['dev.vetrina.sandbox_payment']);

    const updated = (await shopper.mcp(mcp, 'update_checkout', { meta: shopper.meta(), id: created.id, checkout: { line_items: [line(ids.OIL!, 1), line(ids.TEN!, 2)], fulfillment: FULFILLMENT } })).result!;
    assert.equal(updated.status, 'ready_for_complete');
    assert.deepEqual(updated.totals.at(-1), { type: 'total', amount: 1650 + 20 + 490 });

    const declined = (await shopper.mcp(mcp, 'complete_checkout', { meta: once(), id: created.id, checkout: pay('tok_sandbox_decline_expired_card') })).result!;
    assert.equal(declined.status, 'ready_for_complete');
    assert.equal(declined.messages[0].code, 'payment_failed');
    assert.match(declined.messages[0].content, /expired/);

    const completed = (await shopper.mcp(mcp, 'complete_checkout', { meta: once(), id: created.id, checkout: pay('tok_sandbox_success') })).result!;
    assert.equal(completed.status, 'completed');
    const order = (await shopper.mcp(mcp, 'get_order', { meta: shopper.meta(), id: completed.order.id })).result!;
    assert.equal(order.id, completed.order.id);
    assert.deepEqual(order.totals, updated.totals);
    const got = (await shopper.mcp(mcp, 'get_checkout', { meta: shopper.meta(), id: created.id })).result!;
    assert.deepEqual(got, completed);
  });

  it('cancel_checkout, then complete_checkout of it: the outcome not_modifiable as a result', async () => {
    const created = (await shopper.mcp(mcp, 'create_checkout', { meta: shopper.meta(), checkout: { line_items: [line(ids.TEN!, 1)], fulfillment: FULFILLMENT } })).result!;
    const canceled = (await shopper.mcp(mcp, 'cancel_checkout', { meta: once(), id: created.id })).result!;
    assert.equal(canceled.status, 'canceled');
    const refused = (await shopper.mcp(mcp, 'complete_checkout', { meta: once(), id: created.id, checkout: pay('tok_sandbox_success') })).result!;
    assert.equal(refused.ucp.status, 'error');
    assert.equal(refused.messages[0].code, 'not_modifiable');
  });

  it('unknown checkouts and orders are not_found results', async () => {
    for (const [tool, id] of [
      ['get_checkout', 'sandbox_checkout_000000000000000000000000'],
      ['get_order', 'sandbox_order_000000000000000000000000'],
    ]) {
      const outcome = (await shopper.mcp(mcp, tool!, { meta: shopper.meta(), id })).result!;
      assert.equal(outcome.ucp.status, 'error');
      assert.equal(outcome.messages[0].code, 'not_found');
    }
  });

  it('-32602 real_card_refused for a card number, -32602 invalid_request for arguments outside the schema', async () => {
    const created = (await shopper.mcp(mcp, 'create_checkout', { meta: shopper.meta(), checkout: { line_items: [line(ids.TEN!, 1)], fulfillment: FULFILLMENT } })).result!;
    const card = await shopper.mcp(mcp, 'complete_checkout', { meta: once(), id: created.id, checkout: pay('5555 5555 5555 4444') });
    assert.equal(card.error?.code, -32602);
    assert.equal(card.error.data.code, 'real_card_refused');
    assert.doesNotMatch(JSON.stringify(card.error), /4444/);
    const bad = await shopper.mcp(mcp, 'update_checkout', { meta: shopper.meta(), id: created.id, checkout: { line_items: [], fulfillment: { methods: [{ type: 'pickup' }] } } });
    assert.equal(bad.error?.code, -32602);
    assert.match(bad.error.data.content, /type/);
  });

  it('-32000 sandbox_unauthorized without a key on the MCP request', async () => {
    const keyless = await McpTestClient.connect(`${base}/ucp/mcp`);
    try {
      const { error } = await shopper.mcp(keyless, 'get_order', { meta: shopper.meta(), id: 'sandbox_order_000000000000000000000000' });
      assert.equal(error?.code, -32000);
      assert.equal(error.data.code, 'sandbox_unauthorized');
    } finally {
      await keyless.close();
    }
  });
});
