import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import canonicalize from 'canonicalize';
import { acpSignature } from '../../src/acp/signatures.js';
import { ACP_ADDRESS, ACP_VERSION, acpAgent, delegationRequest, paymentData } from '../support/acp.js';
import { ACP_RELEASE_DIR, acpValidator } from '../support/acp-validator.js';
import { orderCount } from '../support/checkout.js';
import { McpTestClient } from '../support/mcp-client.js';
import { SANDBOX_PRODUCTS } from '../support/sandbox.js';
import { startTestApp, type TestApp, type TestConfigOverrides } from '../support/test-app.js';

const { validator, skip } = acpValidator();

/** The release's MCP binding of checkout: its methods are the tools, their params the arguments. */
const OPENRPC = 'spec/2026-04-17/openrpc/openrpc.agentic_checkout.json';

type Args = Record<string, unknown>;
interface ToolError {
  code: number;
  message: string;
  data: { type: string; code: string; message: string; param?: string };
}

/** The service on a real port, an MCP client on /acp/mcp with a sandbox key, and the same service's REST binding. */
function useAcpMcp(config?: TestConfigOverrides) {
  const state = {} as { testApp: TestApp; base: string; token: string; mcp: McpTestClient; ids: Record<string, string> };
  const clients: McpTestClient[] = [];
  before(async () => {
    state.testApp = await startTestApp({ catalog: SANDBOX_PRODUCTS, ...(config && { config }) });
    state.base = await state.testApp.app.listen({ port: 0, host: '127.0.0.1' });
    state.token = await state.testApp.newKey();
    state.mcp = await connect(state.token);
    state.ids = {};
    for (const sku of ['OIL', 'TEN', 'SOLD-OUT']) state.ids[sku] = await state.testApp.variantId(sku);
  });
  after(async () => {
    for (const client of clients) await client.close();
    await state.testApp?.close();
  });
  /** Another MCP client; `token` undefined connects without a key. */
  const connect = async (token: string | undefined) => {
    const client = await McpTestClient.connect(`${state.base}/acp/mcp`, token === undefined ? {} : { token });
    clients.push(client);
    return client;
  };
  return { state, connect };
}

/** `meta` with the version served, and what a call adds to it. */
const meta = (extra: Args = {}) => ({ api_version: ACP_VERSION, ...extra });

/**
 * What is wrong with a result as the release's binding declares it: the session as
 * CheckoutSession of the release's JSON Schema (the method's result); the completion as
 * the OpenAPI document's CheckoutSessionWithOrder, whose `allOf` the tests' validator
 * merges as Prism does (the JSON Schema's, read literally, admits no value: docs/acp.md,
 * The release as served).
 */
function resultErrors(tool: string, session: unknown): string[] {
  return tool === 'complete_checkout_session'
    ? validator!.componentErrors('checkout', 'CheckoutSessionWithOrder', session)
    : validator!.errors('schema.agentic_checkout.json', 'CheckoutSession', session);
}

/** A successful call: structuredContent valid as the release's result, the same JSON as text. */
async function ok(client: McpTestClient, tool: string, args: Args): Promise<{ session: any; text: string; meta: Record<string, unknown> | undefined }> {
  const { result, error } = await client.callOrError(tool, args);
  assert.equal(error, undefined, `${tool} failed: ${JSON.stringify(error)}`);
  assert.notEqual(result.isError, true, JSON.stringify(result));
  const errors = resultErrors(tool, result.structuredContent);
  assert.deepEqual(errors, [], `${tool} answered outside the release: ${errors.join('; ')}`);
  const text = (result.content as { type: string; text: string }[]).find((block) => block.type === 'text')!.text;
  assert.deepEqual(JSON.parse(text), result.structuredContent);
  return { session: result.structuredContent, text, meta: result._meta };
}

/** A refused call: the JSON-RPC error -32000 with the release's Error in data, its message the error's. */
async function fails(client: McpTestClient, tool: string, args: Args, code: string, type = 'invalid_request'): Promise<ToolError> {
  const { result, error } = await client.callOrError(tool, args);
  assert.ok(error, `${tool} answered ${JSON.stringify(result)} where ${code} was expected`);
  assert.equal(error.code, -32000, JSON.stringify(error));
  assert.equal(error.data?.code, code, JSON.stringify(error));
  assert.equal(error.data.type, type, JSON.stringify(error));
  assert.equal(error.message, error.data.message);
  assert.deepEqual(validator!.errors('schema.agentic_checkout.json', 'Error', error.data), [], JSON.stringify(error.data));
  return error as ToolError;
}

async function sessionCount(testApp: TestApp): Promise<number> {
  const row = await testApp.store.db.selectFrom('sandbox_checkouts').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('ACP MCP binding on /acp/mcp', { skip }, () => {
  const { state, connect } = useAcpMcp();
  const acp = acpAgent(() => state.testApp, () => validator!);
  const items = (...skus: string[]) => skus.map((sku) => ({ id: state.ids[sku]! }));
  const create = (payload: Args, extra: Args = {}, client = state.mcp) => ok(client, 'create_checkout_session', { meta: meta(extra), payload });
  /** A session ready for payment over MCP: one oil (16.50 EUR) shipped for 4.90, 2140 in all. */
  const ready = async () => {
    const { session } = await create({ line_items: items('OIL'), currency: 'eur', capabilities: {}, fulfillment_details: { address: ACP_ADDRESS } });
    const option = { selected_fulfillment_options: [{ type: 'shipping', option_id: 'sandbox_standard', item_ids: [state.ids.OIL] }] };
    const chosen = await ok(state.mcp, 'update_checkout_session', { meta: meta(), id: session.id, payload: option });
    assert.equal(chosen.session.status, 'ready_for_payment');
    return chosen.session as { id: string };
  };

  it("tools/list, with or without a key: exactly the release's methods, with their parameters; meta as the release has it", async () => {
    const release = JSON.parse(readFileSync(path.join(ACP_RELEASE_DIR, OPENRPC), 'utf8')) as {
      methods: { name: string; params: { name: string; required: boolean }[] }[];
      components: { schemas: { meta: { required: string[]; properties: Record<string, unknown> } } };
    };
    for (const client of [state.mcp, await connect(undefined)]) {
      const { tools } = await client.client.listTools();
      assert.deepEqual(tools.map((tool) => tool.name).sort(), release.methods.map((method) => method.name).sort());
      for (const method of release.methods) {
        const tool = tools.find((candidate) => candidate.name === method.name)!;
        const schema = tool.inputSchema as { properties: Record<string, any>; required: string[] };
        assert.deepEqual(Object.keys(schema.properties).sort(), method.params.map((param) => param.name).sort(), method.name);
        assert.deepEqual([...schema.required].sort(), method.params.filter((param) => param.required).map((param) => param.name).sort(), method.name);
        assert.deepEqual(schema.properties.meta.required, release.components.schemas.meta.required);
        for (const field of Object.keys(release.components.schemas.meta.properties)) assert.ok(field in schema.properties.meta.properties, `${method.name} meta.${field}`);
        assert.equal(tool.annotations?.readOnlyHint, method.name === 'get_checkout_session');
      }
    }
    const documented = await state.testApp.client.get('/openapi.json');
    assert.deepEqual(documented.data.paths['/acp/mcp'].post.tags, ['ACP']);
  });

  it('create, update, complete with a delegated payment token, get: the release\'s results, the same sessions as REST, request_id echoed', async () => {
    const created = await create(
      { line_items: items('OIL', 'TEN', 'OIL'), currency: 'eur', capabilities: {}, buyer: { email: 'ada@example.com' }, fulfillment_details: { address: ACP_ADDRESS } },
      { request_id: 'trace-mcp-1', user_agent: 'AgentShop/1.0', accept_language: 'it-IT' },
    );
    assert.deepEqual(created.meta, { request_id: 'trace-mcp-1' });
    assert.match(created.session.id, /^sandbox_checkout_[0-9a-f]{24}$/);
    assert.equal(created.session.status, 'not_ready_for_payment');
    assert.deepEqual(created.session.metadata, { environment: 'sandbox', simulated: true });
    assert.deepEqual(
      created.session.line_items.map((line: any) => [line.id, line.quantity]),
      [
        [state.ids.OIL, 2],
        [state.ids.TEN, 1],
      ],
    );
    const id = created.session.id as string;
    const chosen = await ok(state.mcp, 'update_checkout_session', {
      meta: meta(),
      id,
      payload: { selected_fulfillment_options: [{ type: 'shipping', option_id: 'sandbox_standard', item_ids: [state.ids.OIL] }] },
    });
    assert.equal(chosen.session.status, 'ready_for_payment');
    const total = chosen.session.totals.find((entry: any) => entry.type === 'total').amount as number;
    assert.equal(total, 2 * 1650 + 10 + 490);

    // The release's MCP binding has no delegate payment tool: the token comes from the REST route.
    const delegated = await acp('delegatePayment', 'POST', '/agentic_commerce/delegate_payment', { token: state.token, body: delegationRequest(id, state.testApp.clock(), { max_amount: total }) }, 'delegatePayment');
    assert.equal(delegated.statusCode, 201, delegated.body);
    const orders = await orderCount(state.testApp);
    const completed = await ok(state.mcp, 'complete_checkout_session', {
      meta: meta({ idempotency_key: 'mcp-complete-1', request_id: 'trace-mcp-2' }),
      id,
      payload: { buyer: { email: 'grace@example.com', first_name: 'Grace' }, payment_data: paymentData(delegated.data.id) },
    });
    assert.deepEqual(completed.meta, { request_id: 'trace-mcp-2', idempotency_key: 'mcp-complete-1' });
    assert.equal(completed.session.status, 'completed');
    assert.match(completed.session.order.id, /^sandbox_order_[0-9a-f]{24}$/);
    assert.equal(completed.session.order.checkout_session_id, id);
    assert.equal(await orderCount(state.testApp), orders + 1);

    const got = await ok(state.mcp, 'get_checkout_session', { meta: meta(), id });
    assert.equal(got.session.status, 'completed');
    assert.equal(got.session.order, undefined);
    assert.deepEqual(got.session.buyer, { email: 'grace@example.com', first_name: 'Grace' });
    assert.equal(got.meta, undefined);
    const overRest = await acp('getCheckoutSession', 'GET', `/checkout_sessions/${id}`, { token: state.token });
    assert.deepEqual(got.session, overRest.data);
    await fails(state.mcp, 'update_checkout_session', { meta: meta(), id, payload: { line_items: items('TEN') } }, 'not_modifiable');
  });

  it('cancel, with or without a payload: canceled; cancelling again is not_modifiable', async () => {
    const session = await ready();
    const canceled = await ok(state.mcp, 'cancel_checkout_session', { meta: meta(), id: session.id });
    assert.equal(canceled.session.status, 'canceled');
    await fails(state.mcp, 'cancel_checkout_session', { meta: meta(), id: session.id, payload: { intent_trace: { reason_code: 'price_sensitivity' } } }, 'not_modifiable');
    await fails(state.mcp, 'complete_checkout_session', { meta: meta(), id: session.id, payload: { payment_data: paymentData('tok_sandbox_success') } }, 'not_modifiable');
    const other = await ready();
    const withTrace = await ok(state.mcp, 'cancel_checkout_session', { meta: meta(), id: other.id, payload: { intent_trace: { reason_code: 'timing_deferred', trace_summary: 'Later.' } } });
    assert.equal(withTrace.session.status, 'canceled');
  });

  it('meta.api_version is required and must be the version served; nothing is created without it', async () => {
    const payload = { line_items: items('TEN'), currency: 'eur', capabilities: {} };
    const before = await sessionCount(state.testApp);
    await fails(state.mcp, 'create_checkout_session', { payload }, 'missing_api_version');
    await fails(state.mcp, 'create_checkout_session', { meta: { idempotency_key: 'no-version' }, payload }, 'missing_api_version');
    const unsupported = await fails(state.mcp, 'create_checkout_session', { meta: meta({ api_version: '2026-01-16' }), payload }, 'unsupported_api_version');
    assert.match(unsupported.message, /2026-04-17/);
    const session = await ready();
    await fails(state.mcp, 'get_checkout_session', { meta: meta({ api_version: '2025-09-29' }), id: session.id }, 'unsupported_api_version');
    assert.equal(await sessionCount(state.testApp), before + 1);
  });

  it('idempotency: a replay answers the first result, over MCP and across REST and MCP; another payload under the key is idempotency_conflict', async () => {
    const payload = { line_items: items('TEN'), currency: 'eur', capabilities: {} };
    const first = await create(payload, { idempotency_key: 'mcp-replay-1' });
    const replay = await create({ capabilities: {}, currency: 'eur', line_items: items('TEN') }, { idempotency_key: 'mcp-replay-1' });
    assert.equal(replay.text, first.text);
    assert.deepEqual(first.meta, { idempotency_key: 'mcp-replay-1' });
    assert.deepEqual(replay.meta, { idempotency_key: 'mcp-replay-1', idempotent_replayed: true });
    await fails(state.mcp, 'create_checkout_session', { meta: meta({ idempotency_key: 'mcp-replay-1' }), payload: { ...payload, currency: 'gbp' } }, 'idempotency_conflict');
    // Without a key, each call is a new session, as the binding leaves the key optional.
    const unkeyed = [await create(payload), await create(payload)];
    assert.notEqual(unkeyed[0]!.session.id, unkeyed[1]!.session.id);

    const overRest = await acp('createCheckoutSession', 'POST', '/checkout_sessions', { token: state.token, body: payload, headers: { 'idempotency-key': 'rest-then-mcp' } });
    const overMcp = await create(payload, { idempotency_key: 'rest-then-mcp' });
    assert.equal(overMcp.text, overRest.body);
    assert.equal(overMcp.meta?.idempotent_replayed, true);

    const session = await ready();
    const orders = await orderCount(state.testApp);
    const declined = { payment_data: paymentData('tok_sandbox_decline_generic') };
    const refused = await fails(state.mcp, 'complete_checkout_session', { meta: meta({ idempotency_key: 'mcp-then-rest' }), id: session.id, payload: declined }, 'payment_declined');
    const replayedOverRest = await acp('completeCheckoutSession', 'POST', `/checkout_sessions/${session.id}/complete`, { token: state.token, body: declined, headers: { 'idempotency-key': 'mcp-then-rest' } });
    assert.equal(replayedOverRest.statusCode, 402);
    assert.equal(replayedOverRest.headers['idempotent-replayed'], 'true');
    assert.equal(replayedOverRest.data.message, refused.data.message);
    const paid = { meta: meta({ idempotency_key: 'mcp-pay-twice' }), id: session.id, payload: { payment_data: paymentData('tok_sandbox_success') } };
    const completed = await ok(state.mcp, 'complete_checkout_session', paid);
    const again = await ok(state.mcp, 'complete_checkout_session', paid);
    assert.equal(again.text, completed.text);
    assert.equal(await orderCount(state.testApp), orders + 1);
  });

  it('an unknown item is invalid_item_id, its param pointing into the payload; an out-of-stock one stays with a message', async () => {
    const unknown = await fails(state.mcp, 'create_checkout_session', { meta: meta(), payload: { line_items: [{ id: state.ids.OIL }, { id: 'variant_nope' }], currency: 'eur', capabilities: {} } }, 'invalid_item_id');
    assert.equal(unknown.data.param, '$.payload.line_items[1].id');
    const soldOut = await create({ line_items: items('OIL', 'SOLD-OUT'), currency: 'eur', capabilities: {} });
    assert.equal(soldOut.session.messages.find((message: any) => message.code === 'out_of_stock').param, '$.line_items[1]');
  });

  it('a declined payment is payment_declined (param $.payload.payment_data), the session still payable', async () => {
    const session = await ready();
    const declined = await fails(state.mcp, 'complete_checkout_session', { meta: meta(), id: session.id, payload: { payment_data: paymentData('tok_sandbox_decline_insufficient_funds') } }, 'payment_declined');
    assert.match(declined.message, /insufficient funds/);
    assert.equal(declined.data.param, '$.payload.payment_data');
    assert.equal((await ok(state.mcp, 'get_checkout_session', { meta: meta(), id: session.id })).session.status, 'ready_for_payment');
    const card = await fails(state.mcp, 'complete_checkout_session', { meta: meta(), id: session.id, payload: { payment_data: { ...paymentData('tok_sandbox_success'), billing_address: { ...ACP_ADDRESS, line_two: '4111 1111 1111 1111' } } } }, 'real_card_refused');
    assert.doesNotMatch(JSON.stringify(card), /4111/);
  });

  it("the key is the MCP request's: another key's session is not_found; no key or an unknown one is unauthorized; a key without checkout:create insufficient_scope", async () => {
    const session = await ready();
    const other = await connect(await state.testApp.newKey());
    await fails(other, 'get_checkout_session', { meta: meta(), id: session.id }, 'not_found');
    await fails(other, 'update_checkout_session', { meta: meta(), id: session.id, payload: { buyer: { email: 'eve@example.com' } } }, 'not_found');
    await fails(other, 'cancel_checkout_session', { meta: meta(), id: session.id }, 'not_found');
    await fails(state.mcp, 'get_checkout_session', { meta: meta(), id: 'sandbox_checkout_000000000000000000000000' }, 'not_found');
    const payload = { line_items: items('TEN'), currency: 'eur', capabilities: {} };
    const before = await sessionCount(state.testApp);
    await fails(await connect(undefined), 'create_checkout_session', { meta: meta(), payload }, 'unauthorized');
    await fails(await connect('sbx_test_00000000000000000000000000000000'), 'create_checkout_session', { meta: meta(), payload }, 'unauthorized');
    await fails(await connect(state.testApp.config.sandbox.publicKey), 'create_checkout_session', { meta: meta(), payload }, 'insufficient_scope');
    await fails(await connect(await state.testApp.newKey(['cart:write'])), 'get_checkout_session', { meta: meta(), id: session.id }, 'insufficient_scope');
    assert.equal(await sessionCount(state.testApp), before);
    assert.equal((await ok(state.mcp, 'get_checkout_session', { meta: meta(), id: session.id })).session.status, 'ready_for_payment');
  });

  it('arguments outside the release are invalid_request naming what is wrong, never an internal error', async () => {
    const payload = { line_items: items('TEN'), currency: 'eur', capabilities: {} };
    const cases: [string, string, Args][] = [
      ['no payload', 'create_checkout_session', { meta: meta() }],
      ['an argument the release does not define', 'create_checkout_session', { meta: meta(), payload, cart: {} }],
      ['a payload field the release does not define', 'create_checkout_session', { meta: meta(), payload: { ...payload, surprise: true } }],
      ['no currency', 'create_checkout_session', { meta: meta(), payload: { line_items: items('TEN'), capabilities: {} } }],
      ['a payload on get', 'get_checkout_session', { meta: meta(), id: 'sandbox_checkout_000000000000000000000000', payload: {} }],
      ['no id', 'update_checkout_session', { meta: meta(), payload: {} }],
      ['an empty id', 'get_checkout_session', { meta: meta(), id: '' }],
      ['an idempotency key that is not a string', 'create_checkout_session', { meta: meta({ idempotency_key: 42 }), payload }],
      ['a payload that is not an object', 'cancel_checkout_session', { meta: meta(), id: 'sandbox_checkout_000000000000000000000000', payload: 'now' }],
    ];
    for (const [what, tool, args] of cases) {
      const error = await fails(state.mcp, tool, args, 'invalid_request');
      assert.match(error.message, /Invalid arguments/, what);
    }
    await fails(state.mcp, 'create_checkout_session', { meta: meta(), payload: { ...payload, currency: 'xyz' } }, 'unsupported_currency');
  });
});

describe('ACP MCP binding with ACP_SIGNING_SECRET set', { skip }, () => {
  const secret = 'acp-test-signing-secret-0123456789';
  const { state } = useAcpMcp({ acp: { signingSecret: secret, signatureToleranceSeconds: 300, feedPush: undefined } });
  const signed = (payload: unknown, timestamp = state.testApp.clock().toISOString()) => ({ signature: acpSignature(secret, timestamp, payload === undefined ? '' : canonicalize(payload)!), timestamp });

  it('a call signed over `<timestamp>.<canonical payload>` is answered, whatever the order of the keys sent; get over an empty payload', async () => {
    const payload = { line_items: [{ id: state.ids.TEN }], currency: 'eur', capabilities: {} };
    const reordered = { capabilities: {}, currency: 'eur', line_items: [{ id: state.ids.TEN }] };
    const created = await ok(state.mcp, 'create_checkout_session', { meta: meta(signed(payload)), payload: reordered });
    await ok(state.mcp, 'get_checkout_session', { meta: meta(signed(undefined)), id: created.session.id });
    await ok(state.mcp, 'cancel_checkout_session', { meta: meta(signed(undefined)), id: created.session.id });
  });

  it('no signature, one over another payload, a stale or malformed timestamp: refused before anything runs', async () => {
    const payload = { line_items: [{ id: state.ids.TEN }], currency: 'eur', capabilities: {} };
    const stale = new Date(state.testApp.clock().getTime() - 301_000).toISOString();
    const before = await sessionCount(state.testApp);
    for (const [extra, code] of [
      [{}, 'signature_required'],
      [{ signature: signed(payload).signature }, 'signature_required'],
      [signed({ ...payload, currency: 'gbp' }), 'signature_invalid'],
      [{ ...signed(payload), timestamp: state.testApp.clock().toUTCString() }, 'timestamp_invalid'],
      [signed(payload, stale), 'timestamp_out_of_window'],
    ] as const) {
      await fails(state.mcp, 'create_checkout_session', { meta: meta(extra), payload }, code);
    }
    assert.equal(await sessionCount(state.testApp), before);
  });
});
