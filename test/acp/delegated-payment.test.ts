import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { ACP_ADDRESS, acpAgent, assertAcpError, assertReplayed, delegationRequest, paymentData, type DelegationFields } from '../support/acp.js';
import { acpValidator } from '../support/acp-validator.js';
import { orderCount } from '../support/checkout.js';
import { SANDBOX_PRODUCTS } from '../support/sandbox.js';
import { useTestApp } from '../support/test-app.js';

const { validator, skip } = acpValidator();
const HOUR_MS = 3_600_000;

/**
 * ACP's delegated payment, simulated: tokens for the sandbox's test cards with an
 * allowance, accepted by completion. Every answer checked against the app's
 * /openapi.json and the release's openapi.delegate_payment.yaml (completions against
 * openapi.agentic_checkout.yaml).
 */
describe('ACP delegated payment', { skip }, () => {
  const testApp = useTestApp({ catalog: SANDBOX_PRODUCTS });
  const acp = acpAgent(() => testApp, () => validator!);
  let token: string;
  let oil: string;
  before(async () => {
    oil = await testApp.variantId('OIL');
    token = await testApp.newKey();
  });

  /** A session ready for payment: one oil (16.50 EUR) shipped for 4.90, 2140 in all. */
  const ready = async (key = token) => {
    const created = await acp('createCheckoutSession', 'POST', '/checkout_sessions', {
      token: key,
      body: { line_items: [{ id: oil }], currency: 'eur', capabilities: {}, fulfillment_details: { address: ACP_ADDRESS } },
    });
    const chosen = await acp('updateCheckoutSession', 'POST', `/checkout_sessions/${created.data.id}`, {
      token: key,
      body: { selected_fulfillment_options: [{ type: 'shipping', option_id: 'sandbox_standard', item_ids: [oil] }] },
    });
    assert.equal(chosen.data.status, 'ready_for_payment', chosen.body);
    return chosen.data as { id: string };
  };
  const delegation = (sessionId: string, fields: DelegationFields = {}) => delegationRequest(sessionId, testApp.clock(), fields);
  const delegate = (body: unknown, request: { key?: string; headers?: Record<string, string | undefined>; errorOutsideEnum?: true } = {}) =>
    acp('delegatePayment', 'POST', '/agentic_commerce/delegate_payment', { token: request.key ?? token, body, ...request }, 'delegatePayment');
  const complete = (sessionId: string, vaultToken: string, key = token) =>
    acp('completeCheckoutSession', 'POST', `/checkout_sessions/${sessionId}/complete`, { token: key, body: { payment_data: paymentData(vaultToken) } });

  it('delegate, then complete: 201 with a sandbox token and the metadata echoed; the session completes with it, and no card number is stored', async () => {
    const session = await ready();
    const delegated = await delegate(delegation(session.id), { headers: { 'idempotency-key': 'delegate-1' } });
    assert.equal(delegated.statusCode, 201, delegated.body);
    assert.match(delegated.data.id, /^vt_sandbox_[0-9a-f]{24}$/);
    assert.deepEqual(delegated.data.metadata, {
      campaign: 'rehearsal',
      merchant_id: 'vetrina_sandbox',
      checkout_session_id: session.id,
      idempotency_key: 'delegate-1',
      environment: 'sandbox',
      simulated: 'true',
    });
    assert.ok(Date.parse(delegated.data.created) <= testApp.clock().getTime(), delegated.data.created);
    const rows = await testApp.store.db.selectFrom('sandbox_payment_tokens').selectAll().execute();
    assert.doesNotMatch(JSON.stringify(rows), /4242/);
    const before = await orderCount(testApp);
    const completed = await complete(session.id, delegated.data.id);
    assert.equal(completed.statusCode, 200, completed.body);
    assert.equal(completed.data.status, 'completed');
    assert.equal(await orderCount(testApp), before + 1);
  });

  it('a declined card: the token is issued, and the completion with it is 402 payment_declined saying why', async () => {
    const session = await ready();
    const delegated = await delegate(delegation(session.id, { number: '4000 0000 0000 9995' }));
    const declined = await complete(session.id, delegated.data.id);
    assertAcpError(declined, 402, 'payment_declined');
    assert.match(declined.data.message, /insufficient funds/);
  });

  it('the allowance decides: exceeded, expired, or for another session or currency, the completion is declined, and the session stays payable', async () => {
    const session = await ready();
    const other = await ready();
    for (const [fields, says] of [
      [{ max_amount: 2139 }, /above the delegated token's allowance/],
      [{ expires_at: new Date(testApp.clock().getTime() - 1000).toISOString() }, /allowance has expired/],
      [{ currency: 'gbp' }, /another checkout session or currency/],
    ] as const) {
      const delegated = await delegate(delegation(session.id, fields));
      const declined = await complete(session.id, delegated.data.id);
      assertAcpError(declined, 402, 'payment_declined');
      assert.match(declined.data.message, says);
    }
    const forOther = await delegate(delegation(other.id));
    assert.match((await complete(session.id, forOther.data.id)).data.message, /another checkout session/);
    // A token expires when its allowance says, not before.
    const later = await delegate(delegation(session.id, { expires_at: new Date(testApp.clock().getTime() + 2 * HOUR_MS).toISOString() }));
    testApp.advanceClock(HOUR_MS);
    assert.equal((await complete(session.id, later.data.id)).data.status, 'completed');
  });

  it('never a real card: a number that looks like a live card, no card number, or a card number elsewhere is 400 invalid_card, never echoed or stored', async () => {
    const session = await ready();
    const before = await testApp.store.db.selectFrom('sandbox_payment_tokens').select('id').execute();
    const live = await delegate(delegation(session.id, { number: '5555555555554444' }));
    assertAcpError(live, 400, 'invalid_card');
    assert.match(live.data.message, /looks like a real card/);
    assert.doesNotMatch(live.body, /5555/);
    const notACard = await delegate(delegation(session.id, { number: '1234' }));
    assertAcpError(notACard, 400, 'invalid_card');
    assert.equal(notACard.data.param, '$.payment_method.number');
    const elsewhere = await delegate(delegation(session.id, { metadata: { note: '4111-1111-1111-1111' } }));
    assertAcpError(elsewhere, 400, 'invalid_card');
    assert.doesNotMatch(elsewhere.body, /4111/);
    assert.deepEqual(await testApp.store.db.selectFrom('sandbox_payment_tokens').select('id').execute(), before);
  });

  it("another key's token is 400 unknown_instrument at completion; a token is usable only by its key", async () => {
    const session = await ready();
    const otherKey = await testApp.newKey();
    const theirs = await delegate(delegation(session.id), { key: otherKey });
    assertAcpError(await complete(session.id, theirs.data.id), 400, 'unknown_instrument');
    assertAcpError(await complete(session.id, 'vt_sandbox_000000000000000000000000'), 400, 'unknown_instrument');
  });

  it('idempotency: the same key and body replay the token; another body under the key is 422 idempotency_conflict', async () => {
    const session = await ready();
    const body = delegation(session.id);
    const headers = { 'idempotency-key': 'delegate-replay' };
    const first = await delegate(body, { headers });
    const replay = await delegate(body, { headers });
    assertReplayed(first, replay, 'delegate-replay');
    assertAcpError(await delegate({ ...body, metadata: { campaign: 'other' } }, { headers }), 422, 'idempotency_conflict');
  });

  it('401 without a key; bad input is 400 in the release\'s error shape, never a 500; API-Version and Idempotency-Key are required', async () => {
    const session = await ready();
    const body = delegation(session.id);
    assertAcpError(await delegate(body, { headers: { authorization: undefined }, errorOutsideEnum: true }), 401, 'unauthorized');
    for (const bad of [
      { ...body, risk_signals: undefined },
      { ...body, allowance: { ...body.allowance, currency: 'EUR' } },
      { ...body, allowance: { ...body.allowance, max_amount: -1 } },
      { ...body, payment_method: { ...body.payment_method, display_last4: '42' } },
      { ...body, surprise: 1 },
    ]) {
      assertAcpError(await delegate(bad, { errorOutsideEnum: true }), 400, 'invalid_request');
    }
    assertAcpError(await delegate(body, { headers: { 'api-version': undefined }, errorOutsideEnum: true }), 400, 'missing_api_version');
    assertAcpError(await delegate(body, { headers: { 'idempotency-key': undefined } }), 400, 'idempotency_key_required');
  });
});
