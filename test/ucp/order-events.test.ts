import assert from 'node:assert/strict';
import type { JsonWebKey } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { OrderView } from '../../src/sandbox/checkout/checkout-views.js';
import type { UcpOperationKit } from '../../src/ucp/operation.js';
import { ROOT_CAPABILITIES, UCP_VERSION } from '../../src/ucp/version.js';
import { adminClient, PIM_TOKEN, withAdmin, type AdminCall } from '../support/admin.js';
import { APPROVED, CHECKOUT_ADDRESS, orderCount, principalOf } from '../support/checkout.js';
import { SANDBOX_PRODUCTS } from '../support/sandbox.js';
import { useTestApp } from '../support/test-app.js';
import { platformProfile, ucpAgent, ucpTestConfig, usePlatformServer } from '../support/ucp-platform.js';
import { verifyUcpSignature } from '../support/ucp-signatures.js';
import { assertValid, ucpValidator } from '../support/ucp-validator.js';
import { startReceiver, type ReceivedRequest, type WebhookReceiver } from '../support/webhook-receiver.js';
import { changeProduct, subscribe, waitForDeliveries, webhookSettings } from '../support/webhooks.js';

const { validator, skip } = await ucpValidator();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The app, a platform profile server and a receiver standing for the platform's webhook, for the enclosing describe. */
function useOrderEventsApp(allowPrivateTargets: boolean) {
  let kit: UcpOperationKit | undefined;
  const testApp = useTestApp(
    withAdmin({
      catalog: SANDBOX_PRODUCTS,
      config: { webhooks: webhookSettings({ allowPrivateTargets }), ucp: ucpTestConfig() },
      // No operation of its own: the kit, for the test that runs the completion hooks inside a failing completion.
      ucpOperations: (operationKit) => {
        kit = operationKit;
        return [];
      },
    }),
  );
  const platform = usePlatformServer();
  /** The receiver answers 503 to the first request of a path containing `fail-once`, 204 to everything else. */
  const failedOnce = new Set<string>();
  let receiver: WebhookReceiver;
  before(async () => {
    receiver = await startReceiver((request) => {
      if (!request.path.includes('fail-once') || failedOnce.has(request.path)) return { status: 204 };
      failedOnce.add(request.path);
      return { status: 503 };
    });
  });
  after(() => receiver.close());
  let profiles = 0;

  return {
    testApp,
    kit: () => kit!,
    receiver: () => receiver,
    /** A new platform profile (so no test sees another's cached one) whose order webhook is `webhookUrl`. */
    profile(webhookUrl?: string): string {
      const path = `/profiles/${++profiles}.json`;
      platform.serve(path, { body: platformProfile(webhookUrl === undefined ? {} : { webhookUrl }) });
      return platform.url(path);
    },
    /** A checkout of two oils and a ten-cent item, made and completed by the platform of `profileUrl` over REST; the order, as the sandbox answers it. */
    async completeAs(profileUrl: string): Promise<OrderView> {
      const token = await testApp.newKey();
      const headers = { 'ucp-agent': ucpAgent(profileUrl) };
      const [oil, ten] = [await testApp.variantId('OIL'), await testApp.variantId('TEN')];
      const destination = { id: 'home', street_address: 'Via Roma 1', address_locality: 'Milano', address_country: 'IT', postal_code: '20121' };
      const created = await testApp.call(
        token,
        'POST',
        '/ucp/v1/checkout-sessions',
        {
          line_items: [
            { item: { id: oil }, quantity: 2 },
            { item: { id: ten }, quantity: 1 },
          ],
          fulfillment: { methods: [{ type: 'shipping', destinations: [destination], groups: [{ selected_option_id: 'sandbox_standard' }] }] },
        },
        headers,
      );
      assert.equal(created.data.status, 'ready_for_complete', created.body);
      const instrument = { id: 'instr_1', handler_id: 'sandbox_payment', type: 'card', credential: { type: 'sandbox_token', token: 'tok_sandbox_success' } };
      const completed = await testApp.call(token, 'POST', `/ucp/v1/checkout-sessions/${created.data.id}/complete`, { payment: { instruments: [instrument] } }, headers);
      assert.equal(completed.statusCode, 200, completed.body);
      assert.equal(completed.data.status, 'completed', completed.body);
      return testApp.app.sandbox.checkouts.getOrder(await principalOf(testApp, token), completed.data.order.id);
    },
  };
}

/** The platform webhook subscription of `url`, as the admin API lists it. */
async function platformWebhook(admin: AdminCall, url: string): Promise<any> {
  const listed = await admin('GET', '/admin/v1/webhooks');
  assert.equal(listed.statusCode, 200, listed.body);
  return listed.data.webhooks.find((webhook: any) => webhook.kind === 'ucp_order' && webhook.url === url);
}

/** The requests the receiver got on `path`. */
const requestsTo = (receiver: WebhookReceiver, path: string): ReceivedRequest[] => receiver.requests.filter((request) => request.path === path);

describe('UCP order events', () => {
  const events = useOrderEventsApp(true);
  const { testApp } = events;
  let admin: AdminCall;
  let signingKeys: JsonWebKey[];
  before(async () => {
    admin = adminClient(testApp);
    const profile = await testApp.client.request({ method: 'GET', url: '/.well-known/ucp' });
    assert.equal(profile.statusCode, 200);
    signingKeys = profile.data.signing_keys;
  });

  /** Completes an order as a platform whose webhook is the receiver's `path`; the order, the webhook and its deliveries once one is delivered. */
  async function orderTo(path: string) {
    const url = `${events.receiver().url}${path}`;
    const order = await events.completeAs(events.profile(url));
    const webhook = await platformWebhook(admin, url);
    assert.ok(webhook, 'the order made the platform webhook');
    return { order, webhook, deliveries: await waitForDeliveries(admin, webhook.id, (list) => list.some((entry) => entry.status === 'delivered')) };
  }

  it('an order completed by a platform with an order webhook makes exactly one delivery, signed as UCP says', async () => {
    const { order, webhook, deliveries } = await orderTo('/orders/signed');
    assert.deepEqual(
      { kind: webhook.kind, event_types: webhook.event_types, status: webhook.status, created_by: webhook.created_by },
      { kind: 'ucp_order', event_types: [], status: 'active', created_by: 'ucp' },
    );
    assert.match(webhook.description, /^Order events of the UCP platform http:\/\/127\.0\.0\.1:\d+\/profiles\/\d+\.json$/);
    assert.equal(deliveries.length, 1);
    const [delivery] = deliveries;
    assert.equal(delivery.event_type, 'order.created');
    assert.equal(delivery.attempts, 1);

    const received = requestsTo(events.receiver(), '/orders/signed');
    assert.equal(received.length, 1);
    const [request] = received as [ReceivedRequest];
    const { components, keyid } = verifyUcpSignature(request, signingKeys);
    assert.deepEqual(components, ['@method', '@authority', '@path', 'ucp-agent', 'content-digest', 'content-type']);
    assert.equal(keyid, signingKeys[0]!.kid);
    assert.equal(request.headers['content-type'], 'application/json');
    assert.equal(request.headers['ucp-agent'], `profile="${testApp.config.publicBaseUrl}/.well-known/ucp"`);
    assert.match(String(request.headers['webhook-id']), UUID);
    assert.equal(request.headers['webhook-id'], delivery.event_id);

    const body = JSON.parse(request.body);
    assert.equal(body.event_id, delivery.event_id);
    assert.equal(body.id, order.id);
    assert.equal(body.created_time, order.created_at);
    assert.equal(request.headers['webhook-timestamp'], String(Math.floor(Date.parse(delivery.created_at) / 1000)), 'when the event happened');
    assert.deepEqual(body.ucp, { version: UCP_VERSION, status: 'success', capabilities: { 'dev.ucp.shopping.order': [{ version: UCP_VERSION }] } });
    assert.deepEqual(
      { checkout_id: body.checkout_id, currency: body.currency, totals: body.totals, environment: body.environment, simulated: body.simulated },
      {
        checkout_id: order.checkout_id,
        currency: 'EUR',
        totals: [
          { type: 'subtotal', amount: 3310 },
          { type: 'fulfillment', display_text: 'Standard shipping (simulated)', amount: 490 },
          { type: 'total', amount: 3800 },
        ],
        environment: 'sandbox',
        simulated: true,
      },
    );
    assert.equal(body.permalink_url, `${testApp.config.publicBaseUrl}/ucp/v1/orders/${order.id}`);
    assert.deepEqual(body.line_items[0], {
      id: order.lines[0]!.variant_id,
      item: { id: order.lines[0]!.variant_id, title: 'olive oil', price: 1650 },
      quantity: { original: 2, total: 2, fulfilled: 0 },
      totals: [
        { type: 'subtotal', amount: 3300 },
        { type: 'total', amount: 3300 },
      ],
      status: 'processing',
    });
    assert.deepEqual(body.fulfillment, {
      expectations: [
        {
          id: 'shipment_1',
          line_items: order.lines.map((line) => ({ id: line.variant_id, quantity: line.quantity })),
          method_type: 'shipping',
          destination: { street_address: 'Via Roma 1', address_locality: 'Milano', address_country: 'IT', postal_code: '20121' },
          description: 'Standard shipping (simulated)',
        },
      ],
      events: [],
    });
  });

  it("the event's body is the release's order entity, and its headers the webhook's", { skip }, async () => {
    await orderTo('/orders/validated');
    const [request] = requestsTo(events.receiver(), '/orders/validated') as [ReceivedRequest];
    assertValid(validator!.validateSchema('https://ucp.dev/schemas/shopping/order.json', JSON.parse(request.body)), 'the order event');
    // rest.openapi.json, order_event_webhook: Webhook-Id a UUID, Webhook-Timestamp an integer.
    assert.match(String(request.headers['webhook-id']), UUID);
    assert.match(String(request.headers['webhook-timestamp']), /^\d+$/);
  });

  it('a failed attempt is retried with the same event id and body, signed again', async () => {
    const { deliveries } = await orderTo('/orders/fail-once');
    assert.deepEqual(
      deliveries.map((entry) => [entry.status, entry.attempts]),
      [['delivered', 2]],
    );
    const received = requestsTo(events.receiver(), '/orders/fail-once');
    assert.equal(received.length, 2);
    const [first, second] = received as [ReceivedRequest, ReceivedRequest];
    assert.equal(first.headers['webhook-id'], deliveries[0].event_id);
    assert.equal(second.headers['webhook-id'], first.headers['webhook-id']);
    assert.equal(second.headers['webhook-timestamp'], first.headers['webhook-timestamp']);
    assert.equal(second.body, first.body);
    for (const request of received) verifyUcpSignature(request, signingKeys);
  });

  it("the event is written in the completion's transaction: a completion that fails after writing it leaves neither order nor event", async () => {
    const url = `${events.receiver().url}/orders/rolled-back`;
    const token = await testApp.newKey();
    const principal = await principalOf(testApp, token);
    const session = await testApp.app.sandbox.checkouts.create(principal, {
      lines: [{ variant_id: await testApp.variantId('OIL'), quantity: 1 }],
      shipping_address: CHECKOUT_ADDRESS,
      fulfillment_option_id: 'sandbox_standard',
    });
    const hooks = events.kit().orderEvents({
      version: UCP_VERSION,
      capabilities: new Map([[ROOT_CAPABILITIES.order, { version: UCP_VERSION }]]),
      platformProfileUrl: events.profile(url),
      orderWebhookUrl: url,
    });
    const orders = await orderCount(testApp);
    await assert.rejects(
      testApp.app.sandbox.checkouts.complete(principal, session.id, APPROVED, {
        onOrder: async (trx, order) => {
          await hooks.onOrder!(trx, order);
          throw new Error('the process died here');
        },
      }),
      /the process died here/,
    );
    assert.equal(await orderCount(testApp), orders);
    assert.equal(await platformWebhook(admin, url), undefined, 'not even the subscription was written');
    const { db } = testApp.store;
    assert.equal((await db.selectFrom('webhook_deliveries').select('id').where('payload', 'like', `%${session.id}%`).execute()).length, 0);
  });

  it('a platform without an order webhook gets no event, and a platform webhook gets no catalog event', async () => {
    const { webhook } = await orderTo('/orders/no-catalog-events');
    const subscriptions = async () => (await admin('GET', '/admin/v1/webhooks')).data.webhooks.length;
    const before = await subscriptions();
    await events.completeAs(events.profile());
    assert.equal(await subscriptions(), before);

    // A catalog change reaches a catalog webhook, and never the platform's.
    const catalog = await subscribe(admin, `${events.receiver().url}/catalog`);
    await changeProduct(admin, 'olive-oil', 'Olive oil, new harvest');
    await waitForDeliveries(admin, catalog.id, (list) => list.some((entry) => entry.status === 'delivered'));
    const platformDeliveries = (await admin('GET', `/admin/v1/webhooks/${webhook.id}/deliveries`)).data.deliveries;
    assert.deepEqual(
      platformDeliveries.map((entry: any) => entry.event_type),
      ['order.created'],
    );
    assert.equal(requestsTo(events.receiver(), '/orders/no-catalog-events').length, 1);
  });

  it('operators see, pause, resume and delete a platform webhook; it takes no test event', async () => {
    const path = '/orders/operated';
    const url = `${events.receiver().url}${path}`;
    const profileUrl = events.profile(url);
    const { webhook } = await orderTo(path);

    const test = await admin('POST', `/admin/v1/webhooks/${webhook.id}/test`);
    assert.equal(test.statusCode, 409, test.body);
    assert.equal(test.data.error.code, 'CONFLICT');

    const paused = await admin('POST', `/admin/v1/webhooks/${webhook.id}/pause`);
    assert.equal(paused.data.webhook.status, 'paused');
    await events.completeAs(profileUrl);
    assert.equal((await admin('GET', `/admin/v1/webhooks/${webhook.id}/deliveries`)).data.deliveries.length, 1, 'an order while paused makes no delivery');

    await admin('POST', `/admin/v1/webhooks/${webhook.id}/resume`);
    await events.completeAs(profileUrl);
    await waitForDeliveries(admin, webhook.id, (list) => list.length === 2 && list.every((entry) => entry.status === 'delivered'));

    const deleted = await testApp.app.inject({ method: 'DELETE', url: `/admin/v1/webhooks/${webhook.id}`, headers: { authorization: `Bearer ${PIM_TOKEN}` } });
    assert.equal(deleted.statusCode, 204);
    await events.completeAs(profileUrl);
    const again = await platformWebhook(admin, url);
    assert.notEqual(again.id, webhook.id, 'the next order makes it again');
    await waitForDeliveries(admin, again.id, (list) => list.length === 1 && list[0].status === 'delivered');
    assert.equal(requestsTo(events.receiver(), path).length, 3);
  });
});

describe('UCP order events without WEBHOOK_ALLOW_PRIVATE_TARGETS', () => {
  const events = useOrderEventsApp(false);
  const { testApp } = events;

  /** Completes an order as a platform whose webhook is `url`; the webhook and its delivery once given up. */
  async function givenUp(url: string): Promise<{ webhook: any; delivery: any }> {
    const admin = adminClient(testApp);
    await events.completeAs(events.profile(url));
    const webhook = await platformWebhook(admin, url);
    const [delivery] = await waitForDeliveries(admin, webhook.id, (list) => list[0]?.status === 'failed');
    return { webhook: (await admin('GET', `/admin/v1/webhooks/${webhook.id}`)).data.webhook, delivery };
  }

  it('refuses a webhook URL whose host resolves to 127.0.0.1 when sending: the attempts say why, nothing reaches it, and the webhook stays active', async () => {
    const { webhook, delivery } = await givenUp(`https://localhost:${events.receiver().port}/orders`);
    assert.equal(delivery.attempts, 3);
    assert.match(delivery.last_error, /localhost: the target is a private, loopback or link-local address/);
    assert.equal(delivery.last_status_code, null);
    assert.equal(webhook.status, 'active', 'a given-up order event does not pause its platform webhook');
    assert.equal(events.receiver().requests.length, 0);
  });

  it('refuses an http webhook URL: UCP order events go over https', async () => {
    const { delivery } = await givenUp(`http://127.0.0.1:${events.receiver().port}/orders`);
    assert.match(delivery.last_error, /the target is not an https URL, which ucp_order webhooks need/);
    assert.equal(events.receiver().requests.length, 0);
  });
});
