import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { HttpProblem } from '../../src/http/problem.js';
import { sandboxIdempotencyWording } from '../../src/sandbox/errors.js';
import { assertSandboxError, completeCart, SANDBOX_PRODUCTS, VALID_ADDRESS } from '../support/sandbox.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const DAY_MS = 24 * 60 * 60 * 1000;

describe('sandbox idempotency', () => {
  let sandbox: TestApp;
  let token: string;
  let oil: string;
  before(async () => {
    sandbox = await startTestApp({ catalog: SANDBOX_PRODUCTS });
    token = await sandbox.newKey();
    oil = await sandbox.variantId('OIL');
  });
  after(() => sandbox.close());

  const createCart = (key: string, body?: object, bearer = token) =>
    sandbox.call(bearer, 'POST', '/sandbox/v1/carts', body, { 'idempotency-key': key });
  const countCarts = async () =>
    Number((await sandbox.store.db.selectFrom('sandbox_carts').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  test('an identical retry replays the first response byte for byte with Idempotent-Replayed: true, creating nothing', async () => {
    const carts = await countCarts();
    const first = await createCart('retry-1', { currency: 'GBP' });
    const retry = await createCart('retry-1', { currency: 'GBP' });
    assert.equal(first.statusCode, 201);
    assert.equal(retry.statusCode, 201);
    assert.equal(retry.body, first.body);
    assert.equal(first.headers['idempotent-replayed'], undefined);
    assert.equal(retry.headers['idempotent-replayed'], 'true');
    assert.equal(retry.headers['idempotency-key'], 'retry-1');
    assert.equal(retry.headers['content-type'], first.headers['content-type']);
    assert.equal(await countCarts(), carts + 1);
  });

  test('the same body with its keys in another order is the same request', async () => {
    const cart = await sandbox.newCart(token);
    const url = `/sandbox/v1/carts/${cart.id}/items`;
    const first = await sandbox.call(token, 'POST', url, { variant_id: oil, quantity: 2 }, { 'idempotency-key': 'order' });
    const retry = await sandbox.call(token, 'POST', url, { quantity: 2, variant_id: oil }, { 'idempotency-key': 'order' });
    assert.equal(retry.headers['idempotent-replayed'], 'true');
    assert.equal(retry.body, first.body);
  });

  test('422 sandbox_idempotency_mismatch for the same key with a different body', async () => {
    await createCart('mismatch', { currency: 'EUR' });
    const response = await createCart('mismatch', { currency: 'USD' });
    assertSandboxError(response, 422, 'sandbox_idempotency_mismatch');
    assert.equal(response.headers['idempotency-key'], 'mismatch');
  });

  test('50 concurrent identical creates make exactly one cart, and all 50 get its answer', async () => {
    const carts = await countCarts();
    const responses = await Promise.all(Array.from({ length: 50 }, () => createCart('burst', { currency: 'EUR' })));
    assert.ok(responses.every((response) => response.statusCode === 201));
    assert.equal(new Set(responses.map((response) => response.body)).size, 1);
    assert.equal(responses.filter((response) => response.headers['idempotent-replayed'] === 'true').length, 49);
    assert.equal(await countCarts(), carts + 1);
  });

  test('50 concurrent identical add-items add once', async () => {
    const cart = await sandbox.newCart(token);
    const url = `/sandbox/v1/carts/${cart.id}/items`;
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => sandbox.call(token, 'POST', url, { variant_id: oil, quantity: 1 }, { 'idempotency-key': 'add-burst' })),
    );
    assert.ok(responses.every((response) => response.statusCode === 201));
    assert.equal((await sandbox.call(token, 'GET', `/sandbox/v1/carts/${cart.id}`)).data.items[0].quantity, 1);
  });

  test('the same Idempotency-Key under two bearer keys creates two carts', async () => {
    const other = await sandbox.newKey();
    const mine = await createCart('shared-key', {});
    const theirs = await createCart('shared-key', {}, other);
    assert.equal(mine.statusCode, 201);
    assert.equal(theirs.statusCode, 201);
    assert.notEqual(mine.data.id, theirs.data.id);
    assert.equal(theirs.headers['idempotent-replayed'], undefined);
  });

  test('the same Idempotency-Key on another path or cart is another request', async () => {
    const a = await sandbox.newCart(token);
    const b = await sandbox.newCart(token);
    for (const cart of [a, b]) {
      const response = await sandbox.call(token, 'POST', `/sandbox/v1/carts/${cart.id}/shipping-address`, VALID_ADDRESS, { 'idempotency-key': 'per-path' });
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers['idempotent-replayed'], undefined);
      assert.equal(response.data.id, cart.id);
    }
  });

  test('one scope for every spelling of the route: percent-encoded letters and a trailing slash', async () => {
    const carts = await countCarts();
    const send = (url: string) =>
      sandbox.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${token}`, 'idempotency-key': 'spelled' }, payload: {} });
    const first = await send('/sandbox/v1/carts');
    const responses = [first, await send('/sandbox/v1/%63arts'), await send('/sandbox/v1/carts/'), await send('/sandbox/%76%31/carts')];
    assert.deepEqual(
      responses.map((response) => response.statusCode),
      [201, 201, 201, 201],
    );
    assert.equal(new Set(responses.map((response) => response.body)).size, 1);
    assert.deepEqual(
      responses.map((response) => response.headers['idempotent-replayed']),
      [undefined, 'true', 'true', 'true'],
    );
    assert.equal(await countCarts(), carts + 1);

    const cartId = JSON.parse(first.body).id as string;
    const add = (url: string) =>
      sandbox.app.inject({
        method: 'POST',
        url,
        headers: { authorization: `Bearer ${token}`, 'idempotency-key': 'spelled-item' },
        payload: { variant_id: oil, quantity: 1 },
      });
    assert.equal((await add(`/sandbox/v1/carts/${cartId}/items`)).statusCode, 201);
    const encoded = await add(`/sandbox/v1/carts/${cartId.replace('_', '%5F')}/%69tems`);
    assert.equal(encoded.headers['idempotent-replayed'], 'true');
    assert.equal((await sandbox.call(token, 'GET', `/sandbox/v1/carts/${cartId}`)).data.items[0].quantity, 1);
  });

  test('answers recorded under the shared public key are kept per client IP: one client never replays another\'s', async () => {
    const publicKey = sandbox.config.sandbox.publicKey;
    const cart = await sandbox.newCart(token);
    const send = (remoteAddress: string, payload: object) =>
      sandbox.client.request({
        method: 'POST',
        url: `/sandbox/v1/carts/${cart.id}`,
        remoteAddress,
        headers: { authorization: `Bearer ${publicKey}`, 'idempotency-key': 'public-shared' },
        payload,
      });
    // The public key lacks cart:write: a 403, which is recorded like any business error.
    const first = await send('10.0.0.1', { action: 'select_shipping_option', shipping_option_id: 'sandbox_standard' });
    assertSandboxError(first, 403, 'sandbox_insufficient_scope');
    assert.equal((await send('10.0.0.1', { action: 'select_shipping_option', shipping_option_id: 'sandbox_standard' })).headers['idempotent-replayed'], 'true');

    // Another client with the same Idempotency-Key: its own answer, neither a replay nor a mismatch.
    const other = await send('10.0.0.2', { action: 'checkout_link' });
    assertSandboxError(other, 403, 'sandbox_insufficient_scope');
    assert.equal(other.headers['idempotent-replayed'], undefined);
    const same = await send('10.0.0.3', { action: 'select_shipping_option', shipping_option_id: 'sandbox_standard' });
    assert.equal(same.headers['idempotent-replayed'], undefined);
  });

  test('a 400 answer is not stored: the key can be used again with a corrected body', async () => {
    assertSandboxError(await createCart('fix-me', { currency: 'JPY' }), 400, 'sandbox_invalid_request');
    const fixed = await createCart('fix-me', { currency: 'EUR' });
    assert.equal(fixed.statusCode, 201);
    assert.equal(fixed.headers['idempotent-replayed'], undefined);
  });

  test('a business error (422) is stored and replayed like a success', async () => {
    const cart = await sandbox.newCart(token);
    const url = `/sandbox/v1/carts/${cart.id}/checkout`;
    const first = await sandbox.call(token, 'POST', url, undefined, { 'idempotency-key': 'incomplete' });
    assertSandboxError(first, 422, 'sandbox_cart_incomplete');
    const retry = await sandbox.call(token, 'POST', url, undefined, { 'idempotency-key': 'incomplete' });
    assert.equal(retry.statusCode, 422);
    assert.equal(retry.body, first.body);
    assert.equal(retry.headers['idempotent-replayed'], 'true');
  });

  test('a replayed checkout answers the stored result even after the cart changed', async () => {
    const cartId = await completeCart(sandbox, token);
    const url = `/sandbox/v1/carts/${cartId}/checkout`;
    const first = await sandbox.call(token, 'POST', url, {}, { 'idempotency-key': 'checkout-once' });
    assert.equal(first.statusCode, 200);
    await sandbox.call(token, 'DELETE', `/sandbox/v1/carts/${cartId}/items?variant_id=${oil}`);
    const retry = await sandbox.call(token, 'POST', url, {}, { 'idempotency-key': 'checkout-once' });
    assert.equal(retry.statusCode, 200);
    assert.equal(retry.body, first.body);
  });

  describe('runIdempotently (shared with the MCP tools)', () => {
    const call = (idempotencyKey: string, run: () => Promise<object>) => ({
      scope: { keyId: 'sbk_test', idempotencyKey, method: 'POST', path: '/tools/x' },
      input: { a: 1 },
      wording: sandboxIdempotencyWording('reused'),
      successStatus: 200,
      run,
    });

    test('a record is replayed for 24 hours, then the key runs again', async () => {
      let runs = 0;
      const run = async () => ({ run: ++runs });
      const first = await sandbox.app.sandbox.runIdempotently(call('day', run));
      const replay = await sandbox.app.sandbox.runIdempotently(call('day', run));
      assert.deepEqual([first.replayed, replay.replayed, replay.json, replay.body], [false, true, '{"run":1}', { run: 1 }]);
      sandbox.advanceClock(DAY_MS);
      try {
        const again = await sandbox.app.sandbox.runIdempotently(call('day', run));
        assert.deepEqual([again.replayed, again.body], [false, { run: 2 }]);
      } finally {
        sandbox.advanceClock(-DAY_MS);
      }
    });

    test('the caller names the reused key in the mismatch; a business error is recorded as its SandboxError body', async () => {
      const failing = call('business', async () => {
        throw new HttpProblem(422, 'sandbox_cart_incomplete', 'needs an item');
      });
      const first = await sandbox.app.sandbox.runIdempotently(failing);
      const replay = await sandbox.app.sandbox.runIdempotently(failing);
      assert.deepEqual([first.statusCode, first.body, replay.replayed, replay.json], [422, { error: 'sandbox_cart_incomplete', message: 'needs an item' }, true, first.json]);
      await assert.rejects(sandbox.app.sandbox.runIdempotently({ ...failing, input: { a: 2 } }), {
        code: 'sandbox_idempotency_mismatch',
        message: 'reused',
      });
    });

    test('a claim abandoned by a request that died is taken over', async () => {
      const stale = new Date(sandbox.clock().getTime() - 60_000).toISOString();
      await sandbox.store.db
        .insertInto('sandbox_idempotency')
        .values({
          ...{ key_id: 'sbk_test', idempotency_key: 'dead', method: 'POST', path: '/tools/x' },
          request_hash: '',
          claim_id: 'dead-claim',
          status_code: null,
          response_body: null,
          response_headers: null,
          created_at: stale,
          expires_at: new Date(sandbox.clock().getTime() + DAY_MS).toISOString(),
        })
        .execute();
      // The dead claim's fingerprint differs from any body, so it must be recognised as abandoned before comparing.
      const outcome = await sandbox.app.sandbox.runIdempotently({ ...call('dead', async () => ({})), successStatus: 201 });
      assert.deepEqual([outcome.statusCode, outcome.replayed], [201, false]);
    });

    test('a failure that throws releases the claim, so a retry runs', async () => {
      await assert.rejects(
        sandbox.app.sandbox.runIdempotently(
          call('throws', async () => {
            throw new Error('boom');
          }),
        ),
      );
      const outcome = await sandbox.app.sandbox.runIdempotently(call('throws', async () => ({ ok: true })));
      assert.equal(outcome.replayed, false);
    });
  });
});
