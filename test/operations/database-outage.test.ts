import assert from 'node:assert/strict';
import { after, before, describe, it, type TestContext } from 'node:test';
import type { ContractClient } from '../support/contract.js';
import { McpTestClient } from '../support/mcp-client.js';
import { pollUntil } from '../support/poll.js';
import { needsPostgres, postgresUrl } from '../support/production-services.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { createDatabase, startTestApp, type TestApp } from '../support/test-app.js';

/** Only a hang guard: recovery takes one successful connection, well under a second on a quiet machine. */
const RECOVERY_LIMIT_MS = 30_000;

/**
 * Degraded mode 1 (docs/deploy.md): the catalog keeps serving from memory, the sandbox
 * answers 503 sandbox_unavailable with Retry-After, readiness fails naming the store,
 * and everything recovers on its own when the database returns.
 */
describe('PostgreSQL unreachable, then back, without a restart', { skip: needsPostgres }, () => {
  let database: Awaited<ReturnType<typeof createDatabase>>;
  let proxy: TcpProxy;
  let testApp: TestApp;
  let client: ContractClient;
  let token: string;

  before(async () => {
    database = await createDatabase(postgresUrl!);
    proxy = await TcpProxy.start(postgresUrl!);
    testApp = await startTestApp({ config: { databaseUrl: proxy.through(database.url) } });
    client = testApp.client;
    const key = await client.request({ method: 'POST', url: '/sandbox/v1/keys' });
    assert.equal(key.statusCode, 201);
    token = key.data.access_token;
  });
  after(async () => {
    await testApp.close();
    await proxy.close();
    await database.drop();
  });

  const createCart = (idempotencyKey: string) =>
    client.request({
      method: 'POST',
      url: '/sandbox/v1/carts',
      headers: { authorization: `Bearer ${token}`, 'idempotency-key': idempotencyKey },
    });

  describe('while the database is cut', () => {
    before(() => proxy.cut());

    it('200 on catalog reads, served from the read model', async () => {
      assert.equal((await client.get('/public/v1/products?limit=5')).statusCode, 200);
      assert.equal((await client.get('/public/v1/products/caffe-espresso-blend')).statusCode, 200);
    });

    for (const [what, send] of [
      ['issuing a key', () => client.request({ method: 'POST', url: '/sandbox/v1/keys' })],
      ['creating a cart', () => createCart('during-the-outage')],
    ] as const) {
      it(`503 sandbox_unavailable with Retry-After on ${what}`, async () => {
        const response = await send();
        assert.equal(response.statusCode, 503, response.body);
        assert.equal(response.data.error, 'sandbox_unavailable');
        assert.equal(response.headers['retry-after'], '5');
        assert.equal(response.data.retry_after, 5);
        assert.doesNotMatch(response.body, /ECONN|terminated|postgres|select|insert/i);
      });
    }

    it('MCP: cart tools answer the tool error sandbox_unavailable, catalog tools still answer', async () => {
      const url = `${await testApp.app.listen({ port: 0, host: '127.0.0.1' })}/mcp/sandbox`;
      const agent = await McpTestClient.connect(url, { token });
      try {
        const cart = await agent.call('create_cart', {});
        assert.equal(cart.isError, true);
        assert.equal(cart.data.error, 'sandbox_unavailable');
        assert.equal(cart.data.retry_after, 5);
        assert.equal((await agent.call('search_catalog', { query: 'olive' })).isError, false);
      } finally {
        await agent.close();
      }
    });

    it('503 not_ready from /readyz naming the store, while /healthz stays 200', async () => {
      const ready = await client.get('/readyz');
      assert.equal(ready.statusCode, 503);
      assert.deepEqual(ready.data.failed, ['store']);
      assert.equal((await client.get('/healthz')).statusCode, 200);
    });

    it('200 from /metrics, leaving out the sandbox counts it cannot read', async () => {
      const metrics = await testApp.app.inject({ method: 'GET', url: '/metrics' });
      assert.equal(metrics.statusCode, 200);
      assert.match(metrics.body, /^vetrina_catalog_products \d+$/m);
      assert.doesNotMatch(metrics.body, /^vetrina_sandbox_objects\{/m);
    });
  });

  describe('once the database is back', () => {
    before(() => proxy.restore());

    it('200 from /readyz again, by itself', async (t: TestContext) => {
      const { value, ms } = await pollUntil(() => client.get('/readyz'), (response) => response.statusCode === 200, RECOVERY_LIMIT_MS);
      assert.equal(value.statusCode, 200, value.body);
      t.diagnostic(`ready again ${Math.round(ms)} ms after the database returned`);
    });

    it('201 on sandbox writes with the key issued before the outage', async () => {
      assert.equal((await createCart('after-the-outage')).statusCode, 201);
      assert.equal((await client.request({ method: 'POST', url: '/sandbox/v1/keys' })).statusCode, 201);
    });
  });
});
