import assert from 'node:assert/strict';
import { createHmac, randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { ACP_ADDRESS, ACP_VERSION, acpAgent, assertAcpError, paymentData } from '../support/acp.js';
import { startAcpOrderReceiver, signatureFailure, TOLERANCE_SECONDS, type AcpOrderReceiver, type ReceivedOrderEvent } from '../support/acp-order-receiver.js';
import { acpValidator } from '../support/acp-validator.js';
import { adminClient, withAdmin, type AdminCall } from '../support/admin.js';
import type { CheckedResponse } from '../support/contract.js';
import { pollUntil } from '../support/poll.js';
import { SANDBOX_PRODUCTS } from '../support/sandbox.js';
import { useTestApp, type TestApp } from '../support/test-app.js';
import { DELIVERED_WITHIN_MS, webhookSettings } from '../support/webhooks.js';

const { validator, skip } = acpValidator();
const WEBHOOK = '/acp/sandbox/order_webhook';

/** A call to the key's order webhook, checked against the app's /openapi.json, and its errors against the release's Error. */
async function orderWebhook(testApp: TestApp, token: string | undefined, method: 'PUT' | 'GET' | 'DELETE', body?: object): Promise<CheckedResponse> {
  const response = await testApp.client.request({
    method,
    url: WEBHOOK,
    headers: {
      'api-version': ACP_VERSION,
      ...(method !== 'GET' && { 'idempotency-key': randomUUID() }),
      ...(token !== undefined && { authorization: `Bearer ${token}` }),
      ...(body && { 'content-type': 'application/json' }),
    },
    ...(body && { payload: JSON.stringify(body) }),
  });
  if (response.statusCode >= 400) assert.deepEqual(validator!.componentErrors('checkout', 'Error', response.data), [], response.body);
  return response;
}

/** Events received (verified) until `count` arrived; only a hang guard bounds the wait. */
async function eventsOf(receiver: AcpOrderReceiver, count: number): Promise<ReceivedOrderEvent[]> {
  const { value } = await pollUntil(async () => [...receiver.events], (events) => events.length >= count, DELIVERED_WITHIN_MS);
  assert.equal(value.length, count, `the receiver got ${value.length} of ${count} events`);
  return value;
}

/** The deliveries written for a key's order webhook subscription, from the admin API, once none is pending (an attempt is recorded after the receiver answered). */
async function deliveriesOf(admin: AdminCall, url: string): Promise<any[]> {
  const listed = await admin('GET', '/admin/v1/webhooks');
  const subscriptions = (listed.data.webhooks as any[]).filter((webhook) => webhook.kind === 'acp_order' && webhook.url === url);
  assert.equal(subscriptions.length, 1, `one acp_order subscription for ${url}`);
  const { value } = await pollUntil(
    async () => (await admin('GET', `/admin/v1/webhooks/${subscriptions[0].id}/deliveries`)).data.deliveries as any[],
    (deliveries) => deliveries.every((delivery) => delivery.status !== 'pending'),
    DELIVERED_WITHIN_MS,
  );
  return value;
}

describe('ACP order events', { skip }, () => {
  const testApp = useTestApp(withAdmin({ catalog: SANDBOX_PRODUCTS, config: { webhooks: webhookSettings() } }));
  const acp = acpAgent(() => testApp, () => validator!);
  let admin: AdminCall;
  let oil: string;
  let ten: string;
  const receivers: AcpOrderReceiver[] = [];
  before(async () => {
    admin = adminClient(testApp);
    [oil, ten] = [await testApp.variantId('OIL'), await testApp.variantId('TEN')];
  });
  after(() => Promise.all(receivers.map((receiver) => receiver.close())));

  const receiver = async (options?: Parameters<typeof startAcpOrderReceiver>[0]) => {
    const started = await startAcpOrderReceiver(options);
    receivers.push(started);
    return started;
  };

  /** A key whose order webhook is `receiver` (`path` on it), the generated secret told to the receiver. */
  const registered = async (target: AcpOrderReceiver, path: string) => {
    const token = await testApp.newKey();
    const response = await orderWebhook(testApp, token, 'PUT', { url: `${target.url}${path}` });
    assert.equal(response.statusCode, 200, response.body);
    target.secret = response.data.secret;
    return token;
  };

  /** Two oils and a ten-cent item shipped to ACP_ADDRESS, completed by the key: the completion's answer. */
  const completeAs = async (token: string) => {
    const created = await acp('createCheckoutSession', 'POST', '/checkout_sessions', {
      token,
      body: { line_items: [{ id: oil }, { id: oil }, { id: ten }], currency: 'eur', capabilities: {}, fulfillment_details: { address: ACP_ADDRESS } },
    });
    await acp('updateCheckoutSession', 'POST', `/checkout_sessions/${created.data.id}`, {
      token,
      body: { selected_fulfillment_options: [{ type: 'shipping', option_id: 'sandbox_standard', item_ids: [oil, ten] }] },
    });
    const completed = await acp('completeCheckoutSession', 'POST', `/checkout_sessions/${created.data.id}/complete`, { token, body: { payment_data: paymentData('tok_sandbox_success') } });
    assert.equal(completed.statusCode, 200, completed.body);
    return completed.data;
  };

  it('a completed session sends order_create then order_update to the key\'s webhook, each verified by a receiver written from the webhook document and valid as its WebhookEvent', async () => {
    const target = await receiver();
    const token = await registered(target, '/order_events');
    assert.match(target.secret!, /^acp_whsec_[A-Za-z0-9_-]{43}$/);
    const session = await completeAs(token);
    const events = await eventsOf(target, 2);

    assert.deepEqual(events.map(({ event }) => event.type).sort(), ['order_create', 'order_update']);
    for (const { request, event } of events) {
      assert.deepEqual(validator!.componentErrors('webhook', 'WebhookEvent', event), [], JSON.stringify(event));
      const signature = request.headers['merchant-signature'];
      assert.deepEqual(validator!.headerErrors('webhook', 'postOrderEvents', 'Merchant-Signature', signature), []);
      assert.equal(request.method, 'POST');
      assert.equal(request.path, '/order_events');
      assert.equal(request.headers['content-type'], 'application/json');
      // Timestamp is the signature's t, in RFC 3339.
      const t = Number(/^t=(\d+),/.exec(String(signature))![1]);
      assert.equal(Date.parse(String(request.headers.timestamp)), t * 1000);
      assert.match(String(request.headers['request-id']), /^[0-9a-f-]{36}$/);
      const order = event.data;
      assert.deepEqual([order.type, order.id, order.checkout_session_id], ['order', session.order.id, session.id]);
      assert.equal(order.permalink_url, session.order.permalink_url);
      assert.deepEqual(
        order.line_items.map((line: any) => [line.id, line.quantity, line.unit_price, line.subtotal, line.status]),
        [
          [oil, { ordered: 2, current: 2, fulfilled: 0 }, 1650, 3300, 'processing'],
          [ten, { ordered: 1, current: 1, fulfilled: 0 }, 10, 10, 'processing'],
        ],
      );
      assert.deepEqual(order.totals, session.totals);
      assert.deepEqual(order.adjustments, []);
      const [shipment] = order.fulfillments;
      assert.deepEqual(shipment.destination, ACP_ADDRESS);
      assert.match(shipment.description, /Simulated by the Vetrina sandbox: nothing is shipped/);
      assert.equal(shipment.carrier, undefined);
    }
    const byType = Object.fromEntries(events.map(({ event }) => [event.type, event.data])) as Record<'order_create' | 'order_update', Record<string, any>>;
    assert.deepEqual([byType.order_create.status, byType.order_create.fulfillments[0].status, byType.order_create.fulfillments[0].events], ['created', 'pending', []]);
    assert.deepEqual([byType.order_update.status, byType.order_update.fulfillments[0].status], ['processing', 'processing']);
    const [processing] = byType.order_update.fulfillments[0].events;
    assert.equal(processing.type, 'processing');
    assert.equal(processing.occurred_at, session.updated_at, 'the order was made when its session completed');
    assert.notEqual(events[0]!.request.headers['request-id'], events[1]!.request.headers['request-id']);

    const webhooks = (await admin('GET', '/admin/v1/webhooks')).data.webhooks as any[];
    const subscription = webhooks.find((webhook) => webhook.url === `${target.url}/order_events`);
    assert.deepEqual([subscription.kind, subscription.created_by, subscription.status], ['acp_order', 'acp', 'active']);
    const deliveries = await deliveriesOf(admin, `${target.url}/order_events`);
    assert.deepEqual(deliveries.map((delivery) => [delivery.event_type, delivery.status, delivery.attempts]).sort(), [
      ['order_create', 'delivered', 1],
      ['order_update', 'delivered', 1],
    ]);
  });

  it('the receiver refuses what the document says to refuse: no header, a malformed one, a stale timestamp, another secret, a changed body', () => {
    const body = '{"type":"order_create","data":{}}';
    const now = 1_800_000_000;
    const sign = (t: number, secret = 'the shared secret', signed = body) => `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${signed}`).digest('hex')}`;
    assert.equal(signatureFailure(sign(now), body, 'the shared secret', now), undefined);
    assert.equal(signatureFailure(sign(now - TOLERANCE_SECONDS), body, 'the shared secret', now), undefined);
    assert.match(signatureFailure(undefined, body, 'the shared secret', now)!, /Missing/);
    assert.match(signatureFailure(`v1=${'0'.repeat(64)}`, body, 'the shared secret', now)!, /must be t=/);
    assert.match(signatureFailure(`t=${now},v1=abc`, body, 'the shared secret', now)!, /must be t=/);
    assert.match(signatureFailure(sign(now - TOLERANCE_SECONDS - 1), body, 'the shared secret', now)!, /window/);
    assert.match(signatureFailure(sign(now, 'another secret'), body, 'the shared secret', now)!, /verification failed/);
    assert.match(signatureFailure(sign(now, 'the shared secret', '{"type":"order_update","data":{}}'), body, 'the shared secret', now)!, /verification failed/);
  });

  it('a receiver that answers 500 first gets the same event again, and accepts it', async () => {
    const target = await receiver({ failFirst: 1 });
    const token = await registered(target, '/flaky');
    await completeAs(token);
    const events = await eventsOf(target, 2);
    for (const { request } of events) {
      const attempts = target.requests.filter((attempt) => attempt.headers['request-id'] === request.headers['request-id']);
      assert.equal(attempts.length, 2, 'one failed attempt, one accepted');
      assert.equal(attempts[0]!.body, attempts[1]!.body, 'the retry carries the same event');
    }
    const deliveries = await deliveriesOf(admin, `${target.url}/flaky`);
    assert.deepEqual(deliveries.map((delivery) => [delivery.status, delivery.attempts]), [
      ['delivered', 2],
      ['delivered', 2],
    ]);
  });

  it('a secret set by the developer signs the events; it is never answered, and registering again without one keeps it', async () => {
    const target = await receiver();
    const token = await testApp.newKey();
    const secret = 'a secret of the developer 0123456789';
    const first = await orderWebhook(testApp, token, 'PUT', { url: `${target.url}/first`, secret });
    assert.equal(first.statusCode, 200, first.body);
    assert.equal(first.data.secret, undefined);
    const moved = await orderWebhook(testApp, token, 'PUT', { url: `${target.url}/moved` });
    assert.equal(moved.statusCode, 200, moved.body);
    assert.deepEqual([moved.data.url, moved.data.status, moved.data.secret], [`${target.url}/moved`, 'active', undefined]);
    const read = await orderWebhook(testApp, token, 'GET');
    assert.deepEqual(read.data, { url: `${target.url}/moved`, status: 'active', created_at: first.data.created_at });

    target.secret = secret;
    await completeAs(token);
    const events = await eventsOf(target, 2);
    assert.deepEqual(events.map(({ request }) => request.path), ['/moved', '/moved']);
  });

  it("no order webhook registered: no delivery; another key's sessions never reach this key's webhook", async () => {
    const target = await receiver();
    await registered(target, '/mine');
    const count = async () => Number((await testApp.store.db.selectFrom('webhook_deliveries').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const before = await count();
    // The deliveries would be written in the completion's transaction: none is, for a key without a webhook.
    await completeAs(await testApp.newKey());
    assert.equal(await count(), before);

    const other = await receiver();
    const otherToken = await registered(other, '/theirs');
    await completeAs(otherToken);
    assert.equal((await eventsOf(other, 2)).length, 2);
    assert.deepEqual(await deliveriesOf(admin, `${target.url}/mine`), []);
    assert.deepEqual(target.requests, []);
  });

  it('delete: 200 with the webhook, then 404 and no more events; GET without one is 404', async () => {
    const target = await receiver();
    const token = await registered(target, '/deleted');
    const deleted = await orderWebhook(testApp, token, 'DELETE');
    assert.equal(deleted.statusCode, 200, deleted.body);
    assert.equal(deleted.data.url, `${target.url}/deleted`);
    assertAcpError(await orderWebhook(testApp, token, 'GET'), 404, 'not_found');
    assertAcpError(await orderWebhook(testApp, token, 'DELETE'), 404, 'not_found');
    const count = async () => Number((await testApp.store.db.selectFrom('webhook_deliveries').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const before = await count();
    await completeAs(token);
    assert.equal(await count(), before);
  });

  it('bad requests: 400 in the ACP error shape; no key 401; a key without checkout:create 401 insufficient_scope', async () => {
    const token = await testApp.newKey();
    for (const url of ['not a url', 'ftp://agent.example/events', 'https://user:pass@agent.example/events']) {
      const response = await orderWebhook(testApp, token, 'PUT', { url });
      assertAcpError(response, 400, 'invalid_url');
      assert.equal(response.data.param, '$.url');
    }
    assertAcpError(await orderWebhook(testApp, token, 'PUT', {}), 400, 'invalid_request');
    assertAcpError(await orderWebhook(testApp, token, 'PUT', { url: 'https://agent.example/events', secret: 'short' }), 400, 'invalid_request');
    assertAcpError(await orderWebhook(testApp, token, 'GET'), 404, 'not_found');
    assertAcpError(await orderWebhook(testApp, undefined, 'PUT', { url: 'https://agent.example/events' }), 401, 'unauthorized');
    assertAcpError(await orderWebhook(testApp, await testApp.newKey(['catalog:read']), 'PUT', { url: 'https://agent.example/events' }), 401, 'insufficient_scope');
    const missingVersion = await testApp.client.request({ method: 'GET', url: WEBHOOK, headers: { authorization: `Bearer ${token}` } });
    assertAcpError(missingVersion, 400, 'missing_api_version');
    const withoutKey = await testApp.client.request({
      method: 'PUT',
      url: WEBHOOK,
      headers: { authorization: `Bearer ${token}`, 'api-version': ACP_VERSION, 'content-type': 'application/json' },
      payload: JSON.stringify({ url: 'https://agent.example/events' }),
    });
    assertAcpError(withoutKey, 400, 'idempotency_key_required');
  });
});

describe('ACP order webhooks where private targets are refused', { skip }, () => {
  const testApp = useTestApp({ catalog: SANDBOX_PRODUCTS, config: { webhooks: webhookSettings({ allowPrivateTargets: false }) } });

  it('an http URL or a private, loopback or link-local address is 400 invalid_url; a public https URL is registered', async () => {
    const token = await testApp.newKey();
    for (const url of ['http://agent.example/events', 'https://127.0.0.1/events', 'https://10.0.0.8/events', 'https://[::1]/events', 'https://169.254.169.254/events']) {
      const response = await orderWebhook(testApp, token, 'PUT', { url });
      assertAcpError(response, 400, 'invalid_url');
      assert.equal(response.data.param, '$.url', url);
    }
    assertAcpError(await orderWebhook(testApp, token, 'GET'), 404, 'not_found');
    const registered = await orderWebhook(testApp, token, 'PUT', { url: 'https://agent.example/events' });
    assert.equal(registered.statusCode, 200, registered.body);
    assert.equal(registered.data.url, 'https://agent.example/events');
  });
});
