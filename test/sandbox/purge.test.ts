import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { purgeExpiredSandboxData } from '../../src/sandbox/purge.js';
import { pollUntil } from '../support/poll.js';
import { APPROVED, CHECKOUT_ADDRESS, principalOf, refusalOf } from '../support/checkout.js';
import { assertSandboxError, completeCart, SANDBOX_PRODUCTS } from '../support/sandbox.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const HOUR_MS = 60 * 60 * 1000;
/** Only a hang guard for the background purge, which runs every 25 ms here. */
const PURGED_WITHIN_MS = 30_000;

async function rowCounts(sandbox: TestApp) {
  const { db } = sandbox.store;
  const count = async (table: 'sandbox_keys' | 'sandbox_carts' | 'sandbox_checkouts' | 'sandbox_orders' | 'sandbox_payment_tokens' | 'sandbox_order_webhooks' | 'sandbox_idempotency') =>
    Number((await db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  return {
    keys: await count('sandbox_keys'),
    carts: await count('sandbox_carts'),
    checkouts: await count('sandbox_checkouts'),
    orders: await count('sandbox_orders'),
    paymentTokens: await count('sandbox_payment_tokens'),
    orderWebhooks: await count('sandbox_order_webhooks'),
    idempotency: await count('sandbox_idempotency'),
  };
}

/** The delivery subscriptions of order webhooks: each goes with its registration. */
async function orderSubscriptions(sandbox: TestApp): Promise<number> {
  return (await sandbox.store.db.selectFrom('webhook_subscriptions').select('id').where('kind', '=', 'acp_order').execute()).length;
}

/** A key with a cart and an order webhook (each made under an idempotency key), an open checkout session, a completed one with its order, and a delegated payment token. */
async function keyWithEverything(sandbox: TestApp) {
  const token = await sandbox.newKey();
  const cartId = await completeCart(sandbox, token);
  const principal = await principalOf(sandbox, token);
  const { checkouts } = sandbox.app.sandbox;
  const open = await checkouts.create(principal, { cart_id: cartId });
  const completed = await checkouts.create(principal, { lines: [{ variant_id: await sandbox.variantId('OIL'), quantity: 1 }], shipping_address: CHECKOUT_ADDRESS, fulfillment_option_id: 'sandbox_standard' });
  const { order } = await checkouts.complete(principal, completed.id, APPROVED);
  const allowance = { maxAmount: 100, currency: 'EUR', checkoutId: open.id, merchantId: 'purge', expiresAt: sandbox.clock().toISOString() };
  await sandbox.app.sandbox.delegatedPayments.issue(principal, { cardNumber: '4242424242424242', allowance, rest: {} });
  const webhook = await sandbox.call(token, 'PUT', '/acp/sandbox/order_webhook', { url: 'https://agent.example/order_events' }, { 'api-version': '2026-04-17', 'idempotency-key': `order-webhook-${token}` });
  assert.equal(webhook.statusCode, 200, webhook.body);
  return { token, principal, cartId, open, order: order! };
}

describe('purge of expired sandbox data', () => {
  let sandbox: TestApp;
  before(async () => {
    sandbox = await startTestApp({ catalog: SANDBOX_PRODUCTS });
  });
  after(() => sandbox.close());

  test('removes expired keys with their carts, checkout sessions, orders and order webhooks, and expired idempotency records, and keeps live ones', async () => {
    const old = await keyWithEverything(sandbox);
    sandbox.advanceClock(12 * HOUR_MS);
    const live = await keyWithEverything(sandbox);
    // The cart and the order webhook each made under an idempotency key.
    const each = (n: number) => ({ keys: n, carts: n, checkouts: 2 * n, orders: n, paymentTokens: n, orderWebhooks: n, idempotency: 2 * n });
    assert.deepEqual(await rowCounts(sandbox), each(2));
    assert.equal(await orderSubscriptions(sandbox), 2);

    sandbox.advanceClock(12 * HOUR_MS);
    // Expired with its key: no longer found, even before the purge.
    const expired = await refusalOf(sandbox.app.sandbox.checkouts.getOrder(live.principal, old.order.id));
    assert.equal(expired.kind, 'not_found');
    assert.deepEqual(await purgeExpiredSandboxData(sandbox.store.db, sandbox.clock()), each(1));
    assert.deepEqual(await rowCounts(sandbox), each(1));
    assert.equal(await orderSubscriptions(sandbox), 1);
    const carts = await sandbox.store.db.selectFrom('sandbox_carts').select('id').execute();
    assert.deepEqual(carts.map((row) => row.id), [live.cartId]);
    assert.notEqual(old.cartId, live.cartId);
    assert.equal((await sandbox.call(live.token, 'GET', `/sandbox/v1/carts/${live.cartId}`)).statusCode, 200);
    assert.equal((await sandbox.app.sandbox.checkouts.get(live.principal, live.open.id)).status, 'ready_for_complete');
    assert.deepEqual((await sandbox.app.sandbox.checkouts.getOrder(live.principal, live.order.id)).id, live.order.id);

    // 12 h later everything has expired.
    assert.deepEqual(await purgeExpiredSandboxData(sandbox.store.db, new Date(sandbox.clock().getTime() + 12 * HOUR_MS)), each(1));
    assert.deepEqual(await rowCounts(sandbox), each(0));
    assert.equal(await orderSubscriptions(sandbox), 0);
  });
});

describe('background purge', () => {
  let sandbox: TestApp;
  before(async () => {
    sandbox = await startTestApp({ catalog: SANDBOX_PRODUCTS, config: { sandbox: { purgeIntervalMs: 25 } } });
  });
  after(() => sandbox.close());

  test('runs every purgeIntervalMs without being called', async () => {
    const key = await sandbox.newKey();
    await sandbox.newCart(key);
    await keyWithEverything(sandbox);
    sandbox.advanceClock(25 * HOUR_MS);
    const { value: counts } = await pollUntil(() => rowCounts(sandbox), (counts) => Object.values(counts).every((n) => n === 0), PURGED_WITHIN_MS);
    assert.deepEqual(counts, { keys: 0, carts: 0, checkouts: 0, orders: 0, paymentTokens: 0, orderWebhooks: 0, idempotency: 0 }, 'expired rows were not purged');
  });
});

describe('keys remembered by an instance', () => {
  let sandbox: TestApp;
  before(async () => {
    sandbox = await startTestApp({ catalog: SANDBOX_PRODUCTS });
  });
  after(() => sandbox.close());

  const readCart = async () => {
    const key = await sandbox.newKey();
    const cart = await sandbox.newCart(key);
    const read = () => sandbox.call(key, 'GET', `/sandbox/v1/carts/${cart.id}`);
    assert.equal((await read()).statusCode, 200);
    return read;
  };

  test('answer as the store holds them once they expire: expired, then unknown when purged', async () => {
    const read = await readCart();
    sandbox.advanceClock(24 * HOUR_MS);
    const expired = await read();
    assertSandboxError(expired, 401, 'sandbox_unauthorized');
    assert.match(expired.data.message, /expired/);
    await purgeExpiredSandboxData(sandbox.store.db, sandbox.clock());
    const purged = await read();
    assertSandboxError(purged, 401, 'sandbox_unauthorized');
    assert.equal(purged.data.message, 'Unknown sandbox key.');
  });

  test('are looked up again near their expiry, when another instance with a clock ahead may have purged them', async () => {
    const read = await readCart();
    sandbox.advanceClock(24 * HOUR_MS - 60_000);
    // The purge of an instance whose clock is two minutes ahead of this one's.
    await purgeExpiredSandboxData(sandbox.store.db, new Date(sandbox.clock().getTime() + 120_000));
    const purged = await read();
    assertSandboxError(purged, 401, 'sandbox_unauthorized');
    assert.equal(purged.data.message, 'Unknown sandbox key.');
  });
});
