import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { acpSignature } from '../../src/acp/signatures.js';
import { ACP_ADDRESS, acpAgent, assertAcpError, assertReplayed, paymentData, useAcpShop } from '../support/acp.js';
import { acpValidator } from '../support/acp-validator.js';
import { orderCount } from '../support/checkout.js';
import { SANDBOX_PRODUCTS } from '../support/sandbox.js';
import { useTestApp } from '../support/test-app.js';

const { validator, skip } = acpValidator();

/**
 * ACP checkout sessions under /acp: every answer checked against the app's /openapi.json
 * and the release's openapi.agentic_checkout.yaml for its operation and status.
 */
describe('ACP checkout sessions', { skip }, () => {
  const shop = useAcpShop(() => validator!);
  const { testApp, acp, ids, items } = shop;

  const create = (body: unknown, request: { token?: string; headers?: Record<string, string | undefined> } = {}) =>
    acp('createCheckoutSession', 'POST', '/checkout_sessions', { token: shop.token, body, ...request });
  const update = (id: string, body: unknown, headers?: Record<string, string>) => acp('updateCheckoutSession', 'POST', `/checkout_sessions/${id}`, { token: shop.token, body, ...(headers && { headers }) });
  const get = (id: string) => acp('getCheckoutSession', 'GET', `/checkout_sessions/${id}`, { token: shop.token });
  const complete = (id: string, body: unknown, headers?: Record<string, string>) =>
    acp('completeCheckoutSession', 'POST', `/checkout_sessions/${id}/complete`, { token: shop.token, body, ...(headers && { headers }) });
  const cancel = (id: string, body?: unknown) => acp('cancelCheckoutSession', 'POST', `/checkout_sessions/${id}/cancel`, { token: shop.token, ...(body !== undefined && { body }) });
  /** A session ready for payment: two oils and a ten-cent item, shipped to ACP_ADDRESS by the standard option. */
  const ready = async () => {
    const created = await create({ line_items: items('OIL', 'OIL', 'TEN'), currency: 'eur', capabilities: {}, fulfillment_details: { address: ACP_ADDRESS } });
    const chosen = await update(created.data.id, { selected_fulfillment_options: [{ type: 'shipping', option_id: 'sandbox_standard', item_ids: [ids.OIL!] }] });
    assert.equal(chosen.data.status, 'ready_for_payment', chosen.body);
    return chosen.data;
  };

  it('create: 201, not ready for payment until an address and an option are given, the things to fix as messages; simulated in metadata', async () => {
    const response = await create({ line_items: items('OIL', 'TEN', 'OIL'), currency: 'eur', capabilities: {}, buyer: { email: 'ada@example.com', first_name: 'Ada' } });
    assert.equal(response.statusCode, 201, response.body);
    const session = response.data;
    assert.match(session.id, /^sandbox_checkout_[0-9a-f]{24}$/);
    assert.equal(session.status, 'not_ready_for_payment');
    assert.equal(session.currency, 'eur');
    assert.deepEqual(session.protocol, { version: '2026-04-17' });
    assert.deepEqual(session.metadata, { environment: 'sandbox', simulated: true });
    assert.deepEqual(session.buyer, { email: 'ada@example.com', first_name: 'Ada' });
    assert.deepEqual(
      session.line_items.map((line: any) => [line.id, line.quantity, line.unit_amount]),
      [
        [ids.OIL, 2, 1650],
        [ids.TEN, 1, 10],
      ],
    );
    assert.deepEqual(session.totals.find((total: any) => total.type === 'total').amount, 3310);
    assert.deepEqual(session.fulfillment_options.map((option: any) => [option.type, option.id, option.totals[0].amount]), [['shipping', 'sandbox_standard', 490]]);
    assert.deepEqual(
      session.messages.map((message: any) => [message.type, message.code, message.param]),
      [
        ['error', 'missing', '$.fulfillment_details.address'],
        ['error', 'missing', '$.selected_fulfillment_options'],
      ],
    );
    assert.equal(session.capabilities.payment.handlers[0].id, 'sandbox_card');
    assert.equal(response.headers['cache-control'], 'no-store');
  });

  it('update with an address (which moves the market), then the option: ready for payment, the shipping in the totals', async () => {
    const created = await create({ line_items: items('OIL'), currency: 'eur', capabilities: {} });
    assert.equal(created.data.line_items[0].unit_amount, 1650);
    const berlin = { ...ACP_ADDRESS, line_one: 'Unter den Linden 1', city: 'Berlin', state: 'BE', country: 'DE', postal_code: '10117' };
    const addressed = await update(created.data.id, { fulfillment_details: { phone_number: '+49 30 1234567', address: berlin } });
    assert.equal(addressed.statusCode, 200, addressed.body);
    assert.deepEqual(addressed.data.fulfillment_details, { name: 'Ada Lovelace', phone_number: '+49 30 1234567', address: berlin });
    // Germany is in the region with its own EUR price: the market moved there.
    assert.equal(addressed.data.line_items[0].unit_amount, 1750);
    assert.deepEqual(addressed.data.messages.map((message: any) => message.param), ['$.selected_fulfillment_options']);
    const chosen = await update(created.data.id, { selected_fulfillment_options: [{ type: 'shipping', option_id: 'sandbox_standard', item_ids: [] }] });
    assert.equal(chosen.data.status, 'ready_for_payment');
    assert.deepEqual(chosen.data.selected_fulfillment_options, [{ type: 'shipping', option_id: 'sandbox_standard', item_ids: [ids.OIL] }]);
    assert.deepEqual(
      chosen.data.totals.map((total: any) => [total.type, total.amount]),
      [
        ['items_base_amount', 1750],
        ['subtotal', 1750],
        ['fulfillment', 490],
        ['total', 2240],
      ],
    );
    const cleared = await update(created.data.id, { selected_fulfillment_options: [] });
    assert.equal(cleared.data.status, 'not_ready_for_payment');
  });

  it('complete with an approving token: 200, completed with its order; read back, completed without the order; the buyer sent is kept', async () => {
    const session = await ready();
    const before = await orderCount(testApp);
    const response = await complete(session.id, { buyer: { email: 'grace@example.com', last_name: 'Hopper' }, payment_data: paymentData('tok_sandbox_success') });
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.data.status, 'completed');
    assert.match(response.data.order.id, /^sandbox_order_[0-9a-f]{24}$/);
    assert.equal(response.data.order.checkout_session_id, session.id);
    assert.equal(response.data.order.permalink_url, `${testApp.config.publicBaseUrl}/acp/checkout_sessions/${session.id}`);
    assert.equal(response.data.continue_url, undefined);
    assert.equal(await orderCount(testApp), before + 1);
    const read = await get(session.id);
    assert.equal(read.data.status, 'completed');
    assert.equal(read.data.order, undefined);
    assert.deepEqual(read.data.buyer, { email: 'grace@example.com', last_name: 'Hopper' });
    assert.equal(read.data.totals.find((total: any) => total.type === 'total').amount, session.totals.find((total: any) => total.type === 'total').amount);
    assertAcpError(await update(session.id, { line_items: items('TEN') }), 405, 'not_modifiable');
    assertAcpError(await complete(session.id, { payment_data: paymentData('tok_sandbox_success') }), 405, 'not_modifiable');
    assertAcpError(await cancel(session.id), 405, 'not_modifiable');
  });

  it('a declined payment: 402 payment_declined, the session unchanged and payable with another token', async () => {
    const session = await ready();
    const declined = await complete(session.id, { payment_data: paymentData('tok_sandbox_decline_insufficient_funds') });
    assertAcpError(declined, 402, 'payment_declined');
    assert.match(declined.data.message, /insufficient funds/);
    assert.equal((await get(session.id)).data.status, 'ready_for_payment');
    assert.equal((await complete(session.id, { payment_data: paymentData('tok_sandbox_success') })).data.status, 'completed');
  });

  it('cancel: 200 canceled, with or without a body; cancelling again is 405, and so is any change', async () => {
    const session = await ready();
    const canceled = await cancel(session.id, { intent_trace: { reason_code: 'timing_deferred' } });
    assert.equal(canceled.statusCode, 200, canceled.body);
    assert.equal(canceled.data.status, 'canceled');
    assert.deepEqual(canceled.data.messages, []);
    const again = await cancel(session.id);
    assertAcpError(again, 405, 'not_modifiable');
    assert.equal(again.headers.allow, 'GET');
    assertAcpError(await complete(session.id, { payment_data: paymentData('tok_sandbox_success') }), 405, 'not_modifiable');
    const other = await create({ line_items: items('TEN'), currency: 'eur', capabilities: {} });
    assert.equal((await cancel(other.data.id)).data.status, 'canceled');
  });

  it('completing a session with things to fix: 422 not_ready_for_payment, no order', async () => {
    const created = await create({ line_items: items('OIL'), currency: 'eur', capabilities: {} });
    const before = await orderCount(testApp);
    assertAcpError(await complete(created.data.id, { payment_data: paymentData('tok_sandbox_success') }), 422, 'not_ready_for_payment');
    assert.equal(await orderCount(testApp), before);
  });

  it('an unknown item is 400 invalid_item_id pointing at it; a draft is not in the catalog either', async () => {
    const unknown = await create({ line_items: [{ id: ids.OIL }, { id: 'variant_nope' }], currency: 'eur', capabilities: {} });
    assertAcpError(unknown, 400, 'invalid_item_id');
    assert.equal(unknown.data.param, '$.line_items[1].id');
    assertAcpError(await create({ line_items: items('DRAFT'), currency: 'eur', capabilities: {} }), 400, 'invalid_item_id');
    const session = await create({ line_items: items('OIL'), currency: 'eur', capabilities: {} });
    assertAcpError(await update(session.data.id, { line_items: [{ id: 'variant_nope' }] }), 400, 'invalid_item_id');
  });

  it('an out-of-stock item stays, counted for nothing, with an out_of_stock error on its line', async () => {
    const response = await create({ line_items: items('OIL', 'SOLD-OUT'), currency: 'eur', capabilities: {}, fulfillment_details: { address: ACP_ADDRESS } });
    assert.equal(response.statusCode, 201, response.body);
    const soldOut = response.data.line_items[1];
    assert.equal(soldOut.availability_status, 'out_of_stock');
    assert.equal(soldOut.totals.find((total: any) => total.type === 'total').amount, 0);
    const message = response.data.messages.find((entry: any) => entry.code === 'out_of_stock');
    assert.equal(message.param, '$.line_items[1]');
    assert.equal(response.data.status, 'not_ready_for_payment');
  });

  it('discount codes are each answered with a warning discount_code_invalid; nothing is applied', async () => {
    const response = await create({ line_items: items('TEN'), currency: 'eur', capabilities: {}, discounts: { codes: ['WELCOME10'] }, coupons: ['OLD'] });
    assert.deepEqual(
      response.data.messages.filter((message: any) => message.type === 'warning').map((message: any) => [message.code, message.param]),
      [
        ['discount_code_invalid', '$.discounts.codes[0]'],
        ['discount_code_invalid', '$.coupons[0]'],
      ],
    );
  });

  it('idempotency: the same key and body replay the first answer; the same key with another body is 422 idempotency_conflict; the key is echoed', async () => {
    const body = { line_items: items('TEN'), currency: 'eur', capabilities: {} };
    const headers = { 'idempotency-key': 'acp-replay-1' };
    const first = await create(body, { headers });
    const replay = await create(body, { headers });
    assert.equal(first.statusCode, 201, first.body);
    assertReplayed(first, replay, 'acp-replay-1');
    const conflict = await create({ ...body, currency: 'EUR' }, { headers });
    assertAcpError(conflict, 422, 'idempotency_conflict');
    const session = await ready();
    const pay = { 'idempotency-key': 'acp-pay-1' };
    const declined = await complete(session.id, { payment_data: paymentData('tok_sandbox_decline_generic') }, pay);
    assertAcpError(await complete(session.id, { payment_data: paymentData('tok_sandbox_decline_generic') }, pay), 402, 'payment_declined');
    assert.equal(declined.statusCode, 402);
    const orders = await orderCount(testApp);
    const paid = await complete(session.id, { payment_data: paymentData('tok_sandbox_success') }, { 'idempotency-key': 'acp-pay-2' });
    const paidAgain = await complete(session.id, { payment_data: paymentData('tok_sandbox_success') }, { 'idempotency-key': 'acp-pay-2' });
    assert.equal(paidAgain.body, paid.body);
    assert.equal(await orderCount(testApp), orders + 1);
  });

  it('Request-Id is echoed; API-Version is required and must be 2026-04-17; every POST needs an Idempotency-Key', async () => {
    const body = { line_items: items('TEN'), currency: 'eur', capabilities: {} };
    const echoed = await create(body, { headers: { 'request-id': 'trace-42' } });
    assert.equal(echoed.headers['request-id'], 'trace-42');
    const missing = await create(body, { headers: { 'api-version': undefined, 'request-id': 'trace-43' } });
    assertAcpError(missing, 400, 'missing_api_version');
    assert.equal(missing.headers['request-id'], 'trace-43');
    assertAcpError(await create(body, { headers: { 'api-version': '2026-01-16' } }), 400, 'unsupported_api_version');
    assertAcpError(await acp('getCheckoutSession', 'GET', `/checkout_sessions/${echoed.data.id}`, { token: shop.token, headers: { 'api-version': '2025-09-29' } }), 400, 'unsupported_api_version');
    assertAcpError(await create(body, { headers: { 'idempotency-key': undefined } }), 400, 'idempotency_key_required');
  });

  it('401 without a key, with an unknown one, or with the public key (catalog:read only); 404 for another key\'s session', async () => {
    const body = { line_items: items('TEN'), currency: 'eur', capabilities: {} };
    assertAcpError(await create(body, { token: undefined as unknown as string, headers: { authorization: undefined } }), 401, 'unauthorized');
    assertAcpError(await create(body, { token: 'sbx_test_00000000000000000000000000000000' }), 401, 'unauthorized');
    assertAcpError(await create(body, { token: testApp.config.sandbox.publicKey }), 401, 'insufficient_scope');
    const session = await create(body);
    const other = await testApp.newKey();
    assertAcpError(await acp('getCheckoutSession', 'GET', `/checkout_sessions/${session.data.id}`, { token: other }), 404, 'not_found');
    assertAcpError(await get('sandbox_checkout_000000000000000000000000'), 404, 'not_found');
    assertAcpError(await update('nonsense', { buyer: { email: 'a@example.com' } }), 404, 'not_found');
  });

  it('bad input is a 4xx in the release\'s shape, never a 500', async () => {
    // Each case names what is wrong with it, for the reader.
    const cases: [string, unknown][] = [
      ['no line items', { line_items: [], currency: 'eur', capabilities: {} }],
      ['no currency', { line_items: items('TEN'), capabilities: {} }],
      ['a field the release does not define', { line_items: items('TEN'), currency: 'eur', capabilities: {}, surprise: true }],
      ['an item without id', { line_items: [{ name: 'x' }], currency: 'eur', capabilities: {} }],
      ['a malformed email', { line_items: items('TEN'), currency: 'eur', capabilities: {}, buyer: { email: 'nope' } }],
      ['an address without a city', { line_items: items('TEN'), currency: 'eur', capabilities: {}, fulfillment_details: { address: { ...ACP_ADDRESS, city: undefined } } }],
    ];
    for (const [what, body] of cases) {
      const response = await create(body);
      assert.equal(response.statusCode, 400, what);
      assert.equal(response.data.code, 'invalid_request', what);
    }
    assertAcpError(await create({ line_items: items('TEN'), currency: 'xyz', capabilities: {} }), 400, 'unsupported_currency');
    assertAcpError(await create({ line_items: Array.from({ length: 100 }, () => ({ id: ids.TEN })), currency: 'eur', capabilities: {} }), 400, 'quantity_exceeded');
    const session = await create({ line_items: items('TEN'), currency: 'eur', capabilities: {} });
    assertAcpError(await update(session.data.id, { selected_fulfillment_options: [{ type: 'shipping', option_id: 'teleport', item_ids: [] }] }), 400, 'invalid_fulfillment_option');
    assertAcpError(await update(session.data.id, { selected_fulfillment_options: [{ type: 'pickup', option_id: 'sandbox_standard', item_ids: [] }] }), 400, 'invalid_fulfillment_option');
    const malformed = await testApp.client.request({
      method: 'POST',
      url: '/acp/checkout_sessions',
      headers: { 'api-version': '2026-04-17', 'idempotency-key': 'bad-json', authorization: `Bearer ${shop.token}`, 'content-type': 'application/json' },
      payload: '{"line_items":',
    });
    assertAcpError(malformed, 400, 'invalid_request');
  });

  it('payment refusals: a real-looking card number anywhere is 400 real_card_refused (never echoed), an unknown token 400 unknown_instrument, another handler 400', async () => {
    const session = await ready();
    const card = await complete(session.id, { payment_data: { ...paymentData('tok_sandbox_success'), billing_address: { ...ACP_ADDRESS, line_two: '4111 1111 1111 1111' } } });
    assertAcpError(card, 400, 'real_card_refused');
    assert.doesNotMatch(card.body, /4111/);
    assertAcpError(await complete(session.id, { payment_data: paymentData('tok_nope') }), 400, 'unknown_instrument');
    assertAcpError(await complete(session.id, { payment_data: { ...paymentData('tok_sandbox_success'), handler_id: 'stripe' } }), 400, 'invalid_payment_handler');
    assertAcpError(await complete(session.id, { payment_data: { purchase_order_number: 'PO-1' } }), 400, 'unsupported_payment_method');
    assert.equal((await get(session.id)).data.status, 'ready_for_payment');
  });
});

describe('ACP request signatures, with ACP_SIGNING_SECRET set', { skip }, () => {
  const secret = 'acp-test-signing-secret-0123456789';
  const testApp = useTestApp({ catalog: SANDBOX_PRODUCTS, config: { acp: { signingSecret: secret, signatureToleranceSeconds: 300, feedPush: undefined } } });
  const acp = acpAgent(() => testApp, () => validator!);
  let token: string;
  let body: object;
  before(async () => {
    token = await testApp.newKey();
    body = { line_items: [{ id: await testApp.variantId('TEN') }], currency: 'eur', capabilities: {} };
  });
  const signed = (payload: string, timestamp = testApp.clock().toISOString()) => ({ signature: acpSignature(secret, timestamp, payload), timestamp });

  it('a request signed over `<Timestamp>.<body>` with the secret is answered, a GET signed over an empty body too', async () => {
    const created = await acp('createCheckoutSession', 'POST', '/checkout_sessions', { token, body, headers: signed(JSON.stringify(body)) });
    assert.equal(created.statusCode, 201, created.body);
    const read = await acp('getCheckoutSession', 'GET', `/checkout_sessions/${created.data.id}`, { token, headers: signed('') });
    assert.equal(read.statusCode, 200, read.body);
  });

  it('401 without a signature, with one over another body, with a stale or malformed timestamp; nothing is created', async () => {
    const payload = JSON.stringify(body);
    const stale = new Date(testApp.clock().getTime() - 301_000).toISOString();
    for (const [headers, code] of [
      [{}, 'signature_required'],
      [{ ...signed(payload), timestamp: undefined }, 'signature_required'],
      [signed(JSON.stringify({ ...body, currency: 'gbp' })), 'signature_invalid'],
      [{ ...signed(payload), timestamp: testApp.clock().toUTCString() }, 'timestamp_invalid'],
      [signed(payload, stale), 'timestamp_out_of_window'],
    ] as const) {
      const response = await acp('createCheckoutSession', 'POST', '/checkout_sessions', { token, body, headers });
      assertAcpError(response, 401, code);
    }
    const count = await testApp.store.db.selectFrom('sandbox_checkouts').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    assert.equal(Number(count.n), 1);
  });
});
