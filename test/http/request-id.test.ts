import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UUID, assertProblem } from '../support/catalog-assertions.js';
import { useTestApp } from '../support/test-app.js';

const INCOMING = '6f1c2d3e-4a5b-4c6d-8e7f-901234567890';

const ERRORS: [string, number, string][] = [
  ['/public/v1/products?country=JP', 400, 'REGION_NOT_FOUND'],
  ['/public/v1/products?limit=21', 400, 'INVALID_QUERY'],
  ['/public/v1/products/Not-A-Handle', 400, 'INVALID_HANDLE'],
  ['/public/v1/products/no-such-product', 404, 'PRODUCT_NOT_FOUND'],
];

describe('request ids on catalog responses, behind a trusted proxy', () => {
  // Injected requests come from 127.0.0.1: here, the proxy TRUST_PROXY names.
  const shared = useTestApp({ config: { trustProxy: ['127.0.0.1'] } });

  for (const path of ['/public/v1/products', '/public/v1/products/caffe-espresso-blend']) {
    it(`200 on ${path} has a UUID request_id equal to X-Request-Id`, async () => {
      const response = await shared.client.get(path);
      assert.equal(response.statusCode, 200);
      assert.match(response.data.request_id, UUID);
      assert.equal(response.headers['x-request-id'], response.data.request_id);
    });

    it(`200 on ${path} echoes an incoming UUID X-Request-Id`, async () => {
      const response = await shared.client.get(path, { 'x-request-id': INCOMING });
      assert.equal(response.headers['x-request-id'], INCOMING);
      assert.equal(response.data.request_id, INCOMING);
    });
  }

  for (const [path, status, code] of ERRORS) {
    it(`${status} ${code} echoes an incoming UUID X-Request-Id in header and body`, async () => {
      const response = await shared.client.get(path, { 'x-request-id': INCOMING });
      assertProblem(response, status, code);
      assert.equal(response.data.request_id, INCOMING);
    });
  }

  for (const incoming of ['not-a-uuid', `${INCOMING}-x`, `${INCOMING}\u0000`, '', "'; DROP TABLE products; --"]) {
    it(`404 PRODUCT_NOT_FOUND replaces the invalid X-Request-Id ${JSON.stringify(incoming)} with a fresh UUID`, async () => {
      const response = await shared.client.get('/public/v1/products/no-such-product', { 'x-request-id': incoming });
      assertProblem(response, 404, 'PRODUCT_NOT_FOUND');
      assert.notEqual(response.data.request_id, INCOMING);
    });
  }

  it('200 gives every request its own id', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++) ids.add((await shared.client.get('/public/v1/products?limit=1')).data.request_id);
    assert.equal(ids.size, 5);
  });
});

describe('request ids from clients that are not a trusted proxy', () => {
  const direct = useTestApp();
  const behindProxy = useTestApp({ config: { trustProxy: ['10.0.0.0/8'] } });

  it('200 with a fresh UUID instead of a client\'s X-Request-Id when TRUST_PROXY is unset', async () => {
    const response = await direct.client.get('/public/v1/products?limit=1', { 'x-request-id': INCOMING });
    assert.match(response.data.request_id, UUID);
    assert.notEqual(response.data.request_id, INCOMING);
    assert.equal(response.headers['x-request-id'], response.data.request_id);
  });

  it('200 with a fresh UUID for a client reaching the instance directly, and the id kept from the proxy', async () => {
    const from = (remoteAddress: string) =>
      behindProxy.client.request({ method: 'GET', url: '/public/v1/products?limit=1', remoteAddress, headers: { 'x-request-id': INCOMING } });
    assert.notEqual((await from('192.0.2.7')).data.request_id, INCOMING);
    assert.equal((await from('10.1.2.3')).data.request_id, INCOMING);
  });
});
