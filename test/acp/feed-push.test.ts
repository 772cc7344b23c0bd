import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { loadConfig, type AcpFeedPushConfig, type WebhookConfig } from '../../src/config.js';
import { adminClient, withAdmin, type AdminCall } from '../support/admin.js';
import { acpValidator, assertAcpValid } from '../support/acp-validator.js';
import { product, variant } from '../support/catalog-builder.js';
import { pollUntil } from '../support/poll.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { startReceiver, type ReceivedRequest, type WebhookReceiver } from '../support/webhook-receiver.js';
import { DELIVERED_WITHIN_MS, waitForDeliveries, webhookSettings } from '../support/webhooks.js';

const release = acpValidator();
const FEED_ID = 'feed_8f3K2x';
const KEY = 'agent_feed_key_0123456789';
const PRODUCTS = [
  product('olive-oil', { title: 'Olive oil', titleIt: 'Olio di oliva', variants: [variant('OIL', { prices: [{ currency: 'EUR', amount: 1650 }, { currency: 'GBP', amount: 1420 }] })] }),
  product('vinegar', { variants: [variant('VINEGAR', { prices: [{ currency: 'GBP', amount: 700 }] })] }),
];

/** The app pushing to `url` (the receiver's, unless given), with the admin API and quick webhook rounds. */
async function pushingApp(receiver: WebhookReceiver, webhooks: Partial<WebhookConfig> = {}, url = receiver.url): Promise<TestApp> {
  const feedPush: AcpFeedPushConfig = { url, key: KEY, feedId: FEED_ID, country: 'GB', locale: 'it' };
  return startTestApp(withAdmin({ catalog: PRODUCTS, config: { webhooks: webhookSettings(webhooks), acp: { ...loadConfig().acp, feedPush } } }));
}

/** The Feed API's subscription, as the admin API lists it. */
async function feedSubscription(admin: AdminCall): Promise<any> {
  const listed = await admin('GET', '/admin/v1/webhooks');
  return listed.data.webhooks.find((webhook: any) => webhook.kind === 'acp_feed');
}

/** The change log's readers, by name. */
const readers = async ({ store }: TestApp) => (await store.db.selectFrom('change_log_readers').select('name').orderBy('name').execute()).map((row) => row.name);

describe('ACP product feed: pushing changes to the Feed API', () => {
  /** Answers as the release's UpsertProductsResponse; 500 to the next `times` requests whose body holds `text`. */
  const failing = { text: '', times: 0 };
  let receiver: WebhookReceiver;
  let testApp: TestApp;
  let admin: AdminCall;
  before(async () => {
    receiver = await startReceiver((request) => {
      if (failing.times > 0 && request.body.includes(failing.text)) {
        failing.times--;
        return { status: 500 };
      }
      return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: FEED_ID, accepted: true }) };
    });
    testApp = await pushingApp(receiver);
    admin = adminClient(testApp);
  });
  after(async () => {
    await testApp.close();
    await receiver.close();
  });

  /** Waits until the receiver holds a product upsert that `done` accepts; returns the request. */
  async function received(done: (product: any) => boolean): Promise<ReceivedRequest> {
    const { value } = await pollUntil(async () => receiver.requests.find((request) => (JSON.parse(request.body).products as any[]).some(done)), (found) => found !== undefined, DELIVERED_WITHIN_MS);
    assert.ok(value, `no upsert held the product looked for; received ${receiver.requests.length} requests`);
    return value;
  }

  it("PATCHes the changed product, rendered in the configured market, to the feed's products with the key and the API version", async () => {
    const oilId = (await testApp.client.get('/public/v1/products/olive-oil')).data.product.id;
    const changed = await admin('POST', '/admin/v1/prices', { rows: [{ sku: 'OIL', currency: 'GBP', amount: 1500 }] });
    assert.equal(changed.statusCode, 200, changed.body);
    const request = await received((entry) => entry.id === oilId && entry.variants[0]?.price?.amount === 1500);
    assert.equal(request.method, 'PATCH');
    assert.equal(request.path, `/feeds/${FEED_ID}/products`);
    assert.equal(request.headers.authorization, `Bearer ${KEY}`);
    assert.equal(request.headers['api-version'], '2026-04-17');
    assert.equal(request.headers['content-type'], 'application/json');
    const body = JSON.parse(request.body);
    assert.deepEqual(body.products.map((entry: any) => entry.id), [oilId], 'only the product the change changed');
    const [oil] = body.products;
    assert.equal(oil.title, 'Olio di oliva');
    assert.deepEqual(oil.variants[0].price, { amount: 1500, currency: 'GBP' });
    assert.deepEqual(oil.variants[0].availability, { available: true, status: 'in_stock' });
    if (release.validator) assertAcpValid(release.validator, 'schema.feed.json', 'UpsertProductsRequest', body, 'the upsert');

    const feed = await testApp.client.get('/acp/feed/GB/products.json?locale=it');
    assert.deepEqual(feed.data.products.find((entry: any) => entry.id === oilId), oil, 'the push says what the feed document says');
  });

  it('validates against the release', { skip: release.skip }, async () => {
    await admin('POST', '/admin/v1/prices', { rows: [{ sku: 'VINEGAR', currency: 'GBP', amount: 720 }] });
    const request = await received((entry) => entry.variants[0]?.price?.amount === 720);
    assertAcpValid(release.validator!, 'schema.feed.json', 'UpsertProductsRequest', JSON.parse(request.body), 'the upsert');
  });

  it('upserts a withdrawn product with no variants, as the release defers deletions, and the whole product again when it is back', async () => {
    const vinegarId = (await testApp.client.get('/public/v1/products/vinegar')).data.product.id;
    const withdrawn = await admin('PATCH', '/admin/v1/products/vinegar', { status: 'draft' });
    assert.equal(withdrawn.statusCode, 200, withdrawn.body);
    const gone = await received((entry) => entry.id === vinegarId && entry.variants.length === 0);
    assert.deepEqual(JSON.parse(gone.body).products, [{ id: vinegarId, variants: [] }]);
    if (release.validator) assertAcpValid(release.validator, 'schema.feed.json', 'UpsertProductsRequest', JSON.parse(gone.body), 'the upsert of a withdrawn product');

    assert.equal((await admin('PATCH', '/admin/v1/products/vinegar', { status: 'published' })).statusCode, 200);
    await received((entry) => entry.id === vinegarId && entry.variants.length === 1);
  });

  it('keeps pushing after an instance started without the push retired its change log reader', async () => {
    const { acp } = testApp.config;
    const withoutPush = await buildApp({ config: { ...testApp.config, acp: { ...acp, feedPush: undefined } }, store: testApp.store, logger: false });
    await withoutPush.ready();
    await withoutPush.close();
    // It retired the reader as it started ('no push configured' below); the pushing
    // instance's next round registers it again, at the newest change.
    await pollUntil(() => readers(testApp), (names) => names.includes('acp-feed'), DELIVERED_WITHIN_MS);
    await admin('POST', '/admin/v1/prices', { rows: [{ sku: 'VINEGAR', currency: 'GBP', amount: 733 }] });
    await received((entry) => entry.variants[0]?.price?.amount === 733);
  });

  it('retries an upsert the Feed API failed, through the delivery machinery', async () => {
    Object.assign(failing, { text: '"amount":1610', times: 2 });
    await admin('POST', '/admin/v1/prices', { rows: [{ sku: 'OIL', currency: 'GBP', amount: 1610 }] });
    const pushed = () => receiver.requests.filter((request) => request.body.includes(failing.text));
    const { value: attempts } = await pollUntil(async () => pushed(), (requests) => requests.length >= 3, DELIVERED_WITHIN_MS);
    assert.equal(attempts.length, 3, 'two answered 500, the third 200');
    assert.equal(new Set(attempts.map((request) => request.body)).size, 1, 'the same upsert each time: the product has not changed since');
    assert.deepEqual(JSON.parse(attempts[0]!.body).products[0].variants[0].price, { amount: 1610, currency: 'GBP' });
    const subscription = await feedSubscription(admin);
    assert.deepEqual(
      { status: subscription.status, created_by: subscription.created_by, url: subscription.url },
      { status: 'active', created_by: 'acp', url: `${receiver.url}/feeds/${FEED_ID}/products` },
    );
    const deliveries = await waitForDeliveries(admin, subscription.id, (listed) => listed.some((delivery) => delivery.attempts === 3 && delivery.status === 'delivered'));
    assert.ok(deliveries.every((delivery) => delivery.event_type === 'acp.feed.products_upserted'));
    const test = await admin('POST', `/admin/v1/webhooks/${subscription.id}/test`);
    assert.equal(test.statusCode, 409, 'a Feed API takes upserts only');
    assert.match(test.data.error.hint, /Change a product/);
    assert.ok((await readers(testApp)).includes('acp-feed'), 'the push reads the change log as a reader of its own');
  });
});

describe('ACP product feed: pushing to a private address', () => {
  let receiver: WebhookReceiver;
  let testApp: TestApp;
  before(async () => {
    receiver = await startReceiver();
    // https, so that the address rule, not the https rule, is what refuses it.
    testApp = await pushingApp(receiver, { allowPrivateTargets: false, maxAttempts: 1 }, `https://127.0.0.1:${receiver.port}`);
  });
  after(async () => {
    await testApp.close();
    await receiver.close();
  });

  it('is refused without WEBHOOK_ALLOW_PRIVATE_TARGETS: the delivery fails saying why, and nothing is sent', async () => {
    const admin = adminClient(testApp);
    await admin('POST', '/admin/v1/prices', { rows: [{ sku: 'OIL', currency: 'GBP', amount: 1500 }] });
    const { value: subscription } = await pollUntil(() => feedSubscription(admin), (found) => found !== undefined, DELIVERED_WITHIN_MS);
    assert.ok(subscription, 'the change made the Feed API subscription');
    const [delivery] = await waitForDeliveries(admin, subscription.id, (deliveries) => deliveries[0]?.status === 'failed');
    assert.match(delivery.last_error, /private, loopback or link-local/);
    assert.equal(receiver.requests.length, 0);
  });
});

describe('ACP product feed: no push configured', () => {
  let testApp: TestApp;
  before(async () => {
    testApp = await startTestApp(withAdmin({ catalog: PRODUCTS, config: { webhooks: webhookSettings() } }));
  });
  after(() => testApp.close());

  it('pushes nothing, and retires the change log reader of a push switched off, so it keeps no change from being pruned', async () => {
    await adminClient(testApp)('POST', '/admin/v1/prices', { rows: [{ sku: 'OIL', currency: 'GBP', amount: 1500 }] });
    assert.equal(await feedSubscription(adminClient(testApp)), undefined);

    // The reader a deployment that pushed left behind; an instance started without the push retires it.
    await testApp.store.db.insertInto('change_log_readers').values({ name: 'acp-feed', seq: 1 }).execute();
    assert.deepEqual(await readers(testApp), ['acp-feed', 'webhooks']);
    const restarted = await buildApp({ config: testApp.config, store: testApp.store, logger: false });
    await restarted.ready();
    await restarted.close();
    assert.deepEqual(await readers(testApp), ['webhooks']);
  });
});
