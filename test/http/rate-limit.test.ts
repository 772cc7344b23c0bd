import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertProblem } from '../support/catalog-assertions.js';
import type { CheckedResponse, ContractClient } from '../support/contract.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const LIST = '/public/v1/products?limit=1';
const DETAIL = '/public/v1/products/caffe-espresso-blend';

const header = (response: CheckedResponse, name: string) => response.headers[name.toLowerCase()];

function assertRateLimitHeaders(response: CheckedResponse, remaining: number): void {
  assert.equal(header(response, 'RateLimit-Limit'), '120');
  assert.equal(header(response, 'RateLimit-Remaining'), String(remaining));
  const reset = String(header(response, 'RateLimit-Reset'));
  assert.match(reset, /^\d+$/);
  assert.ok(Number(reset) >= 1 && Number(reset) <= 60, `RateLimit-Reset ${reset} is not 1..60`);
}

describe('catalog rate limit: 120 per client IP per minute (docs/decisions.md, Rate limit)', () => {
  let testApp: TestApp;
  let client: ContractClient;

  before(async () => {
    testApp = await startTestApp({ config: { catalogRateLimit: 120 } });
    client = testApp.client;
  });
  after(() => testApp.close());

  const from = (remoteAddress: string, url: string) => client.request({ method: 'GET', url, remoteAddress });

  it('200 for requests 1..120 with RateLimit headers counting down, then 429 RATE_LIMITED with Retry-After equal to RateLimit-Reset', async () => {
    for (let i = 1; i <= 120; i++) {
      const response = await from('10.0.0.1', LIST);
      assert.equal(response.statusCode, 200, `request ${i}`);
      assertRateLimitHeaders(response, 120 - i);
    }
    const limited = await from('10.0.0.1', LIST);
    assertProblem(limited, 429, 'RATE_LIMITED');
    assertRateLimitHeaders(limited, 0);
    assert.equal(header(limited, 'Retry-After'), header(limited, 'RateLimit-Reset'));
  });

  it('429 RATE_LIMITED on the detail route too once list and detail together used the window', async () => {
    for (let i = 1; i <= 120; i++) {
      const response = await from('10.0.0.2', i % 2 === 0 ? LIST : DETAIL);
      assert.equal(response.statusCode, 200, `request ${i}`);
      assertRateLimitHeaders(response, 120 - i);
    }
    assertProblem(await from('10.0.0.2', DETAIL), 429, 'RATE_LIMITED');
    assertProblem(await from('10.0.0.2', LIST), 429, 'RATE_LIMITED');
  });

  it('200 for a different client IP while another one is limited', async () => {
    for (let i = 1; i <= 121; i++) await from('10.0.0.3', LIST);
    assert.equal((await from('10.0.0.3', LIST)).statusCode, 429);
    const other = await from('10.0.0.4', LIST);
    assert.equal(other.statusCode, 200);
    assertRateLimitHeaders(other, 119);
  });

  it('400 answers count against the window and carry the RateLimit headers', async () => {
    const response = await from('10.0.0.5', '/public/v1/products?limit=0');
    assertProblem(response, 400, 'INVALID_QUERY');
    assertRateLimitHeaders(response, 119);
    assertRateLimitHeaders(await from('10.0.0.5', LIST), 118);
  });
});

describe('catalog rate limit switched off (catalogRateLimit 0)', () => {
  let testApp: TestApp;
  let client: ContractClient;

  before(async () => {
    testApp = await startTestApp({ config: { catalogRateLimit: 0 } });
    client = testApp.client;
  });
  after(() => testApp.close());

  for (const url of [LIST, DETAIL]) {
    it(`200 without RateLimit headers on ${url.split('?')[0]}`, async () => {
      for (let i = 0; i < 130; i++) {
        const response = await client.get(url);
        assert.equal(response.statusCode, 200);
        for (const name of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'retry-after']) {
          assert.equal(response.headers[name], undefined, name);
        }
      }
    });
  }
});

describe('trusted storefront servers (CATALOG_TRUSTED_CLIENTS): a window of their own, with a higher limit', () => {
  let testApp: TestApp;
  before(async () => {
    testApp = await startTestApp({
      config: { catalogRateLimit: 2, trustedCatalogClients: ['10.20.0.0/16', '192.0.2.7'], trustedCatalogRateLimit: 5 },
    });
  });
  after(() => testApp.close());

  const from = (remoteAddress: string) => testApp.client.request({ method: 'GET', url: LIST, remoteAddress });
  const statuses = async (remoteAddress: string, count: number) => {
    const answers: number[] = [];
    for (let i = 0; i < count; i++) answers.push((await from(remoteAddress)).statusCode);
    return answers;
  };

  it('gives each trusted address the trusted limit, in its own window', async () => {
    assert.deepEqual(await statuses('10.20.3.4', 6), [200, 200, 200, 200, 200, 429]);
    assert.equal((await from('10.20.3.5')).headers['ratelimit-limit'], '5', 'another address of the range counts on its own');
    assert.deepEqual(await statuses('::ffff:192.0.2.7', 5), [200, 200, 200, 200, 200], 'an IPv4-mapped address is the same client');
  });

  it('keeps everyone else on the public limit', async () => {
    assert.deepEqual(await statuses('10.21.0.1', 3), [200, 200, 429]);
    assert.equal((await from('192.0.2.8')).headers['ratelimit-limit'], '2');
  });

  it('says both limits in the contract', async () => {
    const document = JSON.stringify((await testApp.app.inject({ url: '/openapi.json' })).json());
    assert.match(document, /the catalog limit is 2 requests per client IP per minute; 5 per minute for each storefront server this deployment trusts/);
  });
});

describe('each rate limit keeps its own counters in memory (no Redis)', () => {
  let testApp: TestApp;
  before(async () => {
    testApp = await startTestApp({ config: { catalogRateLimit: 120, sandbox: { keyRateLimit: 2 } } });
  });
  after(() => testApp.close());

  it('thousands of catalog clients within the minute do not evict a client IP’s hour of key issuance', async () => {
    const issue = () => testApp.app.inject({ method: 'POST', url: '/sandbox/v1/keys', remoteAddress: '10.9.9.9' });
    assert.equal((await issue()).statusCode, 201);
    assert.equal((await issue()).statusCode, 201);
    // More distinct catalog clients than one in-memory store tracks (5,000).
    for (let i = 0; i < 5_100; i++) {
      const response = await testApp.app.inject({ url: LIST, remoteAddress: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` });
      assert.equal(response.statusCode, 200);
    }
    assert.equal((await issue()).statusCode, 429, 'the key window still holds its two keys');
  });
});
