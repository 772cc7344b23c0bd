import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SANDBOX_PRODUCTS, VALID_ADDRESS } from '../support/sandbox.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** Sandbox answers hold shipping addresses and keys: none may be cached, whatever the outcome. */
describe('Cache-Control: no-store on every sandbox answer', () => {
  let sandbox: TestApp;
  let token: string;
  before(async () => {
    sandbox = await startTestApp({ catalog: SANDBOX_PRODUCTS, config: { sandbox: { keyRateLimit: 2, cartRateLimit: 1000 } } });
    token = await sandbox.newKey();
  });
  after(() => sandbox.close());

  test('successes, errors, unknown routes, malformed paths and 429s', async () => {
    const cart = await sandbox.newCart(token);
    const oil = await sandbox.variantId('OIL');
    const auth = { authorization: `Bearer ${token}` };
    const answers: [string, { method: string; url: string; headers?: Record<string, string>; payload?: object }][] = [
      ['discovery', { method: 'GET', url: '/sandbox/v1' }],
      ['a cart', { method: 'GET', url: `/sandbox/v1/carts/${cart.id}`, headers: auth }],
      ['a cart with an address', { method: 'POST', url: `/sandbox/v1/carts/${cart.id}/shipping-address`, headers: auth, payload: VALID_ADDRESS }],
      ['an added item', { method: 'POST', url: `/sandbox/v1/carts/${cart.id}/items`, headers: auth, payload: { variant_id: oil, quantity: 1 } }],
      ['a checkout 422', { method: 'POST', url: `/sandbox/v1/carts/${cart.id}/checkout`, headers: { ...auth, 'idempotency-key': 'c' } }],
      ['a 401', { method: 'GET', url: `/sandbox/v1/carts/${cart.id}` }],
      ['a 404 cart', { method: 'GET', url: '/sandbox/v1/carts/sandbox_cart_000000000000000000000000', headers: auth }],
      ['a 400 body', { method: 'POST', url: `/sandbox/v1/carts/${cart.id}/items`, headers: auth, payload: { quantity: 'x' } }],
      ['an unknown route', { method: 'GET', url: '/sandbox/v1/nothing-here' }],
      ['a malformed path', { method: 'GET', url: '/sandbox/v1/carts/%zz' }],
      ['a key', { method: 'POST', url: '/sandbox/v1/keys' }],
      ['a 429', { method: 'POST', url: '/sandbox/v1/keys' }],
    ];
    const statuses: number[] = [];
    for (const [what, request] of answers) {
      const response = await sandbox.app.inject(request);
      statuses.push(response.statusCode);
      assert.equal(response.headers['cache-control'], 'no-store', `${what}: ${response.statusCode} ${response.body}`);
    }
    // Every kind of outcome above was really produced.
    assert.deepEqual(statuses, [200, 200, 200, 201, 422, 401, 404, 400, 404, 400, 201, 429]);
  });
});
