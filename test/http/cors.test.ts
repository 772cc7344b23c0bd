import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { withAdmin } from '../support/admin.js';
import { useTestApp } from '../support/test-app.js';

const PAGE = 'https://storefront.example';
const EXPOSED = [
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
  'retry-after',
  'x-request-id',
  'request-id',
  'idempotency-key',
  'idempotent-replayed',
  'deprecation',
  'sunset',
  'link',
  'etag',
];

const preflight = (method: string, headers = 'authorization, content-type') => ({
  origin: PAGE,
  'access-control-request-method': method,
  'access-control-request-headers': headers,
});

const exposedOf = (headers: Record<string, unknown>) =>
  String(headers['access-control-expose-headers'] ?? '')
    .toLowerCase()
    .split(/\s*,\s*/)
    .filter(Boolean);

describe('CORS, any origin (the default)', () => {
  const shared = useTestApp();

  for (const [method, url] of [
    ['GET', '/public/v1/products'],
    ['POST', '/sandbox/v1/keys'],
    ['POST', '/sandbox/v1/carts'],
    ['GET', '/openapi.json'],
    ['POST', '/ucp/v1/checkout-sessions'],
  ] as const) {
    it(`answers a preflight for ${method} ${url} with the headers a page needs`, async () => {
      const response = await shared.app.inject({ method: 'OPTIONS', url, headers: preflight(method, 'authorization, idempotency-key, content-type, ucp-agent, request-id') });
      assert.equal(response.statusCode, 204);
      assert.equal(response.headers['access-control-allow-origin'], '*');
      assert.equal(response.headers['access-control-allow-credentials'], undefined);
      assert.match(String(response.headers['access-control-allow-methods']), new RegExp(`\\b${method}\\b`));
      const allowed = String(response.headers['access-control-allow-headers']).toLowerCase().split(/\s*,\s*/);
      for (const header of ['authorization', 'idempotency-key', 'content-type', 'ucp-agent', 'request-id']) assert.ok(allowed.includes(header), header);
      assert.ok(Number(response.headers['access-control-max-age']) > 0);
    });
  }

  it('exposes the rate-limit, request-id, idempotency, deprecation and ETag headers on an answer', async () => {
    const response = await shared.app.inject({ url: '/public/v1/products?limit=1', headers: { origin: PAGE } });
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers['access-control-allow-origin'], '*');
    assert.deepEqual(exposedOf(response.headers).sort(), [...EXPOSED].sort());
  });

  it('answers a preflight before the rate limit counts it', async () => {
    const response = await shared.app.inject({ method: 'OPTIONS', url: '/public/v1/products', headers: preflight('GET') });
    assert.equal(response.statusCode, 204);
    assert.equal(response.headers['ratelimit-remaining'], undefined);
  });

  it('answers the sandbox without any credentials mode: keys travel as bearer tokens', async () => {
    const response = await shared.app.inject({ method: 'POST', url: '/sandbox/v1/keys', headers: { origin: PAGE } });
    assert.equal(response.statusCode, 201);
    assert.equal(response.headers['access-control-allow-origin'], '*');
    assert.equal(response.headers['access-control-allow-credentials'], undefined);
  });
});

describe('CORS on error answers', () => {
  const shared = useTestApp({ config: { catalogRateLimit: 2 } });

  it('carries the CORS headers on error answers too: 404, 400 and 429 are readable by the page', async () => {
    const notFound = await shared.app.inject({ url: '/public/v1/products/no-such-product', headers: { origin: PAGE } });
    const invalid = await shared.app.inject({ url: '/public/v1/products?limit=0', headers: { origin: PAGE } });
    const limited = await shared.app.inject({ url: '/public/v1/products', headers: { origin: PAGE } });
    assert.deepEqual([notFound.statusCode, invalid.statusCode, limited.statusCode], [404, 400, 429]);
    for (const response of [notFound, invalid, limited]) {
      assert.equal(response.headers['access-control-allow-origin'], '*');
      assert.deepEqual(exposedOf(response.headers).sort(), [...EXPOSED].sort());
    }
    assert.ok(limited.headers['retry-after']);
  });
});

describe('CORS restricted by CORS_ORIGINS', () => {
  const shared = useTestApp({ config: { corsOrigins: [PAGE, 'http://localhost:5173'] } });

  it('reflects a listed origin and varies on Origin', async () => {
    const response = await shared.app.inject({ url: '/public/v1/products?limit=1', headers: { origin: PAGE } });
    assert.equal(response.headers['access-control-allow-origin'], PAGE);
    assert.match(String(response.headers.vary), /\bOrigin\b/i);
  });

  it('does not answer an origin it does not list, on a preflight or an answer', async () => {
    const headers = { ...preflight('GET'), origin: 'https://elsewhere.example' };
    const answer = await shared.app.inject({ method: 'OPTIONS', url: '/public/v1/products', headers });
    const read = await shared.app.inject({ url: '/public/v1/products?limit=1', headers: { origin: 'https://elsewhere.example' } });
    assert.equal(answer.headers['access-control-allow-origin'], undefined);
    assert.equal(read.headers['access-control-allow-origin'], undefined);
    assert.equal(read.statusCode, 200, 'CORS decides what a page may read, not what a server may ask');
  });

  it('answers an MCP preflight only for an origin that is listed and whose host is an allowed MCP host', async () => {
    const local = await shared.app.inject({ method: 'OPTIONS', url: '/mcp', headers: { ...preflight('POST', 'content-type, mcp-protocol-version'), origin: 'http://localhost:5173' } });
    assert.equal(local.statusCode, 204);
    assert.equal(local.headers['access-control-allow-origin'], 'http://localhost:5173');
    assert.match(String(local.headers['access-control-allow-headers']), /Mcp-Protocol-Version/i);

    // Listed in CORS_ORIGINS, but not an MCP host: the DNS-rebinding guard keeps it out.
    const listedOnly = await shared.app.inject({ method: 'OPTIONS', url: '/mcp/sandbox', headers: preflight('POST') });
    assert.equal(listedOnly.statusCode, 405);
    assert.equal(listedOnly.headers['access-control-allow-origin'], undefined);
  });
});

describe('CORS on the MCP endpoints, any origin configured', () => {
  const shared = useTestApp();

  it('still answers only origins whose host is an allowed MCP host', async () => {
    const foreign = await shared.app.inject({ method: 'OPTIONS', url: '/mcp', headers: preflight('POST') });
    assert.equal(foreign.statusCode, 405);
    assert.equal(foreign.headers['access-control-allow-origin'], undefined);

    const local = await shared.app.inject({ method: 'OPTIONS', url: '/mcp', headers: { ...preflight('POST'), origin: 'http://127.0.0.1:8080' } });
    assert.equal(local.statusCode, 204);
    assert.equal(local.headers['access-control-allow-origin'], 'http://127.0.0.1:8080');
  });
});

describe('CORS on the admin API', () => {
  const shared = useTestApp(withAdmin());

  it('answers no origin: a preflight is 404 and answers carry no CORS headers', async () => {
    const answer = await shared.app.inject({ method: 'OPTIONS', url: '/admin/v1/products/caffe-espresso-blend', headers: preflight('PATCH') });
    assert.equal(answer.statusCode, 404);
    assert.equal(answer.headers['access-control-allow-origin'], undefined);
    const read = await shared.app.inject({ url: '/admin/v1/products/caffe-espresso-blend', headers: { origin: PAGE } });
    assert.equal(read.headers['access-control-allow-origin'], undefined);
  });
});
