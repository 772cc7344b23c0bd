import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sample } from '../support/prometheus.js';
import { useTestApp } from '../support/test-app.js';

/** The probes; /metrics counts against the catalog window (test/http/document-limits.test.ts). */
const PROBES = ['/healthz', '/readyz'];
const METRICS_TOKEN = 'metrics-token-for-tests';

describe('GET /healthz and GET /readyz', () => {
  const shared = useTestApp();

  it('200 {status: ok} for liveness, never cached', async () => {
    const response = await shared.client.get('/healthz');
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.data, { status: 'ok' });
    assert.equal(response.headers['cache-control'], 'no-store');
  });

  it('200 ready with every check ok: store, read model and webhook outbox, and Redis exactly when REDIS_URL is set', async () => {
    const response = await shared.client.get('/readyz');
    assert.equal(response.statusCode, 200, response.body);
    const expected = { store: 'ok', read_model: 'ok', ...(shared.config.redisUrl && { redis: 'ok' }), webhooks: 'ok' };
    assert.deepEqual(response.data, { status: 'ready', failed: [], checks: expected });
    assert.equal(response.headers['cache-control'], 'no-store');
  });
});

describe('GET /metrics', () => {
  // The scraper (the injected requests' 127.0.0.1) is trusted with no limit, as an operator would set it; the catalog requests come from elsewhere.
  const shared = useTestApp({ config: { catalogRateLimit: 2, trustedCatalogClients: ['127.0.0.1'], trustedCatalogRateLimit: 0 } });
  const catalogRequest = (url: string) => shared.client.request({ method: 'GET', url, remoteAddress: '10.0.0.9' });

  const scrape = async () => {
    const response = await shared.app.inject({ method: 'GET', url: '/metrics' });
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers['content-type']), /^text\/plain; version=0\.0\.4/);
    assert.equal(response.headers['cache-control'], 'no-store', 'a scrape is of this instance now');
    return response.body;
  };

  it('counts requests by route template and status, with latency, and 429s by rate limit', async () => {
    await catalogRequest('/public/v1/products?limit=1');
    await catalogRequest('/public/v1/products/caffe-espresso-blend');
    assert.equal((await catalogRequest('/public/v1/products?limit=2')).statusCode, 429);
    const metrics = await scrape();
    assert.equal(sample(metrics, 'vetrina_http_requests_total{method="GET",route="/public/v1/products",status="200"}'), 1);
    assert.equal(sample(metrics, 'vetrina_http_requests_total{method="GET",route="/public/v1/products",status="429"}'), 1);
    assert.equal(sample(metrics, 'vetrina_http_requests_total{method="GET",route="/public/v1/products/:handle",status="200"}'), 1);
    assert.equal(sample(metrics, 'vetrina_http_request_duration_seconds_count{method="GET",route="/public/v1/products"}'), 2);
    assert.equal(sample(metrics, 'vetrina_rate_limit_rejections_total{limit="catalog"}'), 1);
    assert.ok(sample(metrics, 'process_cpu_user_seconds_total')! > 0, 'Node.js process metrics');
  });

  it('reports the read model size and version', async () => {
    const { catalog } = shared.app.catalogReadModel;
    const metrics = await scrape();
    assert.equal(sample(metrics, 'vetrina_catalog_products'), catalog.products.length);
    assert.equal(sample(metrics, 'vetrina_catalog_version'), catalog.version);
  });

  it('counts the live sandbox keys and carts in the store at scrape time', async () => {
    const before = await scrape();
    const key = await shared.client.request({ method: 'POST', url: '/sandbox/v1/keys' });
    assert.equal(key.statusCode, 201);
    const cart = await shared.client.request({
      method: 'POST',
      url: '/sandbox/v1/carts',
      headers: { authorization: `Bearer ${key.data.access_token}`, 'idempotency-key': 'metrics-cart' },
    });
    assert.equal(cart.statusCode, 201);
    const after = await scrape();
    for (const kind of ['keys', 'carts']) {
      const series = `vetrina_sandbox_objects{kind="${kind}"}`;
      assert.equal(sample(after, series), sample(before, series)! + 1, series);
    }
  });

  it('files requests that match no route under one "unmatched" label', async () => {
    await shared.app.inject({ method: 'GET', url: '/no/such/route/42' });
    assert.equal(sample(await scrape(), 'vetrina_http_requests_total{method="GET",route="unmatched",status="404"}'), 1);
  });
});

describe('the probes are outside every rate limit', () => {
  const shared = useTestApp({ config: { catalogRateLimit: 1, sandbox: { keyRateLimit: 1, cartRateLimit: 1 } } });

  for (const url of PROBES) {
    it(`200 without RateLimit headers on GET ${url}, however often`, async () => {
      for (let i = 0; i < 5; i++) {
        const response = await shared.app.inject({ method: 'GET', url });
        assert.equal(response.statusCode, 200, response.body);
        assert.equal(response.headers['ratelimit-limit'], undefined);
      }
    });
  }
});

describe('GET /metrics with METRICS_TOKEN set', () => {
  const shared = useTestApp({ config: { metricsToken: METRICS_TOKEN } });

  const scrapeWith = (authorization?: string) =>
    shared.app.inject({ method: 'GET', url: '/metrics', headers: authorization === undefined ? {} : { authorization } });

  for (const [what, authorization] of [
    ['no Authorization header', undefined],
    ['a wrong token', 'Bearer metrics-token-for-tests-but-longer'],
    ['a prefix of the token', 'Bearer metrics-token'],
    ['the token in another scheme', `Basic ${METRICS_TOKEN}`],
  ] as const) {
    it(`401 with a Bearer challenge for ${what}`, async () => {
      const response = await scrapeWith(authorization);
      assert.equal(response.statusCode, 401);
      assert.equal(response.headers['www-authenticate'], 'Bearer realm="vetrina-metrics"');
      assert.doesNotMatch(response.body, /vetrina_/);
    });
  }

  it('200 with the metrics for Authorization: Bearer <METRICS_TOKEN>', async () => {
    const response = await scrapeWith(`Bearer ${METRICS_TOKEN}`);
    assert.equal(response.statusCode, 200);
    assert.match(response.body, /^# HELP vetrina_/m);
  });

  it('documents the bearer requirement and the 401 in /openapi.json', async () => {
    const doc = (await shared.client.get('/openapi.json')).data;
    const operation = doc.paths['/metrics'].get;
    assert.deepEqual(operation.security, [{ metricsBearer: [] }]);
    assert.ok(operation.responses['401']);
    assert.equal(doc.components.securitySchemes.metricsBearer.scheme, 'bearer');
  });
});

describe('/openapi.json documents the operations routes', () => {
  const shared = useTestApp();

  it("lists /healthz, /readyz and /metrics under the tag 'operations'", async () => {
    const doc = (await shared.client.get('/openapi.json')).data;
    assert.ok(doc.tags.some((tag: { name: string }) => tag.name === 'operations'));
    for (const url of [...PROBES, '/metrics']) assert.deepEqual(doc.paths[url].get.tags, ['operations'], url);
    assert.deepEqual(Object.keys(doc.paths['/readyz'].get.responses).sort(), ['200', '4XX', '503']);
    assert.deepEqual(doc.paths['/metrics'].get.security, [], 'open when METRICS_TOKEN is unset');
    assert.equal(doc.components.securitySchemes.metricsBearer, undefined, 'no scheme that no route uses');
  });
});
