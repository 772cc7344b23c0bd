import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { McpTestClient } from '../support/mcp-client.js';
import { assertSandboxError, SANDBOX_PRODUCTS, VALID_ADDRESS } from '../support/sandbox.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** REST and MCP refuse the same bad input in the same words, naming the field and what it accepts. */
describe('sandbox validation messages, REST as on MCP', () => {
  let sandbox: TestApp;
  let token: string;
  let cartId: string;
  let mcp: McpTestClient;

  before(async () => {
    sandbox = await startTestApp({ catalog: SANDBOX_PRODUCTS });
    token = await sandbox.newKey();
    cartId = (await sandbox.newCart(token)).id;
    mcp = await McpTestClient.connect(`${await sandbox.app.listen({ port: 0, host: '127.0.0.1' })}/mcp/sandbox`, { token });
  });
  after(async () => {
    await mcp.close();
    await sandbox.close();
  });

  const cases: { name: string; suffix: string; body: object; tool: string; args: () => Record<string, unknown>; sentence: string }[] = [
    {
      name: 'a quantity out of bounds',
      suffix: '/items',
      body: { variant_id: 'x', quantity: 100 },
      tool: 'add_to_cart',
      args: () => ({ cart_id: cartId, variant_id: 'x', quantity: 100 }),
      sentence: 'quantity must be an integer from 1 to 99',
    },
    {
      name: 'a missing quantity',
      suffix: '/items',
      body: { variant_id: 'x' },
      tool: 'add_to_cart',
      args: () => ({ cart_id: cartId, variant_id: 'x' }),
      sentence: 'quantity is required and must be an integer from 1 to 99',
    },
    {
      name: 'an unknown shipping option',
      suffix: '/shipping-option',
      body: { shipping_option_id: 'express' },
      tool: 'select_shipping_option',
      args: () => ({ cart_id: cartId, shipping_option_id: 'express' }),
      sentence: 'shipping_option_id must be sandbox_standard',
    },
    {
      name: 'an extra address field',
      suffix: '/shipping-address',
      body: { ...VALID_ADDRESS, fax: '1' },
      tool: 'set_shipping_address',
      args: () => ({ cart_id: cartId, address: { ...VALID_ADDRESS, fax: '1' } }),
      sentence: 'fax is not accepted (accepted: name, line_one, line_two, city, state, country, postal_code, phone_number)',
    },
  ];

  for (const { name, suffix, body, tool, args, sentence } of cases) {
    test(name, async () => {
      const rest = await sandbox.call(token, 'POST', `/sandbox/v1/carts/${cartId}${suffix}`, body);
      assertSandboxError(rest, 400, 'sandbox_invalid_request');
      assert.equal(rest.data.message, sentence);
      const viaMcp = await mcp.call(tool, args());
      assert.equal(viaMcp.data.error, 'sandbox_invalid_request');
      assert.match(viaMcp.data.message, new RegExp(sentence.replace(/[()]/g, '\\$&')));
    });
  }

  test('headers and query parameters are named as such', async () => {
    const noKey = await sandbox.call(token, 'POST', '/sandbox/v1/carts', {});
    assert.equal(noKey.data.message, 'header idempotency-key is required and must be a string from 1 to 255 characters');
    const noVariant = await sandbox.call(token, 'DELETE', `/sandbox/v1/carts/${cartId}/items`);
    assert.equal(noVariant.data.message, 'query parameter variant_id is required and must be a string from 1 to 128 characters');
    const scenario = await sandbox.call(token, 'GET', `/sandbox/v1/carts/${cartId}`, undefined, { 'sandbox-scenario': 'flood' });
    assert.equal(scenario.data.message, 'header sandbox-scenario must be one of unavailable, rate_limited, out_of_stock, price_changed');
  });
});
