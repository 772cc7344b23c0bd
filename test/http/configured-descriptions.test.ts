import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { McpTestClient } from '../support/mcp-client.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** Limits and cart currencies other than the defaults (120, 300 and 20 per window; EUR, GBP, USD and CHF). */
const CATALOG_LIMIT = 500;
const CART_LIMIT = 1000;
const KEY_LIMIT = 5;
const SHIPPING_AMOUNTS = { EUR: 990, GBP: 450 };
const DEFAULT_LIMITS = /\b(120|300)\b/;
const CATALOG_OPERATIONS = ['/public/v1/products', '/public/v1/products/{handle}', '/public/v1/changes'];
/** Change feed settings other than the defaults (24 hours; 15 s; 4 and 1000 streams). */
const CHANGE_FEED = { retentionHours: 72, heartbeatSeconds: 25, maxStreamsPerClient: 3, maxStreams: 250 };

describe('descriptions tell the configured limits and currencies, not the defaults', () => {
  let testApp: TestApp;
  let base: string;
  let doc: any;
  before(async () => {
    testApp = await startTestApp({
      config: {
        catalogRateLimit: CATALOG_LIMIT,
        changeFeed: CHANGE_FEED,
        sandbox: { cartRateLimit: CART_LIMIT, keyRateLimit: KEY_LIMIT, shippingAmounts: SHIPPING_AMOUNTS },
      },
    });
    base = await testApp.app.listen({ port: 0, host: '127.0.0.1' });
    doc = (await testApp.app.inject({ url: '/openapi.json' })).json();
  });
  after(() => testApp.close());

  for (const path of CATALOG_OPERATIONS) {
    it(`GET ${path} documents the configured catalog limit in its RateLimit-Limit header`, () => {
      const { responses } = doc.paths[path].get;
      for (const status of ['200', '429']) {
        const description: string = responses[status].headers['RateLimit-Limit'].description;
        assert.match(description, new RegExp(`\\b${CATALOG_LIMIT} requests per client IP per minute\\b`), `${status}: ${description}`);
        assert.doesNotMatch(description, DEFAULT_LIMITS, status);
      }
    });
  }

  it('the change routes tell the configured retention, heartbeat and stream caps', () => {
    const feed: string = doc.paths['/public/v1/changes'].get.description;
    assert.match(feed, /keeps changes for 72 hours/);
    const stream: string = doc.paths['/public/v1/changes/stream'].get.description;
    assert.match(stream, /every 25 seconds/);
    assert.match(stream, /may hold 3 streams at once .* an instance 250 /);
    assert.doesNotMatch(`${feed} ${stream}`, /\b(24 hours|15 seconds|1000)\b/);
  });

  it('/openapi.json describes both MCP servers with the configured catalog and cart limits', () => {
    const discovery: string = doc.paths['/mcp'].post.description;
    const sandbox: string = doc.paths['/mcp/sandbox'].post.description;
    for (const description of [discovery, sandbox]) {
      assert.match(description, new RegExp(`${CATALOG_LIMIT} requests per client IP per minute`));
      assert.doesNotMatch(description, DEFAULT_LIMITS);
    }
    assert.match(sandbox, new RegExp(`${CART_LIMIT} cart calls per key per minute`));
  });

  it('/mcp tells the configured catalog limit in its instructions, and its tools no default limit', async () => {
    const mcp = await McpTestClient.connect(`${base}/mcp`);
    try {
      const instructions = mcp.client.getInstructions() ?? '';
      assert.match(instructions, new RegExp(`${CATALOG_LIMIT} requests per client IP per minute`));
      assert.doesNotMatch(instructions, DEFAULT_LIMITS);
      const { tools } = await mcp.client.listTools();
      for (const tool of tools) assert.doesNotMatch(JSON.stringify(tool), /\b\d+ (requests|calls) per\b/, tool.name);
    } finally {
      await mcp.close();
    }
  });

  it('/mcp/sandbox tells the configured limits and cart currencies in its instructions and tools', async () => {
    const mcp = await McpTestClient.connect(`${base}/mcp/sandbox`);
    try {
      const instructions = mcp.client.getInstructions() ?? '';
      assert.match(instructions, new RegExp(`${CATALOG_LIMIT} requests per client IP per minute`));
      assert.match(instructions, new RegExp(`${CART_LIMIT} cart calls per key per minute`));
      assert.match(instructions, /create_cart \(currency EUR, GBP\b/);
      assert.doesNotMatch(instructions, /\b(USD|CHF)\b/);
      assert.doesNotMatch(instructions, DEFAULT_LIMITS);
    } finally {
      await mcp.close();
    }
  });
});
