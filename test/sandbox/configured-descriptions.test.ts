import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { McpTestClient } from '../support/mcp-client.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** Limits and amounts other than the defaults (300 cart calls, 20 keys, 4.90 EUR, 4.50 GBP, 5.95 USD, 6.90 CHF). */
const CONFIGURED = { cartRateLimit: 1000, keyRateLimit: 5, shippingAmounts: { EUR: 575, GBP: 425 } };
const STATED = ['1000 cart calls per key per minute', '5 keys per client IP per hour', '5.75 EUR, 4.25 GBP'];
const DEFAULTS = ['300 cart calls', '20 keys', '4.90', '4.50 GBP', '5.95 USD', '6.90 CHF', 'GBP, USD', 'USD or CHF'];

describe('sandbox descriptions state the configured limits and shipping amounts', () => {
  let testApp: TestApp;
  let openapi: string;
  let tools: string;
  before(async () => {
    testApp = await startTestApp({ config: { sandbox: CONFIGURED } });
    openapi = (await testApp.app.inject({ method: 'GET', url: '/openapi.json' })).body;
    const mcp = await McpTestClient.connect(`${await testApp.app.listen({ port: 0, host: '127.0.0.1' })}/mcp/sandbox`);
    try {
      // What every cart tool shares (the cart limit) is told once, in the instructions.
      tools = JSON.stringify((await mcp.client.listTools()).tools) + (mcp.client.getInstructions() ?? '');
    } finally {
      await mcp.close();
    }
  });
  after(() => testApp.close());

  test('/openapi.json', () => {
    for (const text of STATED) assert.ok(openapi.includes(text), `/openapi.json lacks "${text}"`);
    assert.match(openapi, /default EUR; EUR, GBP as the catalog sells them/);
    for (const text of DEFAULTS) assert.ok(!openapi.includes(text), `/openapi.json still says "${text}"`);
  });

  test('the /mcp/sandbox tools and instructions', () => {
    for (const text of STATED) assert.ok(tools.includes(text), `tools/list and instructions lack "${text}"`);
    assert.match(tools, /default EUR; EUR, GBP as the catalog sells them/);
    for (const text of DEFAULTS) assert.ok(!tools.includes(text), `tools/list or instructions still say "${text}"`);
  });
});
