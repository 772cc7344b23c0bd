import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_LOOKUP_IDENTIFIERS } from '../../src/catalog/queries/lookup.js';
import { platformCapability, platformProfile, ucpAgent, ucpTestConfig, usePlatformServer } from '../support/ucp-platform.js';
import { useTestApp, type TestApp } from '../support/test-app.js';
import { assertValid, ucpValidator } from '../support/ucp-validator.js';

const { validator, skip } = await ucpValidator();

const SEARCH = 'dev.ucp.shopping.catalog.search';
const LOOKUP = 'dev.ucp.shopping.catalog.lookup';
const OPERATIONS = { search_catalog: '/catalog/search', lookup_catalog: '/catalog/lookup', get_product: '/catalog/product' } as const;
type Operation = keyof typeof OPERATIONS;

/**
 * UCP's catalog over REST (/ucp/v1/catalog/...): every answer is checked against the
 * app's /openapi.json (the contract client) and against the UCP release's schemas for the
 * operation and status, with the capabilities the request negotiated.
 */
describe('UCP catalog over REST', { skip }, () => {
  const platform = usePlatformServer();
  const testApp = useTestApp({ config: { ucp: ucpTestConfig() } });

  /** Posts to an operation for the platform whose profile is at `profilePath`, and checks the answer with the validator. */
  async function call(operation: Operation, body: unknown, { profilePath = '/all.json', headers = {} }: { profilePath?: string; headers?: Record<string, string> } = {}) {
    platform.serve('/all.json', { body: platformProfile() });
    const response = await testApp.client.request({
      method: 'POST',
      url: `/ucp/v1${OPERATIONS[operation]}`,
      headers: { 'ucp-agent': ucpAgent(platform.url(profilePath)), ...headers },
      payload: body as object,
    });
    const business = (await testApp.client.get('/.well-known/ucp')).data;
    const platformDeclared = JSON.parse(await (await fetch(platform.url(profilePath))).text());
    const { capabilities } = validator!.negotiate(business, platformDeclared);
    assertValid(validator!.validateRest(operation, response.statusCode, response.data, { capabilities }), `${operation} ${response.statusCode}`);
    assert.equal(response.headers['cache-control'], 'no-store');
    return response;
  }

  const publicList = async (query: string) => (await testApp.client.get(`/public/v1/products?${query}`)).data;

  it('search_catalog: a query, filters and a market, as /public/v1 finds them, in minor units', async () => {
    const response = await call('search_catalog', {
      query: 'olive',
      context: { address_country: 'DE' },
      filters: { categories: ['pantry'], price: { max: 2000 } },
    });
    assert.equal(response.statusCode, 200, response.body);
    const served = await publicList('q=olive&country=DE&category=pantry&price_max=20');
    assert.ok(served.count > 0);
    assert.deepEqual(response.data.products.map((product: any) => product.id), served.products.map((product: any) => product.id));
    assert.deepEqual(response.data.pagination, { has_next_page: false, total_count: served.count });
    const coratina = response.data.products.find((product: any) => product.handle === 'coratina-extra-virgin-olive-oil');
    assert.deepEqual(coratina.variants.map((variant: any) => [variant.sku, variant.price]), [['BV-OIL-COR-500', { amount: 1390, currency: 'EUR' }]]);
  });

  it('answers with the negotiated version and only the capability of the operation in ucp.capabilities', async () => {
    const search = await call('search_catalog', { query: 'caffe' });
    assert.deepEqual(search.data.ucp, { version: '2026-04-08', status: 'success', capabilities: { [SEARCH]: [{ version: '2026-04-08' }] } });
    const lookup = await call('lookup_catalog', { ids: ['BV-OIL-COR-500'] });
    assert.deepEqual(lookup.data.ucp, { version: '2026-04-08', status: 'success', capabilities: { [LOOKUP]: [{ version: '2026-04-08' }] } });
    const product = await call('get_product', { id: 'BV-OIL-COR-500' });
    assert.deepEqual(product.data.ucp.capabilities, { [LOOKUP]: [{ version: '2026-04-08' }] });
  });

  it('applies the UCP-Agent negotiation: a platform without catalog search gets capabilities_incompatible for a search, and lookups still', async () => {
    platform.serve('/lookup-only.json', { body: platformProfile({ capabilities: { [LOOKUP]: [platformCapability(LOOKUP)] } }) });
    const search = await call('search_catalog', { query: 'caffe' }, { profilePath: '/lookup-only.json' });
    assert.equal(search.statusCode, 200);
    assert.equal(search.data.ucp.status, 'error');
    assert.deepEqual(search.data.ucp.capabilities, {});
    assert.equal(search.data.messages[0].code, 'capabilities_incompatible');
    assert.deepEqual(search.data.products, [], 'the release requires products of a search answer');
    const lookup = await call('lookup_catalog', { ids: ['BV-OIL-COR-500'] }, { profilePath: '/lookup-only.json' });
    assert.equal(lookup.data.ucp.status, 'success');
    assert.deepEqual(Object.keys(lookup.data.ucp.capabilities), [LOOKUP]);
    assert.equal(lookup.data.products.length, 1);
  });

  it('search_catalog pages with pagination.cursor through every product /public/v1 lists, each once', async () => {
    const ids: string[] = [];
    let cursor: string | undefined;
    do {
      const response = await call('search_catalog', { filters: { categories: ['coffee'] }, pagination: { limit: 4, ...(cursor && { cursor }) } });
      assert.equal(response.statusCode, 200, response.body);
      assert.ok(response.data.products.length <= 4);
      ids.push(...response.data.products.map((product: any) => product.id));
      cursor = response.data.pagination.cursor;
      assert.equal(response.data.pagination.has_next_page, cursor !== undefined);
    } while (cursor);
    const served = await publicList('category=coffee&price_min=0&limit=20');
    assert.ok(served.count > 4);
    assert.deepEqual(ids, served.products.map((product: any) => product.id));
  });

  it('lookup_catalog: several ids, one unknown, answered with the rest and a not_found message', async () => {
    const espresso = (await testApp.client.get('/public/v1/products/caffe-espresso-blend')).data.product;
    const moka = await testApp.variantId('BV-UTE-MOK-3T');
    const response = await call('lookup_catalog', { ids: [espresso.id, moka, 'prod_000000000000000000000000'], context: { address_country: 'GB' } });
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(
      response.data.products.map((product: any) => [product.handle, product.variants.map((variant: any) => [variant.id, variant.price.currency, variant.inputs])]),
      [
        ['caffe-espresso-blend', [[espresso.variants[0].id, 'GBP', [{ id: espresso.id, match: 'featured' }]]]],
        ['aluminium-moka-pot', [[moka, 'GBP', [{ id: moka, match: 'exact' }]]]],
      ],
    );
    assert.deepEqual(response.data.messages, [{ type: 'info', code: 'not_found', content: 'prod_000000000000000000000000' }]);
  });

  it('get_product: the product with its selections; an unknown id is the not_found outcome (200, ucp.status error)', async () => {
    const found = await call('get_product', { id: 'BV-COF-ESP-500-MOKA', context: { address_country: 'US' } });
    assert.equal(found.statusCode, 200);
    assert.deepEqual(found.data.product.selected, [{ name: 'Size', label: '500 g' }, { name: 'Grind', label: 'Ground for moka' }]);
    assert.deepEqual(found.data.product.variants.map((variant: any) => [variant.sku, variant.price]), [['BV-COF-ESP-500-MOKA', { amount: 1780, currency: 'USD' }]]);
    const unknown = await call('get_product', { id: 'prod_000000000000000000000000' });
    assert.equal(unknown.statusCode, 200);
    assert.deepEqual(unknown.data, {
      ucp: { version: '2026-04-08', status: 'error', capabilities: { [LOOKUP]: [{ version: '2026-04-08' }] } },
      messages: [{ type: 'error', code: 'not_found', content: 'Product not found: prod_000000000000000000000000', severity: 'unrecoverable' }],
    });
  });

  it('takes the locale from Accept-Language when the context names no language', async () => {
    const response = await call('get_product', { id: 'BV-OIL-COR-500' }, { headers: { 'accept-language': 'it-IT,it;q=0.9' } });
    assert.match(response.data.product.title, /^Olio/);
  });

  describe('bad input: 400 in the UCP error shape', () => {
    const refusals: [string, Operation, unknown, string, RegExp][] = [
      ['a body that is not the schema', 'lookup_catalog', { ids: 'BV-OIL-COR-500' }, 'invalid_request', /ids/],
      ['no body', 'search_catalog', undefined, 'invalid_request', /body/],
      ['a page size below 1', 'search_catalog', { query: 'olive', pagination: { limit: 0 } }, 'invalid_request', /limit/],
      ['a price in major units', 'search_catalog', { filters: { price: { max: 12.5 } } }, 'invalid_request', /max/],
      ['a search with neither a query word nor a filter', 'search_catalog', { query: '  ', context: { address_country: 'IT' } }, 'invalid_request', /query.*filter/],
      ['a minimum price above the maximum', 'search_catalog', { query: 'olive', filters: { price: { min: 2000, max: 1000 } } }, 'invalid_request', /filters\.price\.min/],
      ['a cursor not issued here', 'search_catalog', { query: 'olive', pagination: { cursor: 'forged' } }, 'invalid_request', /pagination\.cursor/],
      ['no ids', 'lookup_catalog', { ids: [] }, 'invalid_request', /ids/],
      [`more than ${MAX_LOOKUP_IDENTIFIERS} ids`, 'lookup_catalog', { ids: Array.from({ length: MAX_LOOKUP_IDENTIFIERS + 1 }, (_, i) => `id-${i}`) }, 'request_too_large', /51/],
      ['an option selected twice', 'get_product', { id: 'BV-OIL-COR-500', selected: [{ name: 'Format', label: 'Tin 3 l' }, { name: 'Format', label: 'Tin 5 l' }] }, 'invalid_request', /Format/],
      ['a get_product without id', 'get_product', { selected: [] }, 'invalid_request', /id/],
    ];
    for (const [what, operation, body, code, content] of refusals) {
      it(`${operation}: ${what} is ${code}`, async () => {
        const response = await call(operation, body);
        assert.equal(response.statusCode, 400, response.body);
        assert.equal(response.data.code, code);
        assert.match(response.data.content, content);
      });
    }

    it('a cursor of another search is refused, naming it', async () => {
      const first = await call('search_catalog', { query: 'olive', pagination: { limit: 1 } });
      const other = await call('search_catalog', { query: 'caffe', pagination: { cursor: first.data.pagination.cursor } });
      assert.equal(other.statusCode, 400);
      assert.match(other.data.content, /another search/);
    });
  });

  it('/openapi.json documents the three operations, keyless, with their request and answer schemas', async () => {
    const document = await testApp.client.openapi();
    const paths = document.paths as Record<string, Record<string, any>>;
    for (const [operation, path] of Object.entries(OPERATIONS)) {
      const route = paths[`/ucp/v1${path}`]?.post;
      assert.ok(route, path);
      assert.equal(route.operationId, operation);
      assert.deepEqual(route.security, []);
      assert.ok(route.requestBody.content['application/json'].schema.properties, path);
      assert.ok(route.responses['200'] && route.responses['400'] && route.responses['429'], path);
    }
    const schemas = (document.components as { schemas: Record<string, unknown> }).schemas;
    for (const name of ['UcpProduct', 'UcpDetailProduct', 'UcpVariant', 'UcpPrice']) assert.ok(schemas[name], name);
  });
});

describe('UCP catalog over REST counts against the catalog rate limit', () => {
  const platform = usePlatformServer();
  const testApp: TestApp = useTestApp({ config: { ucp: ucpTestConfig(), catalogRateLimit: 2 } });

  it('shares the window of /public/v1: 429 rate_limited with Retry-After', async () => {
    platform.serve('/all.json', { body: platformProfile() });
    const search = () =>
      testApp.client.request({ method: 'POST', url: '/ucp/v1/catalog/search', headers: { 'ucp-agent': ucpAgent(platform.url('/all.json')) }, payload: { query: 'olive' } });
    assert.equal((await testApp.client.get('/public/v1/products?limit=1')).statusCode, 200);
    assert.equal((await search()).statusCode, 200);
    const refused = await search();
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.data.code, 'rate_limited');
    assert.ok(Number(refused.headers['retry-after']) >= 1);
    if (validator) assertValid(validator.validateRest('search_catalog', 429, refused.data), 'the 429');
  });
});
