import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { withAdmin } from '../support/admin.js';
import { assertProblem } from '../support/catalog-assertions.js';
import { ContractClient } from '../support/contract.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const LIMIT = 3;

/**
 * /admin/openapi.json and /metrics take no token by default, so they count against the
 * catalog window of the client IP; the admin document is prepared once, like /openapi.json.
 */
describe('the admin document and /metrics count against the catalog window', () => {
  let testApp: TestApp;

  before(async () => {
    testApp = await startTestApp(withAdmin({ config: { catalogRateLimit: LIMIT } }));
  });
  after(() => testApp.close());

  const from = (remoteAddress: string, url: string, headers: Record<string, string> = {}) =>
    testApp.app.inject({ method: 'GET', url, remoteAddress, headers });

  it('/admin/openapi.json: the same bytes and ETag every time, 304 for If-None-Match, then 429 RATE_LIMITED with RateLimit headers', async () => {
    const first = await from('10.1.0.1', '/admin/openapi.json');
    assert.equal(first.statusCode, 200);
    const etag = first.headers.etag;
    assert.match(String(etag), /^"[A-Za-z0-9_-]+"$/);
    assert.equal(first.headers['ratelimit-remaining'], String(LIMIT - 1));
    const revalidated = await from('10.1.0.1', '/admin/openapi.json', { 'if-none-match': String(etag) });
    assert.equal(revalidated.statusCode, 304);
    assert.equal(revalidated.body, '');
    const again = await from('10.1.0.1', '/admin/openapi.json');
    assert.equal(again.headers.etag, etag);
    assert.equal(again.body, first.body);
    const limited = await new ContractClient(testApp.app, '/admin/openapi.json').request({ method: 'GET', url: '/admin/openapi.json', remoteAddress: '10.1.0.1' });
    assert.equal(limited.statusCode, 429);
    assert.equal(limited.data.error.code, 'RATE_LIMITED');
    assert.equal(limited.headers['ratelimit-limit'], String(LIMIT));
    assert.equal(limited.headers['ratelimit-remaining'], '0');
    assert.equal(limited.headers['retry-after'], limited.headers['ratelimit-reset']);
  });

  it('/metrics: 200 while the window lasts, then 429 RATE_LIMITED with RateLimit headers', async () => {
    for (let i = 1; i <= LIMIT; i++) {
      const response = await from('10.1.0.2', '/metrics');
      assert.equal(response.statusCode, 200, `request ${i}`);
      assert.equal(response.headers['ratelimit-remaining'], String(LIMIT - i));
    }
    const limited = await testApp.client.request({ method: 'GET', url: '/metrics', remoteAddress: '10.1.0.2' });
    assertProblem(limited, 429, 'RATE_LIMITED');
    assert.equal(limited.headers['retry-after'], limited.headers['ratelimit-reset']);
  });

  it('both documents state the configured limit on these routes', async () => {
    const publicDocument = JSON.parse((await from('10.1.0.3', '/openapi.json')).body);
    assert.match(publicDocument.paths['/metrics'].get.description, new RegExp(`${LIMIT} requests per client IP per minute`));
    const adminDocument = JSON.parse((await from('10.1.0.4', '/admin/openapi.json')).body);
    assert.match(adminDocument.paths['/admin/openapi.json'].get.description, new RegExp(`${LIMIT} requests per client IP per minute`));
  });
});
