import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertSandboxError, SANDBOX_PRODUCTS } from '../support/sandbox.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

describe('cart route rate limit', () => {
  let sandbox: TestApp;
  before(async () => {
    sandbox = await startTestApp({ catalog: SANDBOX_PRODUCTS, config: { sandbox: { cartRateLimit: 3 } } });
  });
  after(() => sandbox.close());

  test('counted per key across all cart routes, with RateLimit headers on every answer, then 429 sandbox_rate_limited', async () => {
    const token = await sandbox.newKey();
    const cart = await sandbox.newCart(token);
    assert.equal((await sandbox.call(token, 'GET', `/sandbox/v1/carts/${cart.id}`)).headers['ratelimit-remaining'], '1');
    // A 404 after authentication is counted and carries the headers too.
    const missing = await sandbox.call(token, 'GET', `/sandbox/v1/carts/sandbox_cart_${'0'.repeat(24)}`);
    assertSandboxError(missing, 404, 'sandbox_not_found');
    assert.equal(missing.headers['ratelimit-limit'], '3');
    assert.equal(missing.headers['ratelimit-remaining'], '0');

    const refused = await sandbox.call(token, 'GET', `/sandbox/v1/carts/${cart.id}/shipping-options`);
    assertSandboxError(refused, 429, 'sandbox_rate_limited');
    assert.equal(refused.headers['ratelimit-remaining'], '0');
    const retryAfter = Number(refused.headers['retry-after']);
    assert.ok(retryAfter > 0 && retryAfter <= 60, `Retry-After ${retryAfter}`);
    assert.equal(refused.headers['ratelimit-reset'], refused.headers['retry-after']);
    assert.equal(refused.data.retry_after, retryAfter);
  });

  test('another key from the same client has its own allowance', async () => {
    const token = await sandbox.newKey();
    const response = await sandbox.call(token, 'POST', '/sandbox/v1/carts', {}, { 'idempotency-key': 'own' });
    assert.equal(response.statusCode, 201);
    assert.equal(response.headers['ratelimit-remaining'], '2');
  });

  test('requests without a valid key are refused before counting', async () => {
    const response = await sandbox.call(undefined, 'GET', `/sandbox/v1/carts/sandbox_cart_${'0'.repeat(24)}`);
    assertSandboxError(response, 401, 'sandbox_unauthorized');
    assert.equal(response.headers['ratelimit-limit'], undefined);
  });
});
