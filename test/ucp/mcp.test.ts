import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { McpTestClient } from '../support/mcp-client.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { testUcpOperations } from '../support/ucp-operations.js';
import { platformCapability, platformProfile, ucpTestConfig, usePlatformServer } from '../support/ucp-platform.js';
import { assertValid, ucpValidator } from '../support/ucp-validator.js';

const { validator, skip } = await ucpValidator();
const STOREFRONT = 'https://shop.example.com';

const meta = (profile: string, extra: object = {}) => ({ 'ucp-agent': { profile }, ...extra });

describe('POST /ucp/mcp: the MCP binding', () => {
  const platform = usePlatformServer();
  let testApp: TestApp;
  let base: string;
  before(async () => {
    testApp = await startTestApp({ config: { storefrontUrl: STOREFRONT, ucp: ucpTestConfig() }, ucpOperations: testUcpOperations });
    base = await testApp.app.listen({ port: 0, host: '127.0.0.1' });
    platform.serve('/good.json', { body: platformProfile({ webhookUrl: 'https://platform.example/orders' }) });
    platform.serve('/old.json', { body: platformProfile({ version: '2026-01-23' }) });
    platform.serve('/checkout-only.json', { body: platformProfile({ capabilities: { 'dev.ucp.shopping.checkout': [platformCapability('dev.ucp.shopping.checkout')] } }) });
    platform.serve('/broken.json', { raw: 'not json' });
  });
  after(() => testApp.close());

  for (const pinCurrent of [false, true]) {
    describe(pinCurrent ? 'client pinned to 2026-07-28' : 'client on 2025-11-25 (SDK default)', () => {
      let mcp: McpTestClient;
      before(async () => {
        mcp = await McpTestClient.connect(`${base}/ucp/mcp`, { pinCurrent });
      });
      after(() => mcp.close());

      it('lists one tool per operation, taking meta, id where the operation acts on a resource, and its payload', async () => {
        const { tools } = await mcp.client.listTools();
        // The release's tools are listed beside them (test/ucp/catalog-mcp.test.ts...).
        assert.deepEqual(tools.map((tool) => tool.name).filter((name) => name.startsWith('test_')).sort(), ['test_note_cart', 'test_open_checkout', 'test_pay_checkout']);
        const note = tools.find((tool) => tool.name === 'test_note_cart')!;
        assert.deepEqual(note.inputSchema.required, ['meta', 'id', 'cart']);
        assert.equal(note.annotations?.readOnlyHint, true);
        assert.equal(tools.find((tool) => tool.name === 'test_open_checkout')!.annotations?.readOnlyHint, false);
      });

      it('a negotiated call answers structuredContent with its ucp field, and the same JSON as text', async () => {
        const { result } = await mcp.callOrError('test_note_cart', { meta: meta(platform.url('/good.json')), id: 'cart_1', cart: { note: 'hi' } });
        assert.ok(result && !result.isError, JSON.stringify(result));
        assert.deepEqual(result.structuredContent.ucp.capabilities, {
          'dev.ucp.shopping.cart': [{ version: '2026-04-08' }],
          'dev.ucp.shopping.discount': [{ version: '2026-04-08' }],
        });
        assert.equal(result.structuredContent.note, 'hi');
        assert.equal(result.structuredContent.order_webhook_url, 'https://platform.example/orders');
        assert.deepEqual(JSON.parse(result.content[0].text), result.structuredContent);
      });

      it('a checkout answer carries the payment handlers', async () => {
        const { result } = await mcp.callOrError('test_open_checkout', { meta: meta(platform.url('/good.json')) });
        assert.equal(result.structuredContent.id, 'checkout_1');
        assert.ok(result.structuredContent.ucp.payment_handlers['dev.vetrina.sandbox_payment']);
      });

      it('business outcomes are results: not_found, capabilities_incompatible', { skip }, async () => {
        for (const [args, code] of [
          [{ meta: meta(platform.url('/good.json')), id: 'missing', cart: { note: 'x' } }, 'not_found'],
          [{ meta: meta(platform.url('/checkout-only.json')), id: 'cart_1', cart: { note: 'x' } }, 'capabilities_incompatible'],
        ] as const) {
          const { result } = await mcp.callOrError('test_note_cart', args);
          assert.ok(result, code);
          assert.equal(result.structuredContent.ucp.status, 'error');
          assert.equal(result.structuredContent.messages[0].code, code);
          assertValid(validator!.validateSchema('https://ucp.dev/schemas/shopping/types/error_response.json', result.structuredContent), code);
        }
      });

      it('negotiation failures are JSON-RPC errors -32001 with the REST body in data', { skip }, async () => {
        const cases = [
          [{}, 'invalid_profile_url', 'UCP discovery failed'],
          [{ meta: {} }, 'invalid_profile_url', 'UCP discovery failed'],
          [{ meta: meta('ftp://platform.example/p.json') }, 'invalid_profile_url', 'UCP discovery failed'],
          [{ meta: meta(platform.url('/missing.json')) }, 'profile_unreachable', 'UCP discovery failed'],
          [{ meta: meta(platform.url('/broken.json')) }, 'profile_malformed', 'UCP discovery failed'],
          [{ meta: meta(platform.url('/old.json')) }, 'version_unsupported', 'Protocol version not supported'],
        ] as const;
        for (const [args, code, message] of cases) {
          const { error } = await mcp.callOrError('test_note_cart', { id: 'cart_1', cart: { note: 'x' }, ...args });
          assert.ok(error, code);
          assert.equal(error.code, -32001, code);
          assert.match(error.message, new RegExp(message));
          assert.equal(error.data.code, code);
          assert.equal(error.data.continue_url, STOREFRONT);
          assertValid(validator!.validateMcpError({ code: error.code, message: error.message, data: error.data }), code);
        }
      });

      it('arguments that do not match the tool are -32602 invalid_request, after negotiation', async () => {
        const { error } = await mcp.callOrError('test_note_cart', { meta: meta(platform.url('/good.json')), id: 'cart_1', cart: { note: 'x'.repeat(21) } });
        assert.equal(error?.code, -32602);
        assert.equal(error.data.code, 'invalid_request');
        assert.match(error.data.content, /note/);
      });

      it('an unknown tool is -32602', async () => {
        const { error } = await mcp.callOrError('no_such_tool', { meta: meta(platform.url('/good.json')) });
        assert.equal(error?.code, -32602);
      });
    });
  }
});
