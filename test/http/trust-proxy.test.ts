import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestApp } from '../support/test-app.js';

/**
 * The client address decides the catalog rate-limit window (docs/decisions.md, Rate limit), so the
 * remaining count shows which address the service believed.
 */
const LIST = '/public/v1/products?limit=1';
const LOAD_BALANCER = '10.1.2.3';

describe('client address without TRUST_PROXY: the socket address, whatever X-Forwarded-For says', () => {
  const shared = useTestApp({ config: { catalogRateLimit: 3 } });

  it('counts every request from one socket address in one window, so a forged X-Forwarded-For gains nothing', async () => {
    const remaining: string[] = [];
    for (const forged of ['198.51.100.1', '198.51.100.2', '198.51.100.3']) {
      const response = await shared.client.request({ method: 'GET', url: LIST, remoteAddress: '203.0.113.10', headers: { 'x-forwarded-for': forged } });
      remaining.push(String(response.headers['ratelimit-remaining']));
    }
    assert.deepEqual(remaining, ['2', '1', '0']);
    const limited = await shared.client.request({ method: 'GET', url: LIST, remoteAddress: '203.0.113.10', headers: { 'x-forwarded-for': '198.51.100.4' } });
    assert.equal(limited.statusCode, 429);
  });
});

describe('client address with TRUST_PROXY set to the load balancer network', () => {
  const shared = useTestApp({ config: { catalogRateLimit: 3, trustProxy: ['10.0.0.0/8'] } });

  const viaLoadBalancer = (forwardedFor: string) =>
    shared.client.request({ method: 'GET', url: LIST, remoteAddress: LOAD_BALANCER, headers: { 'x-forwarded-for': forwardedFor } });

  it('gives each client behind the load balancer its own window', async () => {
    assert.equal((await viaLoadBalancer('198.51.100.20')).headers['ratelimit-remaining'], '2');
    assert.equal((await viaLoadBalancer('198.51.100.20')).headers['ratelimit-remaining'], '1');
    assert.equal((await viaLoadBalancer('198.51.100.21')).headers['ratelimit-remaining'], '2');
  });

  it('takes the address the load balancer appended, not the ones the client wrote before it', async () => {
    for (const forged of ['192.0.2.1', '192.0.2.2', '192.0.2.3']) {
      await viaLoadBalancer(`${forged}, 198.51.100.30`);
    }
    assert.equal((await viaLoadBalancer('192.0.2.4, 198.51.100.30')).statusCode, 429);
  });

  it('ignores X-Forwarded-For from a sender outside the trusted network', async () => {
    const direct = (forwardedFor: string) =>
      shared.client.request({ method: 'GET', url: LIST, remoteAddress: '203.0.113.40', headers: { 'x-forwarded-for': forwardedFor } });
    for (const forged of ['198.51.100.41', '198.51.100.42', '198.51.100.43']) await direct(forged);
    assert.equal((await direct('198.51.100.44')).statusCode, 429);
  });
});
