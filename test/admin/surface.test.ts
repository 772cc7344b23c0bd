import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { ERP_TOKEN, PIM_TOKEN, adminClient, assertAdminError, withAdmin } from '../support/admin.js';
import { useTestApp } from '../support/test-app.js';

/** One valid request per admin route, so only the credentials decide the answer. */
const ROUTES: { method: string; url: string; payload?: unknown }[] = [
  { method: 'GET', url: '/admin/v1/products' },
  { method: 'GET', url: '/admin/v1/products/caffe-espresso-blend' },
  { method: 'PUT', url: '/admin/v1/products/x', payload: {} },
  { method: 'PATCH', url: '/admin/v1/products/caffe-espresso-blend', payload: { status: 'draft' } },
  { method: 'DELETE', url: '/admin/v1/products/caffe-espresso-blend' },
  { method: 'GET', url: '/admin/v1/variants/v' },
  { method: 'PATCH', url: '/admin/v1/variants/v', payload: { inventory_quantity: 1 } },
  { method: 'POST', url: '/admin/v1/inventory', payload: { rows: [] } },
  { method: 'POST', url: '/admin/v1/prices', payload: { rows: [] } },
  { method: 'GET', url: '/admin/v1/regions' },
  { method: 'GET', url: '/admin/v1/regions/reg_it' },
  { method: 'PUT', url: '/admin/v1/regions/reg_it', payload: {} },
  { method: 'GET', url: '/admin/v1/categories' },
  { method: 'GET', url: '/admin/v1/categories/pantry' },
  { method: 'PUT', url: '/admin/v1/categories/pantry', payload: {} },
  { method: 'DELETE', url: '/admin/v1/categories/pantry' },
  { method: 'GET', url: '/admin/v1/collections' },
  { method: 'GET', url: '/admin/v1/collections/classics' },
  { method: 'PUT', url: '/admin/v1/collections/classics', payload: {} },
  { method: 'DELETE', url: '/admin/v1/collections/classics' },
  { method: 'POST', url: '/admin/v1/imports', payload: {} },
  { method: 'GET', url: '/admin/v1/imports' },
  { method: 'GET', url: '/admin/v1/imports/imp_000000000000000000000000' },
  { method: 'POST', url: '/admin/v1/imports/imp_000000000000000000000000/cancel' },
  { method: 'GET', url: '/admin/v1/audit' },
];

describe('the admin API when ADMIN_TOKENS is unset', () => {
  const testApp = useTestApp();

  for (const url of ['/admin/openapi.json', '/admin/v1/audit', '/admin/v1/products/caffe-espresso-blend', '/admin']) {
    it(`answers 404 NOT_FOUND in the admin envelope for ${url}, token or not`, async () => {
      for (const authorization of [undefined, `Bearer ${ERP_TOKEN}`]) {
        const response = await testApp.app.inject({ url, headers: authorization ? { authorization } : {} });
        assertAdminError(response, 404, 'NOT_FOUND');
      }
    });
  }

  it('leaves the public contract without any /admin path', async () => {
    const document = (await testApp.app.inject({ url: '/openapi.json' })).json();
    assert.deepEqual(Object.keys(document.paths).filter((path) => path.startsWith('/admin')), []);
  });
});

describe('admin credentials', () => {
  const testApp = useTestApp(withAdmin());

  for (const route of ROUTES) {
    it(`${route.method} ${route.url}: 401 without a token, with a wrong one, a sandbox key or the public sandbox key`, async () => {
      const sandboxKey = await testApp.newKey();
      const cases: [string | undefined, string][] = [
        [undefined, 'Bearer realm="vetrina-admin"'],
        ['Bearer wrong_0123456789abcdefghijklmnopqrstuv', 'Bearer realm="vetrina-admin", error="invalid_token"'],
        [`Bearer ${sandboxKey}`, 'Bearer realm="vetrina-admin", error="invalid_token"'],
        [`Bearer ${testApp.config.sandbox.publicKey}`, 'Bearer realm="vetrina-admin", error="invalid_token"'],
        [ERP_TOKEN, 'Bearer realm="vetrina-admin", error="invalid_token"'],
      ];
      for (const [authorization, challenge] of cases) {
        const response = await testApp.app.inject({
          method: route.method as 'GET',
          url: route.url,
          headers: { ...(authorization && { authorization }), ...(route.payload !== undefined && { 'content-type': 'application/json' }) },
          ...(route.payload !== undefined && { payload: JSON.stringify(route.payload) }),
        });
        assertAdminError(response, 401, 'UNAUTHORIZED');
        assert.equal(response.headers['www-authenticate'], challenge);
        assert.equal(response.headers['cache-control'], 'no-store');
      }
    });
  }

  it('records the name of the token that made each change as its actor', async () => {
    const admin = adminClient(testApp);
    for (const [token, status] of [[ERP_TOKEN, 'draft'], [PIM_TOKEN, 'published']] as const) {
      const response = await admin('PATCH', '/admin/v1/products/caffe-espresso-blend', { status }, { authorization: `Bearer ${token}` });
      assert.equal(response.statusCode, 200, response.body);
    }
    const audit = await admin('GET', '/admin/v1/audit?limit=2&target_type=product');
    assert.deepEqual(audit.data.entries.map((entry: any) => [entry.actor, entry.changes.status]), [['pim', 'published'], ['erp', 'draft']]);
  });

  it('refuses admin tokens on the sandbox routes (they are no sandbox keys)', async () => {
    const response = await testApp.app.inject({ method: 'POST', url: '/sandbox/v1/carts', headers: { authorization: `Bearer ${ERP_TOKEN}`, 'idempotency-key': 'k' } });
    assert.equal(response.statusCode, 401);
    assert.equal(response.json().error, 'sandbox_unauthorized');
  });

  it('answers unknown admin routes 404 NOT_FOUND in its envelope, and malformed JSON 400 INVALID_REQUEST', async () => {
    const unknown = assertAdminError(await testApp.app.inject({ url: '/admin/v1/nothing-here', headers: { authorization: `Bearer ${ERP_TOKEN}` } }), 404, 'NOT_FOUND');
    assert.match(unknown.hint, /\/admin\/openapi\.json/, 'the hint names the document the admin routes are in');
    const malformed = await testApp.app.inject({
      method: 'PATCH',
      url: '/admin/v1/products/caffe-espresso-blend',
      headers: { authorization: `Bearer ${ERP_TOKEN}`, 'content-type': 'application/json' },
      payload: '{"status": ',
    });
    assertAdminError(malformed, 400, 'INVALID_REQUEST');
  });

  it('serves /admin/openapi.json without a token: valid OpenAPI 3.1, every admin route with its error statuses', async () => {
    const response = await testApp.app.inject({ url: '/admin/openapi.json' });
    assert.equal(response.statusCode, 200);
    const document = response.json();
    const result = await new Validator().validate(document);
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
    assert.match(document.openapi, /^3\.1\./);
    const operations = Object.entries(document.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, operation })),
    );
    assert.deepEqual(
      operations.map(({ name }) => name).sort(),
      [
        'DELETE /admin/v1/categories/{handle}',
        'DELETE /admin/v1/collections/{handle}',
        'DELETE /admin/v1/products/{handle}',
        'DELETE /admin/v1/webhooks/{id}',
        'GET /admin/openapi.json',
        'GET /admin/v1/audit',
        'GET /admin/v1/categories',
        'GET /admin/v1/categories/{handle}',
        'GET /admin/v1/collections',
        'GET /admin/v1/collections/{handle}',
        'GET /admin/v1/imports',
        'GET /admin/v1/imports/{id}',
        'GET /admin/v1/products',
        'GET /admin/v1/products/{handle}',
        'GET /admin/v1/regions',
        'GET /admin/v1/regions/{id}',
        'GET /admin/v1/variants/{id}',
        'GET /admin/v1/webhooks',
        'GET /admin/v1/webhooks/{id}',
        'GET /admin/v1/webhooks/{id}/deliveries',
        'HEAD /admin/openapi.json',
        'HEAD /admin/v1/audit',
        'HEAD /admin/v1/categories',
        'HEAD /admin/v1/categories/{handle}',
        'HEAD /admin/v1/collections',
        'HEAD /admin/v1/collections/{handle}',
        'HEAD /admin/v1/imports',
        'HEAD /admin/v1/imports/{id}',
        'HEAD /admin/v1/products',
        'HEAD /admin/v1/products/{handle}',
        'HEAD /admin/v1/regions',
        'HEAD /admin/v1/regions/{id}',
        'HEAD /admin/v1/variants/{id}',
        'HEAD /admin/v1/webhooks',
        'HEAD /admin/v1/webhooks/{id}',
        'HEAD /admin/v1/webhooks/{id}/deliveries',
        'PATCH /admin/v1/products/{handle}',
        'PATCH /admin/v1/variants/{id}',
        'POST /admin/v1/imports',
        'POST /admin/v1/imports/{id}/cancel',
        'POST /admin/v1/inventory',
        'POST /admin/v1/prices',
        'POST /admin/v1/webhooks',
        'POST /admin/v1/webhooks/{id}/pause',
        'POST /admin/v1/webhooks/{id}/resume',
        'POST /admin/v1/webhooks/{id}/test',
        'PUT /admin/v1/categories/{handle}',
        'PUT /admin/v1/collections/{handle}',
        'PUT /admin/v1/products/{handle}',
        'PUT /admin/v1/regions/{id}',
      ],
    );
    for (const { name, operation } of operations.filter(({ name }) => name.includes('/v1/'))) {
      assert.deepEqual(operation.security, [{ adminBearer: [] }], name);
      for (const status of ['400', '401', '429', '500', '503']) assert.ok(operation.responses[status], `${name} documents ${status}`);
      // DELETE, the webhook actions (pause, resume, test) and an import's cancel take no body.
      if (!name.startsWith('GET') && !name.startsWith('HEAD')) assert.ok(operation.requestBody || name.startsWith('DELETE') || /\/(pause|resume|test|cancel)$/.test(name), `${name} documents its body`);
    }
    assert.ok(document.paths['/admin/v1/imports'].post.requestBody.content['application/json'].schema.properties.products, 'the import documents the catalog file');
  });

  it('keeps /openapi.json the public contract: no /admin path, no admin scheme', async () => {
    const document = (await testApp.app.inject({ url: '/openapi.json' })).json();
    assert.deepEqual(Object.keys(document.paths).filter((path) => path.startsWith('/admin')), []);
    assert.equal(document.components.securitySchemes.adminBearer, undefined);
  });
});

describe('the admin rate limit', () => {
  const testApp = useTestApp(withAdmin({ config: { catalogRateLimit: 2 } }, { ADMIN_RATE_LIMIT: '2' }));

  it('counts each token in its own window, shared with no catalog window', async () => {
    const admin = adminClient(testApp);
    for (const remaining of [1, 0]) {
      const response = await admin('GET', '/admin/v1/audit');
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers['ratelimit-remaining'], String(remaining));
    }
    const limited = await admin('GET', '/admin/v1/audit');
    assertAdminError(limited, 429, 'RATE_LIMITED');
    assert.equal(limited.headers['retry-after'], limited.headers['ratelimit-reset']);
    assert.equal((await admin('GET', '/admin/v1/audit', undefined, { authorization: `Bearer ${PIM_TOKEN}` })).statusCode, 200, 'another token has its own window');
    // The one request of the catalog window before this: the client fetching /admin/openapi.json, which needs no token.
    const catalog = await testApp.app.inject({ url: '/public/v1/products?limit=1' });
    assert.equal(catalog.statusCode, 200);
    assert.equal(catalog.headers['ratelimit-remaining'], '0', 'no admin request counted in the catalog window');
  });
});

