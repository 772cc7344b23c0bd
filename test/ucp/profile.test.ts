import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { SANDBOX_PAYMENT_TOKENS } from '../../src/sandbox/payment/simulated-payments.js';
import { adminClient, withAdmin } from '../support/admin.js';
import { product, REGIONS, variant } from '../support/catalog-builder.js';
import { useTestApp } from '../support/test-app.js';
import { assertValid, ucpValidator } from '../support/ucp-validator.js';

const { validator, skip } = await ucpValidator();
const BASE = 'https://shop.example.com';

describe('GET /.well-known/ucp, the business profile', () => {
  const testApp = useTestApp(
    withAdmin({
      catalog: [product('olive-oil', { variants: [variant('OIL-1', { prices: [...new Set(REGIONS.map(({ currency }) => currency))].map((currency) => ({ currency, amount: 1000 })) })] })],
      // The catalog sells in EUR, GBP, USD and JPY; the sandbox ships in EUR, GBP and CHF.
      config: { publicBaseUrl: BASE, sandbox: { shippingAmounts: { EUR: 490, GBP: 450, CHF: 690 } } },
    }),
  );

  it('is a valid UCP business profile', { skip }, async () => {
    const response = await testApp.client.get('/.well-known/ucp');
    assert.equal(response.statusCode, 200, response.body);
    assertValid(validator!.validateProfile(response.data), 'the profile');
  });

  it('declares the shopping service over REST and MCP under PUBLIC_BASE_URL, at this release', async () => {
    const { data } = await testApp.client.get('/.well-known/ucp');
    assert.equal(data.ucp.version, '2026-04-08');
    const bindings = data.ucp.services['dev.ucp.shopping'];
    assert.deepEqual(
      bindings.map((binding: any) => [binding.transport, binding.endpoint, binding.schema]),
      [
        ['rest', `${BASE}/ucp/v1`, 'https://ucp.dev/2026-04-08/services/shopping/rest.openapi.json'],
        ['mcp', `${BASE}/ucp/mcp`, 'https://ucp.dev/2026-04-08/services/shopping/mcp.openrpc.json'],
      ],
    );
  });

  it('declares catalog search and lookup, cart, checkout and order, and the extensions with their parents', async () => {
    const { data } = await testApp.client.get('/.well-known/ucp');
    const capabilities = data.ucp.capabilities;
    assert.deepEqual(Object.keys(capabilities).sort(), [
      'dev.ucp.shopping.buyer_consent',
      'dev.ucp.shopping.cart',
      'dev.ucp.shopping.catalog.lookup',
      'dev.ucp.shopping.catalog.search',
      'dev.ucp.shopping.checkout',
      'dev.ucp.shopping.discount',
      'dev.ucp.shopping.fulfillment',
      'dev.ucp.shopping.order',
    ]);
    assert.equal(capabilities['dev.ucp.shopping.fulfillment'][0].extends, 'dev.ucp.shopping.checkout');
    assert.deepEqual(capabilities['dev.ucp.shopping.discount'][0].extends, ['dev.ucp.shopping.cart', 'dev.ucp.shopping.checkout']);
    assert.equal(capabilities['dev.ucp.shopping.buyer_consent'][0].extends, 'dev.ucp.shopping.checkout');
    for (const [name, [entry]] of Object.entries<any>(capabilities)) {
      assert.match(entry.spec, /^https:\/\/ucp\.dev\/2026-04-08\/specification\//, name);
      assert.match(entry.schema, /^https:\/\/ucp\.dev\/2026-04-08\/schemas\/shopping\/\w+\.json$/, name);
    }
  });

  it('declares the sandbox payment handler with its served spec and schema, payable in the currencies the catalog sells and the sandbox ships in', async () => {
    const { data } = await testApp.client.get('/.well-known/ucp');
    assert.deepEqual(data.ucp.payment_handlers['dev.vetrina.sandbox_payment'], [
      {
        id: 'sandbox_payment',
        version: '2026-04-08',
        spec: `${BASE}/ucp/payment-handler`,
        schema: `${BASE}/ucp/payment-handler/schema.json`,
        available_instruments: [{ type: 'card' }],
        config: { environment: 'sandbox', currencies: ['EUR', 'GBP'] },
      },
    ]);
  });

  it('publishes one EC P-256 signing key, the same on every instance of the deployment', async () => {
    const { data } = await testApp.client.get('/.well-known/ucp');
    assert.equal(data.signing_keys.length, 1);
    const [key] = data.signing_keys;
    assert.deepEqual([key.kty, key.crv, key.alg, key.use], ['EC', 'P-256', 'ES256', 'sig']);
    assert.doesNotMatch(JSON.stringify(key), /"d"/, 'no private part');
    const other = await buildApp({ config: testApp.config, store: testApp.store, logger: false });
    try {
      const answer = await other.inject({ method: 'GET', url: '/.well-known/ucp' });
      assert.deepEqual(answer.json().signing_keys, data.signing_keys);
    } finally {
      await other.close();
    }
  });

  it('is cacheable as the protocol requires: public, max-age of at least 60 s, an ETag answering 304', async () => {
    const response = await testApp.client.get('/.well-known/ucp');
    const cacheControl = String(response.headers['cache-control']);
    assert.match(cacheControl, /\bpublic\b/);
    assert.ok(Number(/max-age=(\d+)/.exec(cacheControl)?.[1]) >= 60, cacheControl);
    assert.doesNotMatch(cacheControl, /private|no-store|no-cache/);
    const etag = String(response.headers.etag);
    const revalidated = await testApp.app.inject({ url: '/.well-known/ucp', headers: { 'if-none-match': etag } });
    assert.equal(revalidated.statusCode, 304);
    assert.equal(revalidated.body, '');
    assert.equal(revalidated.headers['cache-control'], cacheControl);
    assert.equal((await testApp.client.get('/.well-known/ucp', { 'if-none-match': '"other"' })).statusCode, 200);
  });

  it('follows the live catalog: a new market currency the sandbox ships in becomes payable, and the ETag changes', async () => {
    const before = await testApp.client.get('/.well-known/ucp');
    const created = await adminClient(testApp)('PUT', '/admin/v1/regions/reg_ch', { name: 'Switzerland', currency: 'CHF', countries: ['CH'] });
    assert.equal(created.statusCode, 201, created.body);
    const after = await testApp.client.get('/.well-known/ucp');
    assert.deepEqual(after.data.ucp.payment_handlers['dev.vetrina.sandbox_payment'][0].config.currencies, ['CHF', 'EUR', 'GBP']);
    assert.notEqual(after.headers.etag, before.headers.etag);
  });
});

describe('the sandbox payment handler', () => {
  const testApp = useTestApp({ config: { publicBaseUrl: BASE } });

  it('serves its JSON Schema, which composes on the release schemas and accepts exactly the sandbox tokens', { skip }, async () => {
    const response = await testApp.client.get('/ucp/payment-handler/schema.json');
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers['cache-control']), /public, max-age=\d+/);
    const schema = response.data;
    assert.equal(schema.$id, `${BASE}/ucp/payment-handler/schema.json`);
    assert.equal(schema.name, 'dev.vetrina.sandbox_payment');
    if (!validator!.ajv.getSchema(schema.$id)) validator!.ajv.addSchema(schema);
    const at = (pointer: string) => `${schema.$id}#/$defs/${pointer}`;

    const profile = (await testApp.client.get('/.well-known/ucp')).data;
    const [declaration] = profile.ucp.payment_handlers['dev.vetrina.sandbox_payment'];
    assertValid(validator!.validateSchema(at('dev.vetrina.sandbox_payment/business_schema'), declaration), 'the declaration');

    const instrument = (token: string) => ({ id: 'instr_1', handler_id: 'sandbox_payment', type: 'card', credential: { type: 'sandbox_token', token } });
    for (const { token } of SANDBOX_PAYMENT_TOKENS) assertValid(validator!.validateSchema(at('dev.vetrina.sandbox_payment/payment_instrument'), instrument(token)), token);
    assert.equal(validator!.validateSchema(at('dev.vetrina.sandbox_payment/payment_instrument'), instrument('tok_unknown')).valid, false);
    assert.equal(validator!.validateSchema(at('dev.vetrina.sandbox_payment/payment_instrument'), { ...instrument('tok_sandbox_success'), handler_id: 'other' }).valid, false);
  });

  it('serves its specification, naming every token and what it does', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/ucp/payment-handler' });
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers['content-type']), /^text\/plain/);
    for (const { token, description } of SANDBOX_PAYMENT_TOKENS) {
      assert.ok(response.body.includes(`\`${token}\``), token);
      assert.ok(response.body.includes(description), description);
    }
    assert.ok(response.body.includes(`${BASE}/ucp/payment-handler/schema.json`));
  });
});

describe('the profile and the handler documents count against the catalog rate limit', () => {
  const testApp = useTestApp({ config: { catalogRateLimit: 1 } });

  it('429 rate_limited in the UCP error shape, with Retry-After', async () => {
    assert.equal((await testApp.client.get('/.well-known/ucp')).statusCode, 200);
    for (const url of ['/.well-known/ucp', '/ucp/payment-handler/schema.json']) {
      const refused = await testApp.client.get(url);
      assert.equal(refused.statusCode, 429, url);
      assert.equal(refused.data.code, 'rate_limited');
      assert.ok(Number(refused.headers['retry-after']) >= 1);
      assert.equal(refused.headers['cache-control'], 'no-store');
    }
  });
});
