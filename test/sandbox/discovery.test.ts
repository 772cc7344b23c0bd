import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SCENARIO_LIST } from '../../src/sandbox/scenarios.js';
import { cartRoutes } from '../support/cart-routes.js';
import { assertSandboxError, SANDBOX_PRODUCTS } from '../support/sandbox.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

describe('GET /sandbox/v1', () => {
  let sandbox: TestApp;
  before(async () => {
    sandbox = await startTestApp({ catalog: SANDBOX_PRODUCTS, config: { publicBaseUrl: 'https://shop.example', sandbox: { keyRateLimit: 20 } } });
  });
  after(() => sandbox.close());

  test('200 describes the sandbox, how to get a key and the shared public key, with absolute URLs', async () => {
    const response = await sandbox.client.get('/sandbox/v1');
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.data, {
      environment: 'sandbox',
      status: 'available',
      simulated: true,
      free: true,
      key_issuance: {
        endpoint: 'https://shop.example/sandbox/v1/keys',
        method: 'POST',
        lifetime_seconds: 86400,
        default_scopes: ['catalog:read', 'cart:write', 'checkout:create'],
        rate_limit: { limit: 20, window_seconds: 3600, per: 'client_ip' },
        public_key: { access_token: 'sbx_test_public_catalog_read', scopes: ['catalog:read'] },
      },
      available_scopes: ['catalog:read', 'cart:write', 'checkout:create'],
      openapi_url: 'https://shop.example/openapi.json',
      mcp_url: 'https://shop.example/mcp/sandbox',
      scenarios: SCENARIO_LIST,
    });
  });
});

describe('sandbox disabled', () => {
  let sandbox: TestApp;
  before(async () => {
    sandbox = await startTestApp({ catalog: SANDBOX_PRODUCTS, config: { sandbox: { enabled: false } } });
  });
  after(() => sandbox.close());

  test('503 sandbox_disabled on discovery and key issuance', async () => {
    assertSandboxError(await sandbox.client.get('/sandbox/v1'), 503, 'sandbox_disabled');
    assertSandboxError(await sandbox.client.request({ method: 'POST', url: '/sandbox/v1/keys' }), 503, 'sandbox_disabled');
  });

  test('503 sandbox_disabled on every cart route, before authentication', async () => {
    const token = `sbx_test_${'A'.repeat(43)}`;
    for (const route of cartRoutes(`sandbox_cart_${'0'.repeat(24)}`, 'variant_x')) {
      const response = await sandbox.client.request({
        method: route.method,
        url: route.url,
        headers: { ...route.headers, authorization: `Bearer ${token}` },
        ...(route.payload !== undefined && { payload: route.payload as object }),
      });
      assertSandboxError(response, 503, 'sandbox_disabled');
    }
  });

  test('the catalog keeps working', async () => {
    assert.equal((await sandbox.client.get('/public/v1/products')).statusCode, 200);
  });
});
