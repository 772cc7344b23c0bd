import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { cartRoutes, type CartRouteCase } from '../support/cart-routes.js';
import type { CheckedResponse } from '../support/contract.js';
import { assertSandboxError, SANDBOX_PRODUCTS, VALID_ADDRESS } from '../support/sandbox.js';
import { startTestApp, useTestApp, type TestApp } from '../support/test-app.js';

const CART_LIMIT = 60;
const KEY_LIMIT = 40;
const ALL = ['unavailable', 'rate_limited', 'out_of_stock', 'price_changed'];

describe('Sandbox-Scenario on the REST sandbox routes', () => {
  let sandbox: TestApp;
  let oil: string;
  let ten: string;
  before(async () => {
    sandbox = await startTestApp({ catalog: SANDBOX_PRODUCTS, config: { sandbox: { cartRateLimit: CART_LIMIT, keyRateLimit: KEY_LIMIT } } });
    oil = await sandbox.variantId('OIL');
    ten = await sandbox.variantId('TEN');
  });
  after(() => sandbox.close());

  const send = (token: string | undefined, route: CartRouteCase, scenario?: string) =>
    sandbox.call(token, route.method, route.url, route.payload, { ...route.headers, ...(scenario && { 'sandbox-scenario': scenario }) });
  const count = async (table: 'sandbox_carts' | 'sandbox_keys') =>
    Number((await sandbox.store.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  const cartWithOil = async (token: string) => {
    const cart = await sandbox.newCart(token);
    assert.equal((await sandbox.call(token, 'POST', `/sandbox/v1/carts/${cart.id}/items`, { variant_id: oil, quantity: 1 })).statusCode, 201);
    return cart.id;
  };
  const readCart = (token: string, cartId: string, headers: Record<string, string> = {}) =>
    sandbox.call(token, 'GET', `/sandbox/v1/carts/${cartId}`, undefined, headers);
  const publicProduct = async (handle: string) => (await sandbox.client.get(`/public/v1/products/${handle}`)).data.product;
  const unitPrices = (response: CheckedResponse) => response.data.items.map((line: { variant_id: string; unit_price: number }) => [line.variant_id, line.unit_price]);

  test('unavailable: 503 sandbox_unavailable with Retry-After 1 on every cart route and key issuance, changing nothing', async () => {
    const token = await sandbox.newKey();
    const cartId = await cartWithOil(token);
    const before = (await readCart(token, cartId)).body;
    const [carts, keys] = [await count('sandbox_carts'), await count('sandbox_keys')];
    for (const route of cartRoutes(cartId, ten)) {
      const response = await send(token, route, 'unavailable');
      assertSandboxError(response, 503, 'sandbox_unavailable');
      assert.equal(response.headers['retry-after'], '1', route.name);
      assert.equal(response.data.retry_after, 1, route.name);
      assert.match(response.data.message, /Simulated by the unavailable scenario/);
    }
    const key = await sandbox.call(undefined, 'POST', '/sandbox/v1/keys', undefined, { 'sandbox-scenario': 'unavailable' });
    assertSandboxError(key, 503, 'sandbox_unavailable');
    assert.equal(key.headers['retry-after'], '1');
    assert.equal((await readCart(token, cartId)).body, before);
    assert.deepEqual([await count('sandbox_carts'), await count('sandbox_keys')], [carts, keys]);
  });

  test('rate_limited: 429 with the RateLimit headers of the configured limit, leaving the real window as it was', async () => {
    const token = await sandbox.newKey();
    const cartId = await cartWithOil(token);
    const before = await readCart(token, cartId);
    const remaining = Number(before.headers['ratelimit-remaining']);
    const routes = cartRoutes(cartId, ten);
    for (const route of routes) {
      const response = await send(token, route, 'rate_limited');
      assertSandboxError(response, 429, 'sandbox_rate_limited');
      assert.deepEqual(
        [response.headers['ratelimit-limit'], response.headers['ratelimit-remaining'], response.headers['ratelimit-reset'], response.headers['retry-after']],
        [String(CART_LIMIT), '0', '1', '1'],
        route.name,
      );
      assert.equal(response.data.retry_after, 1);
    }
    // Each simulated call counted once, as any call does; none used up the window.
    const after = await readCart(token, cartId);
    assert.equal(after.statusCode, 200);
    assert.equal(Number(after.headers['ratelimit-remaining']), remaining - routes.length - 1);
    assert.equal(after.body, before.body);
  });

  test('rate_limited on key issuance states the key limit, and the next key is issued', async () => {
    const refused = await sandbox.call(undefined, 'POST', '/sandbox/v1/keys', undefined, { 'sandbox-scenario': 'rate_limited' });
    assertSandboxError(refused, 429, 'sandbox_rate_limited');
    assert.deepEqual([refused.headers['ratelimit-limit'], refused.headers['ratelimit-remaining'], refused.headers['retry-after']], [String(KEY_LIMIT), '0', '1']);
    const issued = await sandbox.call(undefined, 'POST', '/sandbox/v1/keys');
    assert.equal(issued.statusCode, 201);
    assert.ok(Number(issued.headers['ratelimit-remaining']) > 0);
  });

  test('out_of_stock: adding answers 422 sandbox_variant_not_purchasable; the catalog and the cart stay as they were', async () => {
    const token = await sandbox.newKey();
    const cartId = await cartWithOil(token);
    const product = await publicProduct('cents');
    const before = (await readCart(token, cartId)).body;
    const added = await sandbox.call(token, 'POST', `/sandbox/v1/carts/${cartId}/items`, { variant_id: ten, quantity: 1 }, { 'sandbox-scenario': 'out_of_stock' });
    assertSandboxError(added, 422, 'sandbox_variant_not_purchasable');
    assert.match(added.data.message, new RegExp(`Simulated by the out_of_stock scenario: variant ${ten} is out of stock`));
    const action = await sandbox.call(token, 'POST', `/sandbox/v1/carts/${cartId}`, { action: 'add_item', variant_id: ten, quantity: 1 }, { 'sandbox-scenario': 'out_of_stock' });
    assertSandboxError(action, 422, 'sandbox_variant_not_purchasable');
    assert.equal((await readCart(token, cartId)).body, before);
    assert.deepEqual(await publicProduct('cents'), product);

    // Calls that add nothing answer as usual, and without the scenario the variant is added.
    const address = await sandbox.call(token, 'POST', `/sandbox/v1/carts/${cartId}/shipping-address`, VALID_ADDRESS, { 'sandbox-scenario': 'out_of_stock' });
    assert.equal(address.statusCode, 200);
    assert.equal((await readCart(token, cartId, { 'sandbox-scenario': 'out_of_stock' })).statusCode, 200);
    assert.equal((await sandbox.call(token, 'POST', `/sandbox/v1/carts/${cartId}/items`, { variant_id: ten, quantity: 1 })).statusCode, 201);
  });

  test('price_changed: from that answer on, unit prices are 10% up, in totals and checkout, on that cart only', async () => {
    const token = await sandbox.newKey();
    const cartId = await cartWithOil(token);
    assert.equal((await sandbox.call(token, 'POST', `/sandbox/v1/carts/${cartId}/items`, { variant_id: ten, quantity: 3 })).statusCode, 201);
    const other = await sandbox.newKey();
    const otherCart = await cartWithOil(other);
    const product = await publicProduct('olive-oil');

    const changed = await readCart(token, cartId, { 'sandbox-scenario': 'price_changed' });
    assert.equal(changed.statusCode, 200);
    assert.deepEqual(unitPrices(changed), [[oil, 18.15], [ten, 0.11]]);
    assert.equal(changed.data.totals.item_total, 18.48);
    // Persisted: the next read without the header, and asking again, show the same prices.
    assert.equal((await readCart(token, cartId)).body, changed.body);
    assert.equal((await readCart(token, cartId, { 'sandbox-scenario': 'price_changed' })).body, changed.body);

    await sandbox.call(token, 'POST', `/sandbox/v1/carts/${cartId}/shipping-address`, VALID_ADDRESS);
    await sandbox.call(token, 'POST', `/sandbox/v1/carts/${cartId}/shipping-option`, { shipping_option_id: 'sandbox_standard' });
    const checkout = await sandbox.call(token, 'POST', `/sandbox/v1/carts/${cartId}/checkout`, undefined, { 'idempotency-key': 'priced' });
    assert.deepEqual(checkout.data.totals, { item_total: 18.48, shipping_total: 4.9, grand_total: 23.38 });
    assert.deepEqual(unitPrices(checkout), [[oil, 18.15], [ten, 0.11]]);

    assert.deepEqual(unitPrices(await readCart(other, otherCart)), [[oil, 16.5]]);
    assert.deepEqual(await publicProduct('olive-oil'), product);
  });

  test('price_changed on a new cart, on a change, and not on a call that fails', async () => {
    const token = await sandbox.newKey();
    const created = await sandbox.newCart(token, undefined);
    const marked = await sandbox.call(token, 'POST', '/sandbox/v1/carts', {}, { 'idempotency-key': 'marked', 'sandbox-scenario': 'price_changed' });
    assert.equal(marked.statusCode, 201);
    const oneOil = { variant_id: oil, quantity: 1 };
    assert.deepEqual(unitPrices(await sandbox.call(token, 'POST', `/sandbox/v1/carts/${marked.data.id}/items`, oneOil)), [[oil, 18.15]]);
    const added = await sandbox.call(token, 'POST', `/sandbox/v1/carts/${created.id}/items`, oneOil, { 'sandbox-scenario': 'price_changed' });
    assert.deepEqual(unitPrices(added), [[oil, 18.15]]);

    const plain = await cartWithOil(token);
    const tooMany = await sandbox.call(token, 'POST', `/sandbox/v1/carts/${plain}/items`, { variant_id: oil, quantity: 99 }, { 'sandbox-scenario': 'price_changed' });
    assertSandboxError(tooMany, 400, 'sandbox_invalid_request');
    const incomplete = await sandbox.call(token, 'POST', `/sandbox/v1/carts/${plain}/checkout`, undefined, {
      'idempotency-key': 'incomplete',
      'sandbox-scenario': 'price_changed',
    });
    assertSandboxError(incomplete, 422, 'sandbox_cart_incomplete');
    assert.deepEqual(unitPrices(await readCart(token, plain)), [[oil, 16.5]]);
  });

  test("ownership comes first: any scenario on another key's cart is 404 and changes nothing", async () => {
    const owner = await sandbox.newKey();
    const cartId = await cartWithOil(owner);
    const before = (await readCart(owner, cartId)).body;
    const intruder = await sandbox.newKey();
    for (const scenario of ALL) {
      for (const route of cartRoutes(cartId, ten).filter(({ onCart }) => onCart)) {
        assertSandboxError(await send(intruder, route, scenario), 404, 'sandbox_not_found');
      }
    }
    assert.equal((await readCart(owner, cartId)).body, before);
  });

  test('authentication comes first: no key is 401 whatever the scenario', async () => {
    for (const scenario of [...ALL, 'nonsense']) {
      for (const route of cartRoutes(`sandbox_cart_${'0'.repeat(24)}`, ten)) {
        assertSandboxError(await send(undefined, route, scenario), 401, 'sandbox_unauthorized');
      }
    }
  });

  test('an unknown scenario is 400 sandbox_invalid_request naming the header and the values', async () => {
    const token = await sandbox.newKey();
    const cartId = await cartWithOil(token);
    for (const route of cartRoutes(cartId, ten)) {
      const response = await send(token, route, 'Unavailable');
      assertSandboxError(response, 400, 'sandbox_invalid_request');
      assert.match(response.data.message, /sandbox-scenario must be one of unavailable, rate_limited, out_of_stock, price_changed/, route.name);
    }
    const key = await sandbox.call(undefined, 'POST', '/sandbox/v1/keys', undefined, { 'sandbox-scenario': 'out_of_stock' });
    assertSandboxError(key, 400, 'sandbox_invalid_request');
    assert.match(key.data.message, /sandbox-scenario must be one of unavailable, rate_limited$/);
  });

  test('a simulated failure is not stored for replay: the retry under the same Idempotency-Key runs', async () => {
    const token = await sandbox.newKey();
    const cartId = await sandbox.newCart(token).then((cart) => cart.id);
    const url = `/sandbox/v1/carts/${cartId}/items`;
    for (const [key, scenario, status] of [
      ['after-503', 'unavailable', 503],
      ['after-429', 'rate_limited', 429],
      ['after-422', 'out_of_stock', 422],
    ] as const) {
      const failed = await sandbox.call(token, 'POST', url, { variant_id: ten, quantity: 1 }, { 'idempotency-key': key, 'sandbox-scenario': scenario });
      assert.equal(failed.statusCode, status);
      const retried = await sandbox.call(token, 'POST', url, { variant_id: ten, quantity: 1 }, { 'idempotency-key': key });
      assert.equal(retried.statusCode, 201, retried.body);
      assert.equal(retried.headers['idempotent-replayed'], undefined);
    }
    assert.equal((await readCart(token, cartId)).data.items[0].quantity, 3);
    // A stored answer is replayed as it was, whatever the scenario of the retry.
    const replay = await sandbox.call(token, 'POST', url, { variant_id: ten, quantity: 1 }, { 'idempotency-key': 'after-503', 'sandbox-scenario': 'unavailable' });
    assert.equal(replay.statusCode, 201);
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    // The replay wins: a scenario that would change the cart changes nothing either.
    const before = await readCart(token, cartId);
    const priced = await sandbox.call(token, 'POST', url, { variant_id: ten, quantity: 1 }, { 'idempotency-key': 'after-503', 'sandbox-scenario': 'price_changed' });
    assert.equal(priced.headers['idempotent-replayed'], 'true');
    assert.equal((await readCart(token, cartId)).body, before.body);
  });

  test('the Sandbox-Scenario header states on every route that a replay wins over it', async () => {
    const { paths } = (await sandbox.client.get('/openapi.json')).data;
    const headers = Object.values(paths).flatMap((item: any) =>
      Object.values(item).flatMap((operation: any) => (operation.parameters ?? []).filter((p: any) => p.in === 'header' && p.name === 'sandbox-scenario')),
    );
    assert.ok(headers.length > 5);
    for (const header of headers) assert.match(header.description, /A replay wins over a scenario/);
  });
});

describe('Sandbox-Scenario with the limits switched off', () => {
  const sandbox = useTestApp({ catalog: SANDBOX_PRODUCTS });

  test('rate_limited is still 429 with Retry-After, without RateLimit headers for a limit that does not exist', async () => {
    const token = await sandbox.newKey();
    const response = await sandbox.call(token, 'POST', '/sandbox/v1/carts', {}, { 'idempotency-key': 'off', 'sandbox-scenario': 'rate_limited' });
    assertSandboxError(response, 429, 'sandbox_rate_limited');
    assert.equal(response.headers['retry-after'], '1');
    assert.equal(response.headers['ratelimit-limit'], undefined);
  });
});

describe('the scenarios in discovery and /openapi.json', () => {
  const sandbox = useTestApp({ catalog: SANDBOX_PRODUCTS });

  test('GET /sandbox/v1 lists every scenario with a description', async () => {
    const { scenarios } = (await sandbox.client.get('/sandbox/v1')).data;
    assert.deepEqual(
      scenarios.map(({ name }: { name: string }) => name),
      ALL,
    );
    for (const { description } of scenarios) assert.ok(description.length > 40, description);
    assert.match(scenarios.find(({ name }: { name: string }) => name === 'price_changed').description, /10%/);
  });

  test('every cart route documents the header with the four values; key issuance with two; discovery none', async () => {
    const document = (await sandbox.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const header = (operation: any) => operation.parameters?.find((parameter: any) => parameter.in === 'header' && parameter.name === 'sandbox-scenario');
    for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, any>>)) {
      if (!path.startsWith('/sandbox/v1/carts')) continue;
      for (const [method, operation] of Object.entries(item)) {
        const parameter = header(operation);
        assert.ok(parameter, `${method} ${path}`);
        assert.equal(parameter.required, false);
        assert.deepEqual(parameter.schema.enum, ALL, `${method} ${path}`);
        assert.match(parameter.description ?? parameter.schema.description, /`price_changed`: /);
      }
    }
    assert.deepEqual(header(document.paths['/sandbox/v1/keys'].post).schema.enum, ['unavailable', 'rate_limited']);
    assert.equal(header(document.paths['/sandbox/v1'].get), undefined);
  });

  test('a page on another origin may send the header (CORS preflight)', async () => {
    const response = await sandbox.app.inject({
      method: 'OPTIONS',
      url: `/sandbox/v1/carts/sandbox_cart_${'0'.repeat(24)}/items`,
      headers: { origin: 'https://storefront.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, sandbox-scenario' },
    });
    assert.equal(response.statusCode, 204);
    assert.ok(String(response.headers['access-control-allow-headers']).toLowerCase().split(/\s*,\s*/).includes('sandbox-scenario'));
  });
});
