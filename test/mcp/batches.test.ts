import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { startTestApp, type TestApp, type TestConfigOverrides } from '../support/test-app.js';

// JSON-RPC batches (docs/decisions.md, MCP batches): only under protocol revision
// 2025-03-26, each message counted once against every limit it meets, bounded in
// messages and answer bytes, and run one message per event-loop turn.

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const BATCH_REVISION = '2025-03-26';

type Message = { jsonrpc: '2.0'; id?: number; method: string; params?: object };
type Answer = { id: number; result?: { isError?: boolean; content: { text: string }[] }; error?: { code: number; message: string; data?: { code: string } } };

const ping = (id: number): Message => ({ jsonrpc: '2.0', id, method: 'ping' });
const call = (id: number, name: string, args: object = {}): Message => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
const many = (count: number, message: (id: number) => Message) => Array.from({ length: count }, (_, index) => message(index + 1));

function postBatch(app: FastifyInstance, url: string, messages: Message[] | Message, options: { revision?: string; remoteAddress?: string } = {}) {
  const { revision = BATCH_REVISION, remoteAddress = '203.0.113.10' } = options;
  return app.inject({ method: 'POST', url, payload: messages, remoteAddress, headers: { ...HEADERS, ...(revision && { 'mcp-protocol-version': revision }) } });
}

/** The error string a tool error carries (the surface's REST error body), or undefined for a result. */
function toolErrorOf(answer: Answer): string | undefined {
  if (!answer.result?.isError) return undefined;
  const body = JSON.parse(answer.result.content[0]!.text) as { error: string | { data?: { code: string } } };
  return typeof body.error === 'string' ? body.error : body.error.data?.code;
}

function batchApp(config: TestConfigOverrides) {
  const holder = { testApp: undefined as unknown as TestApp };
  before(async () => {
    holder.testApp = await startTestApp({ config });
  });
  after(() => holder.testApp.close());
  return holder;
}

describe('MCP batches: protocol revisions', () => {
  const holder = batchApp({});

  it(`a batch is served under ${BATCH_REVISION}, the only revision that has batches (also when the header is absent: its default)`, async () => {
    for (const revision of [BATCH_REVISION, '']) {
      const response = await postBatch(holder.testApp.app, '/mcp', [ping(1), ping(2)], { revision });
      assert.equal(response.statusCode, 200, response.body);
      assert.deepEqual(
        (response.json() as Answer[]).map((answer) => answer.id),
        [1, 2],
      );
    }
  });

  for (const revision of ['2025-06-18', '2025-11-25']) {
    it(`a batch under ${revision} (which removed batching) is 400 with the JSON-RPC invalid request error, on both servers`, async () => {
      for (const url of ['/mcp', '/mcp/sandbox']) {
        const response = await postBatch(holder.testApp.app, url, [ping(1), ping(2)], { revision });
        assert.equal(response.statusCode, 400, `${url}: ${response.body}`);
        assert.equal(response.json().error.code, -32600);
        assert.match(response.json().error.message, new RegExp(`${revision}.*${BATCH_REVISION}`));
      }
    });
  }

  it('a batch whose initialize asks for a revision without batches is 400 as well', async () => {
    const initialize: Message = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } } };
    const response = await postBatch(holder.testApp.app, '/mcp', [initialize], { revision: '' });
    assert.equal(response.statusCode, 400, response.body);
    assert.equal(response.json().error.code, -32600);
  });

  it('a batch holding something other than JSON-RPC messages is 400, whatever its revision, never a 500', async () => {
    for (const revision of [BATCH_REVISION, '', '2025-11-25']) {
      const response = await holder.testApp.app.inject({
        method: 'POST',
        url: '/mcp',
        payload: '[null, 1, "initialize", {"method": "initialize", "params": null}]',
        headers: { ...HEADERS, ...(revision && { 'mcp-protocol-version': revision }) },
      });
      assert.equal(response.statusCode, 400, `${revision}: ${response.body}`);
      assert.equal(response.json().jsonrpc, '2.0');
    }
  });
});

describe('MCP batches: every message counts against the catalog window', () => {
  const LIMIT = 10;
  const holder = batchApp({ catalogRateLimit: LIMIT, sandbox: { keyRateLimit: 20 } });

  it('a batch of N costs N; a batch larger than what is left is 429 without running any of its calls', async () => {
    const { app } = holder.testApp;
    const first = await postBatch(app, '/mcp', many(4, ping));
    assert.equal(first.statusCode, 200, first.body);
    assert.equal(first.headers['ratelimit-limit'], String(LIMIT));
    assert.equal(first.headers['ratelimit-remaining'], String(LIMIT - 4));
    const catalog = await app.inject({ url: '/public/v1/products?limit=1', remoteAddress: '203.0.113.10' });
    assert.equal(catalog.headers['ratelimit-remaining'], String(LIMIT - 5));

    // 5 left: 6 key creations are refused whole, and no key is issued.
    const refused = await postBatch(app, '/mcp/sandbox', many(6, (id) => call(id, 'create_sandbox_key')));
    assert.equal(refused.statusCode, 429, refused.body);
    assert.equal(refused.headers['ratelimit-remaining'], '0');
    assert.equal(refused.headers['retry-after'], refused.headers['ratelimit-reset']);
    assert.equal(refused.json().error.data.code, 'RATE_LIMITED');
    const key = await app.inject({ method: 'POST', url: '/sandbox/v1/keys', payload: {}, remoteAddress: '203.0.113.10' });
    assert.equal(key.statusCode, 201, key.body);
    assert.equal(key.headers['ratelimit-remaining'], '19', 'the refused batch issued no key');

    // Its messages counted (as a refused request does): the window is spent.
    assert.equal((await postBatch(app, '/mcp', ping(1))).statusCode, 429);
  });
});

describe('MCP batches: bounds', () => {
  const MAX_MESSAGES = 5;
  const MAX_ANSWER_BYTES = 32_768;
  const holder = batchApp({ mcpBatch: { maxMessages: MAX_MESSAGES, maxAnswerBytes: MAX_ANSWER_BYTES } });

  it('a batch of more messages than the bound is 400 (invalid request) naming the bound, and runs none of them', async () => {
    const response = await postBatch(holder.testApp.app, '/mcp', many(MAX_MESSAGES + 1, ping));
    assert.equal(response.statusCode, 400, response.body);
    assert.equal(response.json().error.code, -32600);
    assert.match(response.json().error.message, new RegExp(`at most ${MAX_MESSAGES} messages`));
    assert.equal((await postBatch(holder.testApp.app, '/mcp', many(MAX_MESSAGES, ping))).statusCode, 200);
  });

  it('calls whose answers would take the batch past its answer bound are refused, each with its id, and the answer stays within it', async () => {
    const response = await postBatch(holder.testApp.app, '/mcp', many(MAX_MESSAGES, (id) => call(id, 'search_catalog', { limit: 3 })));
    assert.equal(response.statusCode, 200, response.body);
    const answers = response.json() as Answer[];
    assert.deepEqual(
      answers.map((answer) => answer.id),
      [1, 2, 3, 4, 5],
    );
    const served = answers.filter((answer) => answer.result && !answer.result.isError);
    const refused = answers.filter((answer) => answer.error);
    assert.ok(served.length >= 1, 'the first answer fits');
    assert.ok(refused.length >= 1, response.body.slice(0, 500));
    assert.equal(served.length + refused.length, MAX_MESSAGES);
    for (const answer of refused) {
      assert.equal(answer.error!.code, -32000);
      assert.equal(answer.error!.data!.code, 'batch_answer_too_large');
    }
    const servedBytes = Buffer.byteLength(JSON.stringify(served));
    assert.ok(servedBytes <= MAX_ANSWER_BYTES, `${servedBytes} bytes of results`);
  });

  it('the endpoint descriptions render both bounds', async () => {
    const document = (await holder.testApp.app.inject({ url: '/openapi.json' })).json();
    for (const path of ['/mcp', '/mcp/sandbox']) {
      assert.match(document.paths[path].post.description, new RegExp(`at most ${MAX_MESSAGES} messages .*${MAX_ANSWER_BYTES} bytes`));
    }
  });
});

describe('MCP batches: one call per event-loop turn', () => {
  const MESSAGES = 20;
  const holder = batchApp({ mcpBatch: { maxMessages: MESSAGES, maxAnswerBytes: 16 * 1024 * 1024 } });
  let base: string;
  before(async () => {
    base = await holder.testApp.app.listen({ port: 0, host: '127.0.0.1' });
  });

  it('the event loop turns between the calls of a batch, and a request sent meanwhile is answered before the batch', async () => {
    let turns = 0;
    let counting = true;
    const count = () => {
      turns++;
      if (counting) setImmediate(count);
    };
    const order: string[] = [];
    // Counted until the answer's head arrives: reading a long body takes turns of its own.
    const send = async (label: string, body: unknown) => {
      const response = await fetch(`${base}/mcp`, { method: 'POST', headers: { ...HEADERS, 'mcp-protocol-version': BATCH_REVISION }, body: JSON.stringify(body) });
      order.push(label);
      if (label === 'batch') counting = false;
      assert.equal(response.status, 200);
      const answers = [await response.json()].flat() as Answer[];
      assert.ok(answers.every((answer) => answer.result && !answer.result.isError));
    };
    const batch = send('batch', many(MESSAGES, (id) => call(id, 'search_catalog', { limit: 20, sort: 'title' })));
    setImmediate(count);
    const single = new Promise((resolve) => setImmediate(resolve)).then(() => send('single', ping(1)));
    await Promise.all([batch, single]);
    assert.ok(turns >= MESSAGES - 1, `${turns} turns while a batch of ${MESSAGES} ran`);
    assert.deepEqual(order, ['single', 'batch']);
  });
});

describe('MCP batches: the sandbox limits count each message once', () => {
  const holder = batchApp({ mcpBatch: { maxMessages: 100, maxAnswerBytes: 16 * 1024 * 1024 }, sandbox: { keyRateLimit: 20, cartRateLimit: 300 } });

  it('25 key creations with 15 keys left: 15 issued, 10 refused', async () => {
    const { app } = holder.testApp;
    for (let key = 0; key < 5; key++) await holder.testApp.newKey();
    const response = await postBatch(app, '/mcp/sandbox', many(25, (id) => call(id, 'create_sandbox_key')), { remoteAddress: '127.0.0.1' });
    assert.equal(response.statusCode, 200, response.body);
    const errors = (response.json() as Answer[]).map(toolErrorOf);
    assert.equal(errors.filter((error) => error === undefined).length, 15, JSON.stringify(errors));
    assert.equal(errors.filter((error) => error === 'sandbox_rate_limited').length, 10);
  });

  it('a cart opened over REST, then 400 cart calls in 4 batches with a limit of 300 a minute: 299 of them through', async () => {
    const key = await holder.testApp.app.inject({ method: 'POST', url: '/sandbox/v1/keys', payload: { scopes: ['cart:write'] }, remoteAddress: '203.0.113.20' });
    const token = (key.json() as { access_token: string }).access_token;
    // One cart call before the batches, so that the third straddles the limit.
    const cart = await holder.testApp.newCart(token);
    const errors: (string | undefined)[] = [];
    for (let batch = 0; batch < 4; batch++) {
      const messages = many(100, (id) => call(id, 'get_cart', { cart_id: cart.id, sandbox_key: token }));
      const response = await postBatch(holder.testApp.app, '/mcp/sandbox', messages);
      assert.equal(response.statusCode, 200, response.body);
      errors.push(...(response.json() as Answer[]).map(toolErrorOf));
    }
    assert.equal(errors.filter((error) => error === undefined).length, 299, JSON.stringify([...new Set(errors)]));
    assert.equal(errors.filter((error) => error === 'sandbox_rate_limited').length, 101);
  });
});
