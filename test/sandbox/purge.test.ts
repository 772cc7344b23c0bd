import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { purgeExpiredSandboxData } from '../../src/sandbox/purge.js';
import { pollUntil } from '../support/poll.js';
import { assertSandboxError, SANDBOX_PRODUCTS } from '../support/sandbox.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const HOUR_MS = 60 * 60 * 1000;
/** Only a hang guard for the background purge, which runs every 25 ms here. */
const PURGED_WITHIN_MS = 30_000;

async function rowCounts(sandbox: TestApp) {
  const { db } = sandbox.store;
  const count = async (table: 'sandbox_keys' | 'sandbox_carts' | 'sandbox_idempotency') =>
    Number((await db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  return { keys: await count('sandbox_keys'), carts: await count('sandbox_carts'), idempotency: await count('sandbox_idempotency') };
}

describe('purge of expired sandbox data', () => {
  let sandbox: TestApp;
  before(async () => {
    sandbox = await startTestApp({ catalog: SANDBOX_PRODUCTS });
  });
  after(() => sandbox.close());

  test('removes expired keys, their carts and expired idempotency records, and keeps live ones', async () => {
    const oldKey = await sandbox.newKey();
    const oldCart = await sandbox.newCart(oldKey);
    sandbox.advanceClock(12 * HOUR_MS);
    const liveKey = await sandbox.newKey();
    const liveCart = await sandbox.newCart(liveKey);
    assert.deepEqual(await rowCounts(sandbox), { keys: 2, carts: 2, idempotency: 2 });

    sandbox.advanceClock(12 * HOUR_MS);
    assert.deepEqual(await purgeExpiredSandboxData(sandbox.store.db, sandbox.clock()), { keys: 1, carts: 1, idempotency: 1 });
    assert.deepEqual(await rowCounts(sandbox), { keys: 1, carts: 1, idempotency: 1 });
    const carts = await sandbox.store.db.selectFrom('sandbox_carts').select('id').execute();
    assert.deepEqual(carts.map((row) => row.id), [liveCart.id]);
    assert.notEqual(oldCart.id, liveCart.id);
    assert.equal((await sandbox.call(liveKey, 'GET', `/sandbox/v1/carts/${liveCart.id}`)).statusCode, 200);

    // 12 h later everything has expired.
    assert.deepEqual(await purgeExpiredSandboxData(sandbox.store.db, new Date(sandbox.clock().getTime() + 12 * HOUR_MS)), {
      keys: 1,
      carts: 1,
      idempotency: 1,
    });
    assert.deepEqual(await rowCounts(sandbox), { keys: 0, carts: 0, idempotency: 0 });
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
    sandbox.advanceClock(25 * HOUR_MS);
    const { value: counts } = await pollUntil(() => rowCounts(sandbox), (counts) => counts.keys + counts.carts + counts.idempotency === 0, PURGED_WITHIN_MS);
    assert.deepEqual(counts, { keys: 0, carts: 0, idempotency: 0 }, 'expired rows were not purged');
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
