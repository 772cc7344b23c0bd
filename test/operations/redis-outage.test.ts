import assert from 'node:assert/strict';
import { after, before, describe, it, type TestContext } from 'node:test';
import { Redis } from 'ioredis';
import type { ContractClient } from '../support/contract.js';
import { pollUntil } from '../support/poll.js';
import { sample } from '../support/prometheus.js';
import { needsRedis, redisUrl } from '../support/production-services.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** Only a hang guard: ioredis retries at most every 2 s; a busy machine may add seconds. */
const RECOVERY_LIMIT_MS = 30_000;
const LIST = '/public/v1/products?limit=1';

/**
 * Degraded mode 2 (docs/deploy.md): every request is still answered and still rate
 * limited, by each instance on its own counters; readiness names Redis; the shared
 * counters come back by themselves with Redis.
 */
describe('Redis unreachable, then back, without a restart', { skip: needsRedis }, () => {
  let proxy: TcpProxy;
  let testApp: TestApp;
  let client: ContractClient;
  let redis: Redis;
  let counterKey: string;

  before(async () => {
    proxy = await TcpProxy.start(redisUrl!);
    testApp = await startTestApp({ config: { redisUrl: proxy.through(redisUrl!), catalogRateLimit: 120 } });
    client = testApp.client;
    redis = new Redis(redisUrl!);
    counterKey = `${testApp.config.redisKeyPrefix}rate-limit:catalog:127.0.0.1`;
  });
  after(async () => {
    redis.disconnect();
    await testApp.close();
    await proxy.close();
  });

  /** The fallbacks so far, this reading's own included: /metrics counts against the catalog window too. */
  const fallbacks = async () => sample((await testApp.app.inject({ url: '/metrics' })).body, 'vetrina_rate_limit_redis_fallbacks_total')!;

  it('counts catalog requests in Redis while it answers', async () => {
    assert.equal((await client.get(LIST)).headers['ratelimit-remaining'], '119');
    assert.equal(await redis.get(counterKey), '1');
  });

  describe('while Redis is cut', () => {
    before(() => proxy.cut());

    it('answers every request, rate limited by this instance alone, with the RateLimit headers', async () => {
      const before = await fallbacks();
      for (let i = 0; i < 5; i++) {
        const response = await client.get(LIST);
        assert.equal(response.statusCode, 200);
        assert.match(String(response.headers['ratelimit-remaining']), /^\d+$/);
        assert.equal(response.headers['ratelimit-limit'], '120');
      }
      assert.equal((await client.request({ method: 'POST', url: '/sandbox/v1/keys' })).statusCode, 201);
      assert.equal((await fallbacks()) - before, 5 + 1, 'each catalog request (and this reading) counted as a fallback');
    });

    it('503 not_ready from /readyz naming Redis', async () => {
      const ready = await client.get('/readyz');
      assert.equal(ready.statusCode, 503);
      assert.deepEqual(ready.data.failed, ['redis']);
    });
  });

  describe('once Redis is back', () => {
    before(() => proxy.restore());

    it('200 from /readyz again, by itself', async (t: TestContext) => {
      const { value, ms } = await pollUntil(() => client.get('/readyz'), (response) => response.statusCode === 200, RECOVERY_LIMIT_MS);
      assert.equal(value.statusCode, 200, value.body);
      t.diagnostic(`ready again ${Math.round(ms)} ms after Redis returned`);
    });

    it('counts in Redis again, continuing the shared window', async () => {
      const fallbacksBefore = await fallbacks();
      const before = Number(await redis.get(counterKey));
      await client.get(LIST);
      assert.equal(Number(await redis.get(counterKey)), before + 1);
      assert.equal(await fallbacks(), fallbacksBefore);
    });
  });
});
