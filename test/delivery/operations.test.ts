import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CatalogWriter } from '../../src/catalog/store/catalog-writer.js';
import { adminClient, withAdmin } from '../support/admin.js';
import { product } from '../support/catalog-builder.js';
import { sample } from '../support/prometheus.js';
import { useTestApp } from '../support/test-app.js';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { subscribe, waitForDeliveries, webhookSettings } from '../support/webhooks.js';

const CATALOG = [product('olive-oil')];

describe('webhook metrics', () => {
  const testApp = useTestApp(withAdmin({ catalog: CATALOG, config: { webhooks: webhookSettings({ maxAttempts: 1 }) } }));
  let ok: WebhookReceiver;
  let failing: WebhookReceiver;
  before(async () => {
    ok = await startReceiver();
    failing = await startReceiver(() => ({ status: 503 }));
  });
  after(async () => {
    await ok.close();
    await failing.close();
  });

  it('counts attempts by outcome and reports the outbox', async () => {
    const admin = adminClient(testApp);
    for (const receiver of [ok, failing]) {
      const { id } = await subscribe(admin, receiver.url);
      await admin('POST', `/admin/v1/webhooks/${id}/test`);
      await waitForDeliveries(admin, id, (list) => list[0]?.status !== 'pending');
    }
    const metrics = (await testApp.app.inject({ method: 'GET', url: '/metrics' })).body;
    assert.equal(sample(metrics, 'vetrina_webhook_attempts_total{outcome="delivered"}'), 1);
    assert.equal(sample(metrics, 'vetrina_webhook_attempts_total{outcome="failed"}'), 1);
    assert.equal(sample(metrics, 'vetrina_webhook_outbox_depth'), 0);
    assert.equal(sample(metrics, 'vetrina_webhook_outbox_lag_seconds'), 0);
    assert.equal(sample(metrics, 'vetrina_webhook_pending_deliveries'), 0);
  });
});

describe('readiness and a stuck outbox', () => {
  const testApp = useTestApp({ catalog: CATALOG, config: { webhooks: webhookSettings({ outboxStuckMs: 60_000 }) } });

  it('503 naming webhooks once a change has waited longer than WEBHOOK_OUTBOX_STUCK_MS; a fresh wait is fine', async () => {
    // An instance whose delivery rounds stopped: nothing consumes the change log any more.
    await testApp.app.webhooks.stop();
    const { db } = testApp.store;
    const { id } = await db.selectFrom('products').select('id').where('handle', '=', 'olive-oil').executeTakeFirstOrThrow();
    const change = (writer: CatalogWriter) => writer.write('test', async () => ({ result: null, productIds: [id], audit: [] }));
    const readiness = async () => (await testApp.client.get('/readyz')).data;
    await change(new CatalogWriter(db));
    const waiting = await readiness();
    assert.equal(waiting.status, 'ready', JSON.stringify(waiting));

    await change(new CatalogWriter(db, { clock: () => new Date(Date.now() - 120_000) }));
    const stuck = await readiness();
    assert.equal(stuck.status, 'not_ready');
    assert.deepEqual(stuck.failed, ['webhooks']);
    assert.equal(stuck.checks.webhooks, 'failed');
    const metrics = (await testApp.app.inject({ method: 'GET', url: '/metrics' })).body;
    assert.equal(sample(metrics, 'vetrina_webhook_outbox_depth'), 2);
    assert.ok(sample(metrics, 'vetrina_webhook_outbox_lag_seconds')! >= 120);
  });
});
