import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { retryDelayMs } from '../../src/delivery/sender.js';
import { adminClient, assertAdminError, PIM_TOKEN, withAdmin, type AdminCall } from '../support/admin.js';
import { product } from '../support/catalog-builder.js';
import { startTestApp, useTestApp, type TestApp } from '../support/test-app.js';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { changeProduct, subscribe, waitForDeliveries, webhookSettings } from '../support/webhooks.js';

const CATALOG = [product('olive-oil'), product('sourdough')];

describe('webhooks through the admin API', () => {
  const testApp = useTestApp(withAdmin({ catalog: CATALOG, config: { webhooks: webhookSettings() } }));
  let receiver: WebhookReceiver;
  let admin: AdminCall;
  before(async () => {
    receiver = await startReceiver();
    admin = adminClient(testApp);
  });
  after(() => receiver.close());

  it('creates a subscription whose secret is shown once, lists it, reads it, and refuses bad bodies', async () => {
    const created = await admin('POST', '/admin/v1/webhooks', { url: `${receiver.url}/hook`, event_types: ['product.updated', 'product.deleted'], description: 'ERP' });
    assert.equal(created.statusCode, 201, created.body);
    assert.match(created.data.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    const { webhook } = created.data;
    assert.equal(webhook.status, 'active');
    assert.equal(webhook.created_by, 'erp');
    assert.deepEqual(webhook.event_types, ['product.updated', 'product.deleted']);

    const listed = await admin('GET', '/admin/v1/webhooks');
    assert.equal(listed.statusCode, 200);
    assert.ok(listed.data.webhooks.some((entry: any) => entry.id === webhook.id));
    const read = await admin('GET', `/admin/v1/webhooks/${webhook.id}`);
    assert.equal(read.statusCode, 200);
    assert.deepEqual(read.data.webhook, webhook);
    assert.doesNotMatch(listed.body + read.body, /whsec_/, 'the secret is never shown again');

    assertAdminError(await admin('POST', '/admin/v1/webhooks', { url: 'ftp://example.com/', event_types: ['product.updated'] }), 400, 'INVALID_REQUEST');
    assertAdminError(await admin('POST', '/admin/v1/webhooks', { url: 'not a url', event_types: ['product.updated'] }), 400, 'INVALID_REQUEST');
    assertAdminError(await admin('POST', '/admin/v1/webhooks', { url: 'https://user:pw@example.com/', event_types: ['product.updated'] }), 400, 'INVALID_REQUEST');
    assertAdminError(await admin('POST', '/admin/v1/webhooks', { url: 'https://example.com/', event_types: ['order.created'] }), 400, 'INVALID_REQUEST');
    assertAdminError(await admin('POST', '/admin/v1/webhooks', { url: 'https://example.com/', event_types: [] }), 400, 'INVALID_REQUEST');
    assertAdminError(await admin('POST', '/admin/v1/webhooks', { url: 'https://example.com/', event_types: ['product.updated'], secret: 'x' }), 400, 'INVALID_REQUEST');
    assertAdminError(await admin('GET', '/admin/v1/webhooks/whk_unknown'), 404, 'NOT_FOUND');
  });

  it('every webhook route needs an admin token', async () => {
    const { id } = await subscribe(admin, receiver.url);
    const routes: [string, string, unknown?][] = [
      ['POST', '/admin/v1/webhooks', { url: receiver.url, event_types: ['product.updated'] }],
      ['GET', '/admin/v1/webhooks'],
      ['GET', `/admin/v1/webhooks/${id}`],
      ['POST', `/admin/v1/webhooks/${id}/pause`],
      ['POST', `/admin/v1/webhooks/${id}/resume`],
      ['POST', `/admin/v1/webhooks/${id}/test`],
      ['GET', `/admin/v1/webhooks/${id}/deliveries`],
      ['DELETE', `/admin/v1/webhooks/${id}`],
    ];
    for (const [method, url, body] of routes) {
      assertAdminError(await admin(method, url, body, { authorization: '' }), 401, 'UNAUTHORIZED');
      assertAdminError(await admin(method, url, body, { authorization: 'Bearer not-a-known-token-0123456789' }), 401, 'UNAUTHORIZED');
    }
    assert.equal((await admin('GET', `/admin/v1/webhooks/${id}`)).data.webhook.status, 'active', 'nothing was changed');
  });

  it('pauses (saying who), resumes and deletes; each answers 404 for an unknown id', async () => {
    const { id } = await subscribe(admin, receiver.url);
    const paused = await admin('POST', `/admin/v1/webhooks/${id}/pause`, undefined, { authorization: `Bearer ${PIM_TOKEN}` });
    assert.equal(paused.statusCode, 200);
    assert.equal(paused.data.webhook.status, 'paused');
    assert.match(paused.data.webhook.paused_reason, /pim/);
    assertAdminError(await admin('POST', `/admin/v1/webhooks/${id}/test`), 409, 'CONFLICT');
    const resumed = await admin('POST', `/admin/v1/webhooks/${id}/resume`);
    assert.equal(resumed.statusCode, 200);
    assert.equal(resumed.data.webhook.status, 'active');
    assert.equal(resumed.data.webhook.paused_reason, null);
    // Straight through inject: the contract client checks JSON bodies, and a 204 has none.
    const deleted = await testApp.app.inject({ method: 'DELETE', url: `/admin/v1/webhooks/${id}`, headers: { authorization: `Bearer ${PIM_TOKEN}` } });
    assert.equal(deleted.statusCode, 204, deleted.body);
    for (const [method, url] of [
      ['GET', `/admin/v1/webhooks/${id}`],
      ['POST', `/admin/v1/webhooks/${id}/pause`],
      ['POST', `/admin/v1/webhooks/${id}/resume`],
      ['POST', `/admin/v1/webhooks/${id}/test`],
      ['GET', `/admin/v1/webhooks/${id}/deliveries`],
      ['DELETE', `/admin/v1/webhooks/${id}`],
    ] as const) {
      assertAdminError(await admin(method, url), 404, 'NOT_FOUND');
    }
    assertAdminError(await admin('GET', `/admin/v1/webhooks/${'x'.repeat(65)}`), 400, 'INVALID_REQUEST');
  });

  it('signs the test event and catalog events as Standard Webhooks; a receiver using standardwebhooks verifies them', async () => {
    const { id, secret } = await subscribe(admin, `${receiver.url}/signed`);
    const tested = await admin('POST', `/admin/v1/webhooks/${id}/test`);
    assert.equal(tested.statusCode, 202, tested.body);
    assert.equal(tested.data.delivery.event_type, 'webhook.test');
    await changeProduct(admin, 'olive-oil', 'Olive oil, cold pressed');
    const deliveries = await waitForDeliveries(admin, id, (list) => list.length === 2 && list.every((entry) => entry.status === 'delivered'));
    assert.deepEqual(deliveries.map((entry) => [entry.status, entry.attempts, entry.last_status_code]), [['delivered', 1, 204], ['delivered', 1, 204]]);

    const received = receiver.requests.filter((request) => request.path === '/signed');
    assert.equal(received.length, 2);
    const verifier = new Webhook(secret);
    const events = received.map((request) => verifier.verify(request.body, request.headers as Record<string, string>) as any);
    assert.deepEqual(events.map((event) => event.type).sort(), ['product.updated', 'webhook.test']);
    const updated = events.find((event) => event.type === 'product.updated');
    const productId = (await testApp.store.db.selectFrom('products').select('id').where('handle', '=', 'olive-oil').executeTakeFirstOrThrow()).id;
    assert.deepEqual(updated.data, { product_id: productId, handle: 'olive-oil' });
    assert.equal(typeof updated.catalog_version, 'number');
    assert.equal(received.find((request) => request.body.includes('product.updated'))!.headers['webhook-id'], updated.id);

    const tampered = received[0]!;
    assert.throws(() => verifier.verify(`${tampered.body} `, tampered.headers as Record<string, string>), /signature/i);
    assert.throws(() => new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(tampered.body, tampered.headers as Record<string, string>), /signature/i);
  });

  it('sends what a change did: a price with its old and new amount and where it applies, an availability with its old and new status, a withdrawal', async () => {
    const { id, secret } = await subscribe(admin, `${receiver.url}/details`, ['variant.price_changed', 'variant.availability_changed', 'product.withdrawn']);
    const variantId = await testApp.variantId('OLIVE-OIL');
    assert.equal((await admin('POST', '/admin/v1/prices', { rows: [{ sku: 'OLIVE-OIL', currency: 'EUR', amount: 1250 }] })).statusCode, 200);
    assert.equal((await admin('PATCH', `/admin/v1/variants/${variantId}`, { manage_inventory: true, inventory_quantity: 0 })).statusCode, 200);
    assert.equal((await admin('PATCH', '/admin/v1/products/olive-oil', { status: 'draft' })).statusCode, 200);
    await waitForDeliveries(admin, id, (list) => list.length === 3 && list.every((entry) => entry.status === 'delivered'));
    const verifier = new Webhook(secret);
    const events = receiver.requests
      .filter((request) => request.path === '/details')
      .map((request) => verifier.verify(request.body, request.headers as Record<string, string>) as any)
      .sort((a, b) => a.catalog_version - b.catalog_version);
    assert.deepEqual(
      events.map((event) => [event.type, event.data]),
      [
        ['variant.price_changed', { product_id: events[0].data.product_id, handle: 'olive-oil', variant_id: variantId, sku: 'OLIVE-OIL', region_id: null, currency: 'EUR', old: 1000, new: 1250 }],
        ['variant.availability_changed', { product_id: events[0].data.product_id, handle: 'olive-oil', variant_id: variantId, sku: 'OLIVE-OIL', old: 'in_stock', new: 'out_of_stock' }],
        ['product.withdrawn', { product_id: events[0].data.product_id, handle: 'olive-oil' }],
      ],
    );
    assert.ok(events[0].catalog_version < events[1].catalog_version && events[1].catalog_version < events[2].catalog_version);
  });

  it('lists deliveries newest first, bounded by limit, and refuses a bad limit', async () => {
    const { id } = await subscribe(admin, receiver.url);
    for (let i = 0; i < 3; i += 1) assert.equal((await admin('POST', `/admin/v1/webhooks/${id}/test`)).statusCode, 202);
    const page = await admin('GET', `/admin/v1/webhooks/${id}/deliveries?limit=2`);
    assert.equal(page.statusCode, 200);
    assert.equal(page.data.deliveries.length, 2);
    assert.ok(page.data.deliveries[0].created_at >= page.data.deliveries[1].created_at);
    assertAdminError(await admin('GET', `/admin/v1/webhooks/${id}/deliveries?limit=0`), 400, 'INVALID_REQUEST');
  });
});

describe('webhook retries, backoff and pausing', () => {
  const testApp = useTestApp(withAdmin({ catalog: CATALOG, config: { webhooks: webhookSettings({ maxAttempts: 3 }) } }));
  let failing: WebhookReceiver;
  before(async () => {
    failing = await startReceiver(() => ({ status: 500, body: 'down' }));
  });
  after(() => failing.close());

  it('retries a failing receiver with the same event id, gives up after the attempts, and pauses the webhook saying why', async () => {
    const admin = adminClient(testApp);
    const { id } = await subscribe(admin, failing.url);
    await changeProduct(admin, 'sourdough', 'Sourdough, first change');
    const [delivery] = await waitForDeliveries(admin, id, (list) => list[0]?.status === 'failed');
    assert.equal(delivery.status, 'failed');
    assert.equal(delivery.attempts, 3);
    assert.equal(delivery.last_status_code, 500);
    assert.equal(delivery.next_attempt_at, null);
    assert.equal(failing.requests.length, 3);
    assert.deepEqual(new Set(failing.requests.map((request) => request.headers['webhook-id'])), new Set([delivery.event_id]));
    const webhook = (await admin('GET', `/admin/v1/webhooks/${id}`)).data.webhook;
    assert.equal(webhook.status, 'paused');
    assert.match(webhook.paused_reason, /failed 3 attempts.*answered 500/);

    // Paused: new changes make no deliveries for it.
    await changeProduct(admin, 'sourdough', 'Sourdough, second change');
    await admin('POST', `/admin/v1/webhooks/${id}/resume`);
    assert.equal((await admin('GET', `/admin/v1/webhooks/${id}/deliveries`)).data.deliveries.length, 1);
  });

  it('waits exponentially longer between attempts, with jitter, up to the cap', () => {
    const config = { retryBaseMs: 1000, retryMaxDelayMs: 60_000 };
    assert.deepEqual([1, 2, 3, 4].map((attempts) => retryDelayMs(config, attempts, 1)), [1000, 2000, 4000, 8000]);
    assert.deepEqual([1, 2, 3, 4].map((attempts) => retryDelayMs(config, attempts, 0)), [500, 1000, 2000, 4000]);
    assert.equal(retryDelayMs(config, 30, 1), 60_000);
    assert.equal(retryDelayMs(config, 1000, 0.5), 45_000);
  });
});

describe('attempts run on their own', () => {
  // A time-out far past the test's guard: were the deliveries sent in claims that wait for
  // their slowest attempt, the healthy receiver would wait for the hanging one.
  const testApp = useTestApp(withAdmin({ catalog: CATALOG, config: { webhooks: webhookSettings({ timeoutMs: 120_000, concurrency: 4, concurrencyPerWebhook: 2 }) } }));
  let hanging: WebhookReceiver;
  let healthy: WebhookReceiver;
  before(async () => {
    hanging = await startReceiver(() => 'no-answer');
    healthy = await startReceiver();
  });
  after(async () => {
    await hanging.close();
    await healthy.close();
  });

  it('a receiver that never answers holds at most WEBHOOK_CONCURRENCY_PER_WEBHOOK attempts: another webhook still gets every event', async () => {
    const admin = adminClient(testApp);
    await subscribe(admin, hanging.url);
    const { id } = await subscribe(admin, healthy.url);
    const changes = 10;
    for (let index = 1; index <= changes; index += 1) await changeProduct(admin, 'olive-oil', `Olive oil, change ${index}`);
    const deliveries = await waitForDeliveries(admin, id, (list) => list.length === changes && list.every((entry) => entry.status === 'delivered'));
    assert.equal(new Set(deliveries.map((entry) => entry.event_id)).size, changes);
    // Its attempts last past the test: each request it got is one still under way.
    const hangingAttempts = hanging.requests.length;
    assert.ok(hangingAttempts >= 1 && hangingAttempts <= 2, `the hanging receiver got ${hangingAttempts} requests`);
  });
});

describe('a change starts a delivery round', () => {
  // A poll far past the test's guard: only the round the applied change starts can send it.
  const testApp = useTestApp(withAdmin({ catalog: CATALOG, config: { webhooks: webhookSettings({ pollMs: 3_600_000 }) } }));
  let receiver: WebhookReceiver;
  before(async () => {
    receiver = await startReceiver();
  });
  after(() => receiver.close());

  it('sends the event of a change as soon as this instance applies it, not at the next WEBHOOK_POLL_MS', async () => {
    const admin = adminClient(testApp);
    const { id } = await subscribe(admin, receiver.url);
    await changeProduct(admin, 'sourdough', 'Sourdough, changed');
    const [delivery] = await waitForDeliveries(admin, id, (list) => list[0]?.status === 'delivered');
    assert.equal(delivery.event_type, 'product.updated');
    assert.equal(receiver.requests.length, 1);
  });
});

describe('what an attempt refuses or gives up on', () => {
  let testApp: TestApp;
  let admin: AdminCall;
  let receiver: WebhookReceiver;
  before(async () => {
    receiver = await startReceiver((request) =>
      request.path === '/redirect'
        ? { status: 302, headers: { location: '/elsewhere' } }
        : request.path === '/large'
          ? { status: 200, body: 'x'.repeat(4096) }
          : { status: 204 },
    );
    testApp = await startTestApp(withAdmin({ catalog: CATALOG, config: { webhooks: webhookSettings({ maxAttempts: 1, maxResponseBytes: 1024 }) } }));
    admin = adminClient(testApp);
  });
  after(async () => {
    await testApp?.close();
    await receiver?.close();
  });

  const outcome = async (url: string) => {
    const { id } = await subscribe(admin, url);
    await admin('POST', `/admin/v1/webhooks/${id}/test`);
    return (await waitForDeliveries(admin, id, (list) => list[0]?.status !== 'pending'))[0];
  };

  it('follows no redirect: a 3xx fails the attempt', async () => {
    const delivery = await outcome(`${receiver.url}/redirect`);
    assert.equal(delivery.status, 'failed');
    assert.equal(delivery.last_status_code, 302);
    assert.match(delivery.last_error, /redirect/);
    assert.equal(receiver.requests.filter((request) => request.path === '/elsewhere').length, 0);
  });

  it('reads at most WEBHOOK_MAX_RESPONSE_BYTES of an answer: a longer one fails the attempt', async () => {
    const delivery = await outcome(`${receiver.url}/large`);
    assert.equal(delivery.status, 'failed');
    assert.match(delivery.last_error, /larger than 1024 bytes/);
    const small = await outcome(`${receiver.url}/small`);
    assert.equal(small.status, 'delivered');
  });
});

describe('private targets without WEBHOOK_ALLOW_PRIVATE_TARGETS', () => {
  const testApp = useTestApp(withAdmin({ catalog: CATALOG, config: { webhooks: webhookSettings({ allowPrivateTargets: false, maxAttempts: 1 }) } }));
  let receiver: WebhookReceiver;
  before(async () => {
    receiver = await startReceiver();
  });
  after(() => receiver.close());

  it('refuses a private, loopback or link-local address in the URL at creation', async () => {
    const admin = adminClient(testApp);
    for (const url of [receiver.url, 'http://10.1.2.3/', 'http://169.254.169.254/latest', 'http://[::1]:8080/', 'http://[::ffff:127.0.0.1]/', 'http://192.168.0.1/', 'http://0.0.0.0/']) {
      const error = assertAdminError(await admin('POST', '/admin/v1/webhooks', { url, event_types: ['product.updated'] }), 400, 'INVALID_REQUEST');
      assert.match(error.message, /private, loopback or link-local/, url);
    }
  });

  it('refuses a name that resolves to a loopback address when sending: nothing reaches the receiver', async () => {
    const admin = adminClient(testApp);
    const { id } = await subscribe(admin, `http://localhost:${receiver.port}/hook`);
    assert.equal((await admin('POST', `/admin/v1/webhooks/${id}/test`)).statusCode, 202);
    const [delivery] = await waitForDeliveries(admin, id, (list) => list[0]?.status === 'failed');
    assert.equal(delivery.status, 'failed');
    assert.equal(delivery.last_status_code, null);
    assert.match(delivery.last_error, /localhost: the target is a private, loopback or link-local address/);
    assert.equal(receiver.requests.length, 0);
  });
});
