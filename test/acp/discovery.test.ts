import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminClient, withAdmin } from '../support/admin.js';
import { acpValidator, assertAcpValid } from '../support/acp-validator.js';
import { product } from '../support/catalog-builder.js';
import { listeningPort, rawExchange } from '../support/raw-http.js';
import { startTestApp, useTestApp, type TestApp } from '../support/test-app.js';

const release = acpValidator();
const BASE = 'https://shop.example.com';
const URL = '/.well-known/acp.json';

describe('GET /.well-known/acp.json, the ACP discovery document', () => {
  const testApp = useTestApp(
    // The catalog's markets (REGIONS) sell in EUR, GBP, USD and JPY; the sandbox ships in EUR, GBP and CHF.
    withAdmin({ catalog: [product('olive-oil')], config: { publicBaseUrl: BASE, sandbox: { shippingAmounts: { EUR: 490, GBP: 450, CHF: 690 } } } }),
  );

  it("validates against the release's DiscoveryResponse", { skip: release.skip }, async () => {
    const response = await testApp.client.get(URL);
    assert.equal(response.statusCode, 200, response.body);
    assertAcpValid(release.validator!, 'schema.agentic_checkout.json', 'DiscoveryResponse', response.data, 'the discovery document');
  });

  it('is keyless and declares this release, REST under PUBLIC_BASE_URL and MCP, checkout, orders, delegated payment and carts, the currencies and locales served', async () => {
    const response = await testApp.app.inject({ url: URL });
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers['content-type'], 'application/json; charset=utf-8');
    assert.deepEqual(response.json(), {
      protocol: { name: 'acp', version: '2026-04-17', supported_versions: ['2026-04-17'] },
      api_base_url: `${BASE}/acp`,
      transports: ['rest', 'mcp'],
      capabilities: { services: ['checkout', 'orders', 'delegate_payment', 'carts'], supported_currencies: ['eur', 'gbp'], supported_locales: ['en', 'it'] },
    });
  });

  it("names a base URL the release's paths of each service declared are served under", async () => {
    const { api_base_url: base } = (await testApp.client.get(URL)).data;
    const served = Object.keys((await testApp.client.get('/openapi.json')).data.paths);
    const at = (path: string) => `${base}${path}`.slice(BASE.length);
    for (const path of ['/checkout_sessions', '/checkout_sessions/{checkout_session_id}/complete', '/carts', '/carts/{id}', '/carts/{id}/cancel', '/agentic_commerce/delegate_payment']) {
      assert.ok(served.includes(at(path)), at(path));
    }
  });

  it('is cacheable as the RFC asks: public, max-age of at least an hour, an ETag answering 304', async () => {
    const response = await testApp.client.get(URL);
    const cacheControl = String(response.headers['cache-control']);
    assert.match(cacheControl, /\bpublic\b/);
    assert.ok(Number(/max-age=(\d+)/.exec(cacheControl)?.[1]) >= 3600, cacheControl);
    const etag = String(response.headers.etag);
    const revalidated = await testApp.app.inject({ url: URL, headers: { 'if-none-match': etag } });
    assert.equal(revalidated.statusCode, 304);
    assert.equal(revalidated.body, '');
    assert.equal(revalidated.headers['cache-control'], cacheControl);
    assert.equal((await testApp.client.get(URL, { 'if-none-match': '"other"' })).statusCode, 200);
  });

  it('follows the live catalog: a market in a currency the sandbox ships in adds it, and the ETag changes', async () => {
    const before = await testApp.client.get(URL);
    const created = await adminClient(testApp)('PUT', '/admin/v1/regions/reg_ch', { name: 'Switzerland', currency: 'CHF', countries: ['CH'] });
    assert.equal(created.statusCode, 201, created.body);
    const after = await testApp.client.get(URL);
    assert.deepEqual(after.data.capabilities.supported_currencies, ['chf', 'eur', 'gbp']);
    assert.notEqual(after.headers.etag, before.headers.etag);
  });

  it('is in /openapi.json under the ACP tag, keyless', async () => {
    const operation = (await testApp.client.get('/openapi.json')).data.paths[URL].get;
    assert.equal(operation.operationId, 'getAcpDiscovery');
    assert.deepEqual(operation.tags, ['ACP']);
    assert.deepEqual(operation.security, []);
  });
});

describe('the ACP discovery document counts against the catalog rate limit', () => {
  const testApp = useTestApp({ config: { catalogRateLimit: 2 } });

  it('shares the window with /public/v1 and answers 429 rate_limited in the ACP error object past it, with Retry-After', async () => {
    assert.equal((await testApp.client.get('/public/v1/products')).statusCode, 200);
    const counted = await testApp.client.get(URL);
    assert.equal(counted.statusCode, 200);
    assert.equal(counted.headers['ratelimit-remaining'], '0');
    const refused = await testApp.client.get(URL);
    assert.equal(refused.statusCode, 429);
    assert.deepEqual({ type: refused.data.type, code: refused.data.code }, { type: 'invalid_request', code: 'rate_limited' });
    assert.ok(Number(refused.headers['retry-after']) >= 1);
    assert.equal(refused.headers['cache-control'], 'no-store');
  });
});

describe('the ACP discovery document, asked ambiguously on a real port', () => {
  let testApp: TestApp;
  let port: number;
  before(async () => {
    testApp = await startTestApp();
    port = await listeningPort(testApp.app);
  });
  after(() => testApp.close());

  it('400 invalid_request in the ACP error object for two Host headers', { skip: release.skip }, async () => {
    const response = await rawExchange(port, `GET ${URL} HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n`);
    assert.equal(response.status, 400, response.text);
    const body = JSON.parse(response.body);
    assert.deepEqual({ type: body.type, code: body.code }, { type: 'invalid_request', code: 'invalid_request' });
    assert.equal(response.headers['cache-control'], 'no-store');
    assertAcpValid(release.validator!, 'schema.agentic_checkout.json', 'Error', body, 'the 400');
  });
});
