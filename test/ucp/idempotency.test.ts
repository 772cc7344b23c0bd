import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { IDEMPOTENCY_RETENTION_HOURS } from '../../src/sandbox/idempotency.js';
import type { CheckedResponse } from '../support/contract.js';
import { McpTestClient } from '../support/mcp-client.js';
import { SANDBOX_PRODUCTS } from '../support/sandbox.js';
import { startTestApp, useTestApp, type TestApp } from '../support/test-app.js';
import { testUcpOperations } from '../support/ucp-operations.js';
import { platformProfile, ucpAgent, ucpTestConfig, usePlatformServer, type PlatformServer } from '../support/ucp-platform.js';
import { FULFILLMENT, line, pay as paying, ucpShopper } from '../support/ucp-shopping.js';
import { assertValid, ucpValidator, type UcpValidator } from '../support/ucp-validator.js';

const { validator, skip } = await ucpValidator();

const HOUR_MS = 60 * 60 * 1000;

/** The release's validator's schema of a protocol error body (`{ code, content }`). */
const PROTOCOL_ERROR = 'urn:ucp-check:protocol-error-body';
const CHECKOUT_UCP = 'https://ucp.dev/schemas/ucp.json#/$defs/response_checkout_schema';
const ERROR_RESPONSE = 'https://ucp.dev/schemas/shopping/types/error_response.json';

let checkouts = 0;
/** A checkout id no other test uses: the test operation counts its runs per checkout. */
const newCheckout = () => `chk_${++checkouts}_${randomUUID().slice(0, 8)}`;

/** Checks a UCP answer of the test operation with the release's schemas: a resource's `ucp`, an outcome, or a protocol error. */
function assertUcpAnswer(validator: UcpValidator, status: number, body: any, what: string): void {
  if (status >= 400) assertValid(validator.validateSchema(PROTOCOL_ERROR, body), what);
  else if (body.ucp.status === 'error') assertValid(validator.validateSchema(ERROR_RESPONSE, body), what);
  else assertValid(validator.validateSchema(CHECKOUT_UCP, body.ucp), what);
}

/** A platform profile path served with every capability. */
function goodProfile(platform: PlatformServer): string {
  platform.serve('/good.json', { body: platformProfile() });
  return platform.url('/good.json');
}

describe('UCP idempotency over REST', { skip }, () => {
  const platform = usePlatformServer();
  const testApp = useTestApp({ config: { ucp: ucpTestConfig() }, ucpOperations: testUcpOperations });
  let token: string;
  let profile: string;
  before(async () => {
    token = await testApp.newKey();
    profile = goodProfile(platform);
  });

  /** Pays `checkout` as the platform at `profileUrl`, with an idempotency key when given; every answer validated. */
  async function pay(
    checkout: string,
    body: object,
    idempotencyKey: string | undefined,
    { key = token, profileUrl = profile }: { key?: string; profileUrl?: string } = {},
  ): Promise<CheckedResponse> {
    const response = await testApp.call(key, 'POST', `/ucp/v1/test/checkouts/${checkout}/payments`, body, {
      'ucp-agent': ucpAgent(profileUrl),
      ...(idempotencyKey !== undefined && { 'idempotency-key': idempotencyKey }),
    });
    assertUcpAnswer(validator!, response.statusCode, response.data, `${response.statusCode} ${response.body}`);
    return response;
  }

  it('a retry with the same key gets the first answer byte for byte, marked as a replay, and the operation runs once', async () => {
    const checkout = newCheckout();
    const key = randomUUID();
    const first = await pay(checkout, { amount: 500 }, key);
    const retry = await pay(checkout, { amount: 500 }, key);
    assert.equal(first.statusCode, 201, first.body);
    assert.equal(first.data.runs, 1);
    assert.equal(first.headers['idempotent-replayed'], undefined);
    assert.equal(retry.statusCode, 201);
    assert.equal(retry.body, first.body);
    assert.equal(retry.headers['idempotent-replayed'], 'true');
    // A new key runs it: the count shows the retry did not.
    assert.equal((await pay(checkout, { amount: 500 }, randomUUID())).data.runs, 2);
  });

  it('without a key every call runs', async () => {
    const checkout = newCheckout();
    const runs = [];
    for (let i = 0; i < 3; i++) runs.push((await pay(checkout, { amount: 500 }, undefined)).data.runs);
    assert.deepEqual(runs, [1, 2, 3]);
  });

  it('a business outcome is recorded and replayed: 200, ucp.status error, the same messages', async () => {
    const checkout = newCheckout();
    const key = randomUUID();
    const first = await pay(checkout, { amount: 500, outcome: 'declined' }, key);
    const retry = await pay(checkout, { amount: 500, outcome: 'declined' }, key);
    assert.equal(first.statusCode, 200, first.body);
    assert.equal(first.data.ucp.status, 'error');
    assert.equal(first.data.messages[0].content, 'Declined on run 1.');
    assert.deepEqual([retry.statusCode, retry.body, retry.headers['idempotent-replayed']], [200, first.body, 'true']);
  });

  it('a refusal is recorded and replayed: the same status and { code, content }', async () => {
    const checkout = newCheckout();
    const key = randomUUID();
    const first = await pay(checkout, { amount: 500, outcome: 'refused' }, key);
    const retry = await pay(checkout, { amount: 500, outcome: 'refused' }, key);
    assert.deepEqual([first.statusCode, first.data], [403, { code: 'test_refused', content: 'Refused on run 1.' }]);
    assert.deepEqual([retry.statusCode, retry.body, retry.headers['idempotent-replayed']], [403, first.body, 'true']);
    assert.equal(retry.headers['cache-control'], 'no-store');
  });

  it('409 idempotency_conflict for the same key with another payload or another resource id; the record stays', async () => {
    const checkout = newCheckout();
    const key = randomUUID();
    const first = await pay(checkout, { amount: 500 }, key);
    for (const [target, body] of [
      [checkout, { amount: 501 }],
      [checkout, { amount: 500, outcome: 'declined' }],
      [newCheckout(), { amount: 500 }],
    ] as const) {
      const conflict = await pay(target, body, key);
      assert.equal(conflict.statusCode, 409, conflict.body);
      assert.equal(conflict.data.code, 'idempotency_conflict');
      assert.match(conflict.data.content, /test_pay_checkout/);
      assert.equal(conflict.headers['idempotent-replayed'], undefined);
    }
    const retry = await pay(checkout, { amount: 500 }, key);
    assert.equal(retry.body, first.body);
  });

  it('the payload is compared, not its spelling: members in another order are the same call', async () => {
    const checkout = newCheckout();
    const key = randomUUID();
    const first = await pay(checkout, { amount: 500, outcome: 'declined' }, key);
    const retry = await pay(checkout, { outcome: 'declined', amount: 500 }, key);
    assert.equal(retry.body, first.body);
  });

  it('another sandbox key does not see the first key\'s record', async () => {
    const checkout = newCheckout();
    const key = randomUUID();
    await pay(checkout, { amount: 500 }, key);
    const theirs = await pay(checkout, { amount: 500 }, key, { key: await testApp.newKey() });
    assert.equal(theirs.statusCode, 201);
    assert.equal(theirs.data.runs, 2);
    assert.equal(theirs.headers['idempotent-replayed'], undefined);
  });

  it('concurrent duplicates run once and all get its answer', async () => {
    const checkout = newCheckout();
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 12 }, () => pay(checkout, { amount: 500 }, key)));
    assert.deepEqual(new Set(answers.map((answer) => answer.body)).size, 1);
    assert.equal(answers[0]!.data.runs, 1);
    assert.equal(answers.filter((answer) => answer.headers['idempotent-replayed'] === 'true').length, 11);
  });

  it(`the record is kept for ${IDEMPOTENCY_RETENTION_HOURS} h`, async () => {
    const checkout = newCheckout();
    const key = randomUUID();
    const first = await pay(checkout, { amount: 500 }, key);
    // The sandbox key itself expires 24 h after it was made, so the latest retry is just before.
    testApp.advanceClock((IDEMPOTENCY_RETENTION_HOURS - 1) * HOUR_MS);
    try {
      const retry = await pay(checkout, { amount: 500 }, key);
      assert.equal(retry.body, first.body);
    } finally {
      testApp.advanceClock(-(IDEMPOTENCY_RETENTION_HOURS - 1) * HOUR_MS);
    }
  });

  it('negotiation comes first: a failure is never recorded, and a retry that fails it gets the failure, not the replay', async () => {
    const checkout = newCheckout();
    const key = randomUUID();
    const unreachable = await pay(checkout, { amount: 500 }, key, { profileUrl: platform.url('/missing.json') });
    assert.equal(unreachable.statusCode, 424);
    const first = await pay(checkout, { amount: 500 }, key);
    assert.equal(first.statusCode, 201);
    assert.equal(first.data.runs, 1);
    assert.equal((await pay(checkout, { amount: 500 }, key, { profileUrl: platform.url('/missing.json') })).statusCode, 424);
  });

  it('a key that is not a UUID is 400 invalid_request, and nothing runs', async () => {
    const checkout = newCheckout();
    const refused = await pay(checkout, { amount: 500 }, 'retry-1');
    assert.equal(refused.statusCode, 400);
    assert.equal(refused.data.code, 'invalid_request');
    assert.match(refused.data.content, /idempotency-key/);
    assert.equal((await pay(checkout, { amount: 500 }, randomUUID())).data.runs, 1);
  });

  it("every operation of the release's OpenAPI served here takes the Idempotency-Key header exactly where the release does", async () => {
    const document = (await testApp.client.get('/openapi.json')).data;
    let compared = 0;
    for (const [path, methods] of Object.entries<Record<string, any>>(document.paths)) {
      if (!path.startsWith('/ucp/v1/')) continue;
      for (const operation of Object.values(methods)) {
        const release = validator!.findRestOp(operation.operationId);
        if (!release) continue;
        const takesKey = operation.parameters.some((parameter: { in: string; name: string }) => parameter.in === 'header' && parameter.name === 'idempotency-key');
        assert.equal(takesKey, release.headers.some((header) => header.name === 'Idempotency-Key'), operation.operationId);
        compared++;
      }
    }
    assert.equal(compared, validator!.mcpTools.length, 'every operation of the release is served (its MCP tools name them)');
  });

  it('/openapi.json states the headers as the release does: Idempotency-Key and Request-Id UUIDs, the key optional, the retention and the 409', async () => {
    const document = (await testApp.client.get('/openapi.json')).data;
    const release = validator!.findRestOp('complete_checkout')!.headers;
    const releaseSchema = (name: string) => release.find((header) => header.name === name)!.schema as { format: string };
    const operation = document.paths['/ucp/v1/test/checkouts/{id}/payments'].post;
    const header = (name: string) => operation.parameters.find((parameter: { in: string; name: string }) => parameter.in === 'header' && parameter.name === name);
    assert.equal(header('idempotency-key').required, false);
    assert.equal(header('idempotency-key').schema.format, releaseSchema('Idempotency-Key').format);
    assert.match(header('idempotency-key').description, new RegExp(`kept ${IDEMPOTENCY_RETENTION_HOURS} h`));
    assert.equal(header('request-id').schema.format, releaseSchema('Request-Id').format);
    assert.match(operation.responses['409'].description, /idempotency_conflict/);
    const note = document.paths['/ucp/v1/test/carts/{id}'].post;
    assert.equal(note.parameters.some((parameter: { name: string }) => parameter.name === 'idempotency-key'), false);
    assert.equal(note.responses['409'].description, 'conflict: never (test).');
  });
});

describe('Request-Id over REST', { skip }, () => {
  const platform = usePlatformServer();
  const lines: string[] = [];
  let testApp: TestApp;
  let profile: string;
  before(async () => {
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    testApp = await startTestApp({ logger: { level: 'info', stream }, config: { ucp: ucpTestConfig() }, ucpOperations: testUcpOperations });
    profile = goodProfile(platform);
  });
  after(() => testApp.close());

  const note = (agent: string, headers: Record<string, string>) =>
    testApp.client.request({ method: 'POST', url: '/ucp/v1/test/carts/cart_1', headers: { 'ucp-agent': agent, ...headers }, payload: { note: 'hi' } });

  it("is echoed on the answer and logged with every line of the request, beside the service's own id", async () => {
    const platformId = randomUUID();
    const response = await note(ucpAgent(profile), { 'request-id': platformId });
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.headers['request-id'], platformId);
    const logged = lines.map((line) => JSON.parse(line) as { reqId?: string; ucpRequestId?: string; msg: string }).filter((line) => line.reqId === response.headers['x-request-id']);
    assert.deepEqual(
      logged.map((line) => [line.msg, line.ucpRequestId]),
[['request completed', platformId]],
    );
  });

  it('is echoed on a refusal too', async () => {
    const platformId = randomUUID();
    const refused = await note(ucpAgent(platform.url('/missing.json')), { 'request-id': platformId });
    assert.equal(refused.statusCode, 424);
    assertValid(validator!.validateSchema(PROTOCOL_ERROR, refused.data), 'the refusal');
    assert.equal(refused.headers['request-id'], platformId);
  });

  it('one that is not a UUID is 400 invalid_request, neither echoed nor logged', async () => {
    const refused = await note(ucpAgent(profile), { 'request-id': 'trace-me' });
    assert.equal(refused.statusCode, 400);
    assert.equal(refused.data.code, 'invalid_request');
    assert.match(refused.data.content, /request-id/);
    assert.equal(refused.headers['request-id'], undefined);
    assert.equal(lines.filter((line) => line.includes('trace-me')).length, 0);
  });

  it('without one, the answer carries none', async () => {
    const response = await note(ucpAgent(profile), {});
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers['request-id'], undefined);
  });
});

describe("UCP idempotency over MCP, and across the bindings on the release's carts", { skip }, () => {
  const platform = usePlatformServer();
  const shopper = ucpShopper(() => testApp, platform, () => validator!);
  const ids: Record<string, string> = {};
  let testApp: TestApp;
  let token: string;
  let mcp: McpTestClient;
  let profile: string;
  before(async () => {
    testApp = await startTestApp({ catalog: SANDBOX_PRODUCTS, config: { ucp: ucpTestConfig() }, ucpOperations: testUcpOperations });
    const base = await testApp.app.listen({ port: 0, host: '127.0.0.1' });
    token = await testApp.newKey();
    mcp = await McpTestClient.connect(`${base}/ucp/mcp`, { token });
    profile = goodProfile(platform);
    for (const sku of ['OIL', 'TEN', 'SOLD-OUT']) ids[sku] = await testApp.variantId(sku);
  });
  after(async () => {
    await mcp?.close();
    await testApp?.close();
  });

  const meta = (idempotencyKey?: string) => ({ 'ucp-agent': { profile }, ...(idempotencyKey !== undefined && { 'idempotency-key': idempotencyKey }) });

  /** Pays over MCP; a result or a JSON-RPC error, each validated. */
  async function pay(checkout: string, body: object, idempotencyKey: string | undefined) {
    const outcome = await mcp.callOrError('test_pay_checkout', { meta: meta(idempotencyKey), id: checkout, checkout: body });
    if (outcome.error) assertValid(validator!.validateMcpError(outcome.error), `the JSON-RPC error ${JSON.stringify(outcome.error)}`);
    else {
      assert.deepEqual(JSON.parse(outcome.result.content[0].text), outcome.result.structuredContent);
      assertUcpAnswer(validator!, 200, outcome.result.structuredContent, JSON.stringify(outcome.result.structuredContent));
    }
    return outcome;
  }

  /** The same call over REST. */
  const payOverRest = (checkout: string, body: object, idempotencyKey: string) =>
    testApp.call(token, 'POST', `/ucp/v1/test/checkouts/${checkout}/payments`, body, { 'ucp-agent': ucpAgent(profile), 'idempotency-key': idempotencyKey });

  it("tools/list: meta requires the key where the operation says so, a UUID; the other tools' meta does not", async () => {
    const { tools } = await mcp.client.listTools();
    const metaOf = (name: string) => (tools.find((tool) => tool.name === name)!.inputSchema.properties as any).meta;
    assert.deepEqual(metaOf('test_pay_checkout').required.sort(), ['idempotency-key', 'ucp-agent']);
    assert.equal(metaOf('test_pay_checkout').properties['idempotency-key'].format, 'uuid');
    assert.match(metaOf('test_pay_checkout').properties['idempotency-key'].description, new RegExp(`kept ${IDEMPOTENCY_RETENTION_HOURS} h`));
    assert.deepEqual(metaOf('test_note_cart').required, ['ucp-agent']);
  });

  it("every tool of the release listed here requires the key exactly where the release's metadata does", async () => {
    const { tools } = await mcp.client.listTools();
    const released = tools.filter((tool) => validator!.mcpTools.includes(tool.name));
    assert.deepEqual(released.map((tool) => tool.name).sort(), [...validator!.mcpTools].sort(), 'every tool of the release is listed');
    for (const tool of released) {
      const meta = (tool.inputSchema.properties as any).meta;
      const withoutKey = validator!.validateMcpArguments(tool.name, { meta: { 'ucp-agent': { profile } } }).errors;
      const releaseRequires = withoutKey.some((error) => /meta missing required "idempotency-key"/.test(error));
      assert.equal(meta.required.includes('idempotency-key'), releaseRequires, tool.name);
      assert.equal(meta.properties['idempotency-key'].format, 'uuid', tool.name);
    }
  });

  it('a required key missing, or not a UUID, is -32602 invalid_request, and nothing runs', async () => {
    const checkout = newCheckout();
    for (const key of [undefined, 'retry-1']) {
      const { error } = await pay(checkout, { amount: 500 }, key);
      assert.equal(error?.code, -32602);
      assert.equal(error.data.code, 'invalid_request');
      assert.match(error.data.content, /idempotency-key/);
    }
    assert.equal((await pay(checkout, { amount: 500 }, randomUUID())).result.structuredContent.runs, 1);
  });

  it('a retry gets the same structuredContent, and the operation runs once', async () => {
    const checkout = newCheckout();
    const key = randomUUID();
    const first = await pay(checkout, { amount: 700 }, key);
    const retry = await pay(checkout, { amount: 700 }, key);
    assert.equal(first.result.structuredContent.runs, 1);
    assert.deepEqual(retry.result.structuredContent, first.result.structuredContent);
    assert.equal((await pay(checkout, { amount: 700 }, randomUUID())).result.structuredContent.runs, 2);
  });

  it('a recorded business outcome is the same result; a recorded refusal the same JSON-RPC error (-32000)', async () => {
    const checkout = newCheckout();
    const declinedKey = randomUUID();
    const declined = await pay(checkout, { amount: 700, outcome: 'declined' }, declinedKey);
    assert.equal(declined.result.structuredContent.messages[0].content, 'Declined on run 1.');
    assert.deepEqual((await pay(checkout, { amount: 700, outcome: 'declined' }, declinedKey)).result.structuredContent, declined.result.structuredContent);
    const refusedKey = randomUUID();
    const refused = await pay(checkout, { amount: 700, outcome: 'refused' }, refusedKey);
    assert.deepEqual([refused.error?.code, refused.error?.data], [-32000, { code: 'test_refused', content: 'Refused on run 2.' }]);
    assert.deepEqual((await pay(checkout, { amount: 700, outcome: 'refused' }, refusedKey)).error, refused.error);
  });

  it('the same key with another payload or resource id is -32000 idempotency_conflict', async () => {
    const checkout = newCheckout();
    const key = randomUUID();
    await pay(checkout, { amount: 700 }, key);
    for (const [target, body] of [
      [checkout, { amount: 1 }],
      [newCheckout(), { amount: 700 }],
    ] as const) {
      const { error } = await pay(target, body, key);
      assert.equal(error?.code, -32000);
      assert.equal(error.data.code, 'idempotency_conflict');
    }
  });

  it('REST and MCP share the key: a call over one is replayed to a retry over the other', async () => {
    const overRestFirst = newCheckout();
    const restKey = randomUUID();
    const rest = await payOverRest(overRestFirst, { amount: 900 }, restKey);
    assert.equal(rest.statusCode, 201, rest.body);
    assert.deepEqual((await pay(overRestFirst, { amount: 900 }, restKey)).result.structuredContent, rest.data);

    const overMcpFirst = newCheckout();
    const mcpKey = randomUUID();
    const viaMcp = await pay(overMcpFirst, { amount: 900 }, mcpKey);
    const retry = await payOverRest(overMcpFirst, { amount: 900 }, mcpKey);
    assert.deepEqual([retry.statusCode, retry.headers['idempotent-replayed'], retry.data], [201, 'true', viaMcp.result.structuredContent]);
    assert.equal(retry.data.runs, 1);

    const conflict = await payOverRest(overMcpFirst, { amount: 901 }, mcpKey);
    assert.deepEqual([conflict.statusCode, conflict.data.code], [409, 'idempotency_conflict']);
  });

  const cartCount = async () => Number((await testApp.store.db.selectFrom('sandbox_carts').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  const createCart = (body: object, key: string) => shopper.rest('create_cart', 'POST', '/carts', { token, body, headers: { 'idempotency-key': key } });

  it('create_cart: a retry makes no second cart and gets the first answer; another body is 409', async () => {
    const key = randomUUID();
    const before = await cartCount();
    const first = await createCart({ line_items: [line(ids.OIL!, 1)] }, key);
    const retry = await createCart({ line_items: [line(ids.OIL!, 1)] }, key);
    assert.equal(first.statusCode, 201, first.body);
    assert.deepEqual([retry.statusCode, retry.body, retry.headers['idempotent-replayed']], [201, first.body, 'true']);
    assert.equal(await cartCount(), before + 1);
    const conflict = await createCart({ line_items: [line(ids.OIL!, 2)] }, key);
    assert.deepEqual([conflict.statusCode, conflict.data.code], [409, 'idempotency_conflict']);
    assert.equal(await cartCount(), before + 1);
  });

  it('create_cart: an outcome without a cart (nothing can be bought) is recorded and replayed', async () => {
    const key = randomUUID();
    const first = await createCart({ line_items: [line(ids['SOLD-OUT']!, 1)] }, key);
    assert.deepEqual([first.statusCode, first.data.ucp.status], [200, 'error']);
    const retry = await createCart({ line_items: [line(ids['SOLD-OUT']!, 1)] }, key);
    assert.deepEqual([retry.statusCode, retry.body, retry.headers['idempotent-replayed']], [200, first.body, 'true']);
  });

  it('the same key on another operation is another call', async () => {
    const key = randomUUID();
    const created = await createCart({ line_items: [line(ids.OIL!, 1)] }, key);
    const updated = await shopper.rest('update_cart', 'PUT', `/carts/${created.data.id}`, {
      token,
      body: { line_items: [line(ids.TEN!, 2)] },
      headers: { 'idempotency-key': key },
    });
    assert.equal(updated.statusCode, 200, updated.body);
    assert.equal(updated.headers['idempotent-replayed'], undefined);
    assert.deepEqual(
      updated.data.line_items.map((item: any) => [item.item.id, item.quantity]),
      [[ids.TEN, 2]],
    );
  });

  it('cancel_cart: over MCP the key is required; a retry over REST replays the cancellation instead of answering not_found', async () => {
    const created = await createCart({ line_items: [line(ids.OIL!, 1)] }, randomUUID());
    const withoutKey = await shopper.mcp(mcp, 'cancel_cart', { meta: shopper.meta(), id: created.data.id });
    assert.deepEqual([withoutKey.error?.code, withoutKey.error?.data.code], [-32602, 'invalid_request']);
    const key = randomUUID();
    const canceled = await shopper.mcp(mcp, 'cancel_cart', { meta: shopper.meta('all', { 'idempotency-key': key }), id: created.data.id });
    assert.equal(canceled.result?.id, created.data.id);
    const retry = await shopper.rest('cancel_cart', 'POST', `/carts/${created.data.id}/cancel`, { token, headers: { 'idempotency-key': key } });
    assert.deepEqual([retry.statusCode, retry.headers['idempotent-replayed'], retry.data], [200, 'true', canceled.result]);
    const again = await shopper.rest('cancel_cart', 'POST', `/carts/${created.data.id}/cancel`, { token, headers: { 'idempotency-key': randomUUID() } });
    assert.equal(again.data.messages[0].code, 'not_found');
  });
  it('create_checkout and complete_checkout: a replayed completion makes one order and one order event; another payment under its key is 409', async () => {
    // A platform with an order webhook, so each completion writes its event (sent nowhere: plain http is refused when sending).
    const declared = platformProfile({ webhookUrl: platform.url('/orders') });
    platform.serve('/with-webhook.json', { body: declared });
    const agent = { profile: platform.url('/with-webhook.json') };
    const { capabilities } = validator!.negotiate((await testApp.client.get('/.well-known/ucp')).data, declared);
    const rest = async (operation: string, path: string, body: object, idempotencyKey: string) => {
      const response = await testApp.call(token, 'POST', `/ucp/v1${path}`, body, { 'ucp-agent': ucpAgent(agent.profile), 'idempotency-key': idempotencyKey });
      assertValid(validator!.validateRest(operation, response.statusCode, response.data, { capabilities }), `${operation} ${response.statusCode}`);
      return response;
    };
    const count = async (table: 'sandbox_checkouts' | 'sandbox_orders' | 'webhook_deliveries') =>
      Number((await testApp.store.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

    const checkouts = await count('sandbox_checkouts');
    const createKey = randomUUID();
    const order = {
      line_items: [line(ids.OIL!, 1)],
      fulfillment: FULFILLMENT,
    };
    const created = await rest('create_checkout', '/checkout-sessions', order, createKey);
    const createdAgain = await rest('create_checkout', '/checkout-sessions', order, createKey);
    assert.equal(created.statusCode, 201, created.body);
    assert.equal(created.data.status, 'ready_for_complete', created.body);
    assert.deepEqual([createdAgain.statusCode, createdAgain.body, createdAgain.headers['idempotent-replayed']], [201, created.body, 'true']);
    assert.equal(await count('sandbox_checkouts'), checkouts + 1);

    const [orders, events] = [await count('sandbox_orders'), await count('webhook_deliveries')];
    const completeKey = randomUUID();
    const overMcp = await mcp.client.callTool({ name: 'complete_checkout', arguments: { meta: { 'ucp-agent': agent, 'idempotency-key': completeKey }, id: created.data.id, checkout: paying('tok_sandbox_success') } });
    assertValid(validator!.validateMcpResult('complete_checkout', overMcp, { capabilities }), 'complete_checkout result');
    const completed = overMcp.structuredContent as Record<string, any>;
    assert.equal(completed.status, 'completed', JSON.stringify(completed));
    const retry = await rest('complete_checkout', `/checkout-sessions/${created.data.id}/complete`, paying('tok_sandbox_success'), completeKey);
    assert.deepEqual([retry.statusCode, retry.headers['idempotent-replayed'], retry.data], [200, 'true', completed]);
    assert.deepEqual([await count('sandbox_orders'), await count('webhook_deliveries')], [orders + 1, events + 1]);

    const conflict = await rest('complete_checkout', `/checkout-sessions/${created.data.id}/complete`, paying('tok_sandbox_decline_generic'), completeKey);
    assert.deepEqual([conflict.statusCode, conflict.data.code], [409, 'idempotency_conflict']);
  });

  it('complete_checkout: a declined payment is recorded; its retry is declined again without a second attempt, a new key pays', async () => {
    const created = await shopper.rest('create_checkout', 'POST', '/checkout-sessions', { token, body: { line_items: [line(ids.OIL!, 1)], fulfillment: FULFILLMENT } });
    const complete = (paymentToken: string, idempotencyKey: string) =>
      shopper.rest('complete_checkout', 'POST', `/checkout-sessions/${created.data.id}/complete`, {
        token,
        body: paying(paymentToken),
        headers: { 'idempotency-key': idempotencyKey },
      });
    const key = randomUUID();
    const declined = await complete('tok_sandbox_decline_generic', key);
    assert.notEqual(declined.data.status, 'completed', declined.body);
    assert.ok(declined.data.messages.some((message: any) => message.code === 'payment_failed'), declined.body);
    const retry = await complete('tok_sandbox_decline_generic', key);
    assert.deepEqual([retry.statusCode, retry.body, retry.headers['idempotent-replayed']], [declined.statusCode, declined.body, 'true']);
    assert.equal((await complete('tok_sandbox_success', randomUUID())).data.status, 'completed');
  });
});
