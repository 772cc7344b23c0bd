import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ALL_SCOPES, cartRoutes, type CartRouteCase } from '../support/cart-routes.js';
import { assertSandboxError, SANDBOX_PRODUCTS } from '../support/sandbox.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** The routes' shapes, for naming the tests; the real cart and variant ids exist only once the app runs. */
const ROUTE_SHAPES = cartRoutes('placeholder', 'placeholder');

describe('sandbox authentication, scopes and ownership on every cart route', () => {
  let sandbox: TestApp;
  let owner: string;
  let stranger: string;
  let routes: CartRouteCase[];

  before(async () => {
    sandbox = await startTestApp({ catalog: SANDBOX_PRODUCTS });
    owner = await sandbox.newKey();
    stranger = await sandbox.newKey();
    const cart = await sandbox.newCart(owner);
    routes = cartRoutes(cart.id, await sandbox.variantId('OIL'));
  });
  after(() => sandbox.close());

  const send = (route: CartRouteCase, authorization?: string) =>
    sandbox.client.request({
      method: route.method,
      url: route.url,
      headers: { ...route.headers, ...(authorization !== undefined && { authorization }) },
      ...(route.payload !== undefined && { payload: route.payload as object }),
    });
  const routeNamed = (name: string) => routes.find((route) => route.name === name)!;

  for (const { name, onCart } of ROUTE_SHAPES) {
    describe(name, () => {
      test('401 sandbox_unauthorized without an Authorization header, with a bare Bearer challenge', async () => {
        const route = routeNamed(name);
        const response = await send(route);
        assertSandboxError(response, 401, 'sandbox_unauthorized');
        assert.match(String(response.headers['www-authenticate']), /^Bearer realm="vetrina-sandbox"/);
        assert.doesNotMatch(String(response.headers['www-authenticate']), /error=/);
        // The explicit routes name the scope they need; the compatibility route needs the body to know it.
        if (!name.includes(' ')) assert.equal(response.data.scope, route.scope);
      });

      test('401 invalid_token for malformed Authorization headers', async () => {
        for (const header of ['Basic dXNlcjpwYXNz', 'Bearer', 'Bearer not-a-sandbox-token', 'Bearer sbx_test_short', 'sbx_test_AAAAAAAAAAAAAAAAAAAA', 'Bearer sbx_test_AAAAAAAA AAAA']) {
          const response = await send(routeNamed(name), header);
          assertSandboxError(response, 401, 'sandbox_unauthorized');
          assert.match(String(response.headers['www-authenticate']), /^Bearer .*error="invalid_token"/, header);
        }
      });

      test('401 invalid_token for a well-formed but unknown token', async () => {
        const response = await send(routeNamed(name), `Bearer sbx_test_${'A'.repeat(43)}`);
        assertSandboxError(response, 401, 'sandbox_unauthorized');
        assert.match(String(response.headers['www-authenticate']), /error="invalid_token"/);
      });

      test('401 invalid_token for an expired key (24 h after creation)', async () => {
        const key = await sandbox.newKey();
        sandbox.advanceClock(DAY_MS);
        try {
          const response = await send(routeNamed(name), `Bearer ${key}`);
          assertSandboxError(response, 401, 'sandbox_unauthorized');
          assert.match(response.data.message, /expired/);
          assert.match(String(response.headers['www-authenticate']), /error="invalid_token"/);
        } finally {
          sandbox.advanceClock(-DAY_MS);
        }
      });

      test('the shared public key (catalog:read only) is refused with the missing scope named', async () => {
        const route = routeNamed(name);
        const response = await send(route, `Bearer ${sandbox.config.sandbox.publicKey}`);
        assertSandboxError(response, route.insufficientStatus, 'sandbox_insufficient_scope');
        assert.equal(response.data.scope, route.scope);
        assert.match(String(response.headers['www-authenticate']), new RegExp(`error="insufficient_scope", scope="${route.scope}"`));
      });

      test("a key lacking the route's scope gets 401 (explicit routes) or 403 (checkout, compatibility) naming it", async () => {
        const route = routeNamed(name);
        const key = await sandbox.newKey(ALL_SCOPES.filter((scope) => scope !== route.scope));
        const response = await send(route, `Bearer ${key}`);
        assertSandboxError(response, route.insufficientStatus, 'sandbox_insufficient_scope');
        assert.equal(response.data.scope, route.scope);
      });

      if (onCart) {
        test("404 sandbox_not_found for another key's cart", async () => {
          assertSandboxError(await send(routeNamed(name), `Bearer ${stranger}`), 404, 'sandbox_not_found');
        });
      }
    });
  }

  test('a key is still valid just before its 24 hours are up', async () => {
    const key = await sandbox.newKey();
    sandbox.advanceClock(DAY_MS - 60_000);
    try {
      const cart = await sandbox.newCart(key);
      assert.equal((await sandbox.call(key, 'GET', `/sandbox/v1/carts/${cart.id}`)).statusCode, 200);
    } finally {
      sandbox.advanceClock(-(DAY_MS - 60_000));
    }
  });

  test('a cart expires with its key: same expiry, and out of reach once the key has expired', async () => {
    const key = await sandbox.newKey();
    const cart = await sandbox.newCart(key);
    sandbox.advanceClock(DAY_MS);
    try {
      const { db } = sandbox.store;
      const cartRow = await db.selectFrom('sandbox_carts').select(['key_id', 'expires_at']).where('id', '=', cart.id).executeTakeFirstOrThrow();
      const keyRow = await db.selectFrom('sandbox_keys').select('expires_at').where('id', '=', cartRow.key_id).executeTakeFirstOrThrow();
      assert.equal(cartRow.expires_at, keyRow.expires_at);
      assertSandboxError(await sandbox.call(key, 'GET', `/sandbox/v1/carts/${cart.id}`), 401, 'sandbox_unauthorized');
    } finally {
      sandbox.advanceClock(-DAY_MS);
    }
  });

  test('the Bearer scheme is case-insensitive', async () => {
    const cart = await sandbox.newCart(owner);
    const response = await sandbox.client.request({ method: 'GET', url: `/sandbox/v1/carts/${cart.id}`, headers: { authorization: `bearer ${owner}` } });
    assert.equal(response.statusCode, 200);
  });
});
