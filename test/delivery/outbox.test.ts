import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CatalogWriter } from '../../src/catalog/store/catalog-writer.js';
import { patchProduct } from '../../src/catalog/store/write/products.js';
import { DELIVERY_RETENTION_MS, deliveryRow } from '../../src/delivery/subscriptions.js';
import { loadConfig } from '../../src/config.js';
import { openStore, type Store } from '../../src/store/database.js';
import { adminClient, withAdmin } from '../support/admin.js';
import { product, tempDir } from '../support/catalog-builder.js';
import { pollUntil } from '../support/poll.js';
import { needsProductionServices } from '../support/production-services.js';
import { createDatabase, startTestApp, useTestApp, type TestApp } from '../support/test-app.js';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { changeProduct, DELIVERED_WITHIN_MS, subscribe, waitForDeliveries, webhookSettings } from '../support/webhooks.js';

const CATALOG = [product('olive-oil'), product('sourdough')];

/** One store that outlives the apps on it: a SQLite file, or a PostgreSQL database of its own when DATABASE_URL is set. */
async function sharedStore(): Promise<{ settings: { sqlitePath: string } | { databaseUrl: string }; open(): Store; remove(): Promise<void> }> {
  const base = loadConfig();
  if (base.databaseUrl) {
    const database = await createDatabase(base.databaseUrl);
    return { settings: { databaseUrl: database.url }, open: () => openStore({ ...base, databaseUrl: database.url }), remove: database.drop };
  }
  const dir = await tempDir();
  const sqlitePath = path.join(dir.path, 'vetrina.sqlite');
  return { settings: { sqlitePath }, open: () => openStore({ ...base, databaseUrl: undefined, sqlitePath }), remove: dir.remove };
}

describe('the outbox survives a restart', () => {
  let receiver: WebhookReceiver;
  let shared: Awaited<ReturnType<typeof sharedStore>>;
  before(async () => {
    receiver = await startReceiver();
    shared = await sharedStore();
  });
  after(async () => {
    await receiver?.close();
    await shared?.remove();
  });

  it('a change written while no app runs is delivered by the next app on the same store', async () => {
    const start = () => startTestApp(withAdmin({ catalog: CATALOG, config: { ...shared.settings, webhooks: webhookSettings() } }));
    const first = await start();
    const { id, secret } = await subscribe(adminClient(first), receiver.url);
    assert.ok(secret);
    await first.close();

    // The change, committed with no dispatcher running: only the change log holds it.
    const store = shared.open();
    let version: number;
    try {
      ({ version } = await new CatalogWriter(store.db).write('test', async (catalog, now) => {
        const changed = await patchProduct(catalog, 'sourdough', { translations: { en: { title: 'Sourdough, renamed offline' } } }, undefined, now);
        return { result: null, productIds: [changed.productId], audit: [] };
      }));
      const deliveries = await store.db.selectFrom('webhook_deliveries').select('id').execute();
      assert.equal(deliveries.length, 0);
    } finally {
      await store.close();
    }
    assert.equal(receiver.requests.length, 0);

    const second = await start();
    try {
      const [delivery] = await waitForDeliveries(adminClient(second), id, (list) => list[0]?.status === 'delivered');
      assert.equal(delivery.status, 'delivered');
      assert.equal(receiver.requests.length, 1);
      const event = JSON.parse(receiver.requests[0]!.body);
      assert.equal(event.type, 'product.updated');
      assert.equal(event.catalog_version, version);
    } finally {
      await second.close();
    }
  });
});

describe('two instances on one PostgreSQL database', { skip: needsProductionServices }, () => {
  const CHANGES = 12;
  let receiver: WebhookReceiver;
  let database: { url: string; drop(): Promise<void> };
  let instances: TestApp[] = [];
  before(async () => {
    receiver = await startReceiver();
    database = await createDatabase(loadConfig().databaseUrl!);
    const start = () => startTestApp(withAdmin({ catalog: CATALOG, config: { databaseUrl: database.url, webhooks: webhookSettings() } }));
    // One after the other: the first migrates and seeds the new database.
    instances = [await start()];
    instances.push(await start());
  });
  after(async () => {
    for (const instance of instances) await instance.close();
    await receiver?.close();
    await database?.drop();
  });

  it('sends each delivery once: each event id reaches the receiver once, whichever instance claimed it', async () => {
    const [a, b] = instances.map((instance) => adminClient(instance)) as [ReturnType<typeof adminClient>, ReturnType<typeof adminClient>];
    const { id } = await subscribe(a, receiver.url);
    for (let i = 0; i < CHANGES; i += 1) await changeProduct(i % 2 === 0 ? a : b, i % 4 < 2 ? 'olive-oil' : 'sourdough', `Title ${i}`);
    const deliveries = await waitForDeliveries(b, id, (list) => list.length === CHANGES && list.every((entry) => entry.status === 'delivered'));
    assert.equal(deliveries.length, CHANGES);
    assert.ok(deliveries.every((entry) => entry.status === 'delivered' && entry.attempts === 1));
    const ids = receiver.requests.map((request) => request.headers['webhook-id']);
    assert.equal(new Set(ids).size, CHANGES);
    assert.equal(ids.length, CHANGES, 'no event was sent twice');
  });
});

describe('the change log keeps what the dispatcher has not consumed', () => {
  let testApp: TestApp;
  before(async () => {
    testApp = await startTestApp({ catalog: CATALOG, config: { webhooks: webhookSettings() } });
    // Its position is registered at start; with its rounds stopped, the test moves it.
    await testApp.app.webhooks.stop();
  });
  after(async () => {
    await testApp?.close();
  });

  it('pruning passes the retention only up to the position of the webhook dispatcher', async () => {
    const { db } = testApp.store;
    // The dispatcher consumed a change older than the retention, and 3 more wait.
    const { id: productId } = await db.selectFrom('products').select('id').where('handle', '=', 'olive-oil').executeTakeFirstOrThrow();
    const write = (writer: CatalogWriter) => writer.write('test', async () => ({ result: null, productIds: [productId], audit: [] }));
    const past = new CatalogWriter(db, { clock: () => new Date(Date.now() - 3 * 3_600_000), changeLogRetentionHours: 1 });
    const held = (await write(past)).version;
    await db.updateTable('change_log_readers').set({ seq: held }).execute();
    for (let i = 0; i < 3; i += 1) await write(past);
    // The next change that prunes: its sequence is a multiple of 100.
    await db.updateTable('catalog_state').set({ version: 99 }).execute();
    await write(new CatalogWriter(db, { changeLogRetentionHours: 1 }));
    const kept = (await db.selectFrom('catalog_changes').select('seq').orderBy('seq').execute()).map((row) => Number(row.seq));
    assert.deepEqual([held + 1, held + 2, held + 3].filter((seq) => kept.includes(seq)), [held + 1, held + 2, held + 3], 'the unconsumed changes are kept');
    assert.ok(!kept.includes(held), 'a consumed change older than the retention is pruned');
  });
});


describe('a delivery whose instance died', () => {
  const testApp = useTestApp(withAdmin({ catalog: CATALOG, config: { webhooks: webhookSettings() } }));
  let receiver: WebhookReceiver;
  before(async () => {
    receiver = await startReceiver();
  });
  after(() => receiver.close());

  it('is sent by another instance once its lease has passed, and not before', async () => {
    const admin = adminClient(testApp);
    const { id } = await subscribe(admin, receiver.url);
    const { db } = testApp.store;
    const now = Date.now();
    const leased = (eventId: string, leaseUntil: number) => ({
      ...deliveryRow(id, { id: eventId, type: 'webhook.test', timestamp: new Date(now).toISOString(), catalog_version: null, data: {} }, new Date(now).toISOString()),
      lease_until: new Date(leaseUntil).toISOString(),
      leased_by: 'instance_that_died',
    });
    await db.insertInto('webhook_deliveries').values([leased('evt_expired', now - 1000), leased('evt_held', now + 3_600_000)]).execute();
    const deliveries = await waitForDeliveries(admin, id, (list) => list.some((entry) => entry.event_id === 'evt_expired' && entry.status === 'delivered'));
    assert.deepEqual(
      deliveries.map((entry) => [entry.event_id, entry.status]).sort(),
      [['evt_expired', 'delivered'], ['evt_held', 'pending']],
    );
    assert.deepEqual(receiver.requests.map((request) => request.headers['webhook-id']), ['evt_expired']);
  });
});

describe('delivery retention', () => {
  const testApp = useTestApp(withAdmin({ catalog: CATALOG, config: { webhooks: webhookSettings() } }));

  it('drops delivered and given-up deliveries older than the retention; keeps newer ones and pending ones', async () => {
    const admin = adminClient(testApp);
    const { id } = await subscribe(admin, 'https://receiver.example/hook');
    // Paused: its pending delivery is not attempted, so it stays pending.
    await admin('POST', `/admin/v1/webhooks/${id}/pause`);
    const { db } = testApp.store;
    const row = (eventId: string, ageMs: number, status: 'pending' | 'delivered' | 'failed') => {
      const at = new Date(Date.now() - ageMs).toISOString();
      return { ...deliveryRow(id, { id: eventId, type: 'webhook.test', timestamp: at, catalog_version: null, data: {} }, at), status };
    };
    const old = DELIVERY_RETENTION_MS + 3_600_000;
    await db.insertInto('webhook_deliveries').values([row('evt_old_delivered', old, 'delivered'), row('evt_old_failed', old, 'failed'), row('evt_old_pending', old, 'pending'), row('evt_new', 60_000, 'delivered')]).execute();
    const eventIds = async () => (await db.selectFrom('webhook_deliveries').select('event_id').orderBy('event_id').execute()).map((entry) => entry.event_id);
    const { value } = await pollUntil(eventIds, (ids) => ids.length === 2, DELIVERED_WITHIN_MS);
    assert.deepEqual(value, ['evt_new', 'evt_old_pending']);
  });
});

describe('shutting down during an attempt', () => {
  let receiver: WebhookReceiver;
  before(async () => {
    receiver = await startReceiver(() => 'no-answer');
  });
  after(() => receiver.close());

  it('aborts the attempt instead of waiting for its time-out, and leaves the delivery leased, its attempts uncounted', async () => {
    // An attempt may take two minutes: a close that waited for it would outlast the test's guard.
    const testApp = await startTestApp(withAdmin({ catalog: CATALOG, config: { webhooks: webhookSettings({ timeoutMs: 120_000 }) } }));
    try {
      const admin = adminClient(testApp);
      const { id } = await subscribe(admin, receiver.url);
      await admin('POST', `/admin/v1/webhooks/${id}/test`);
      await pollUntil(async () => receiver.requests.length, (count) => count === 1, DELIVERED_WITHIN_MS);
      assert.equal(receiver.requests.length, 1);
      await testApp.app.webhooks.stop();
      const [delivery] = (await admin('GET', `/admin/v1/webhooks/${id}/deliveries`)).data.deliveries;
      assert.equal(delivery.status, 'pending');
      assert.equal(delivery.attempts, 0);
      const lease = await testApp.store.db.selectFrom('webhook_deliveries').select(['lease_until', 'leased_by']).where('id', '=', delivery.id).executeTakeFirstOrThrow();
      assert.ok(lease.leased_by !== null && lease.lease_until! > new Date().toISOString(), 'another instance takes it once the lease has passed');
    } finally {
      await testApp.close();
    }
  });
});
