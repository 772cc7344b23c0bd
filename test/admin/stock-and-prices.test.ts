import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { product, skuVariants, variant } from '../support/catalog-builder.js';
import { adminClient, assertAdminError, withAdmin } from '../support/admin.js';
import { McpTestClient } from '../support/mcp-client.js';
import { useTestApp } from '../support/test-app.js';

const PRODUCTS = [
  product('olive-oil', {
    ...skuVariants([
      variant('OIL-500', { manage_inventory: true, inventory_quantity: 5, prices: [{ currency: 'EUR', amount: 1650 }] }),
      variant('OIL-1000', { manage_inventory: true, inventory_quantity: 5, prices: [{ currency: 'EUR', amount: 2900 }] }),
    ]),
  }),
  product('honey', { variants: [variant('HONEY', { manage_inventory: true, inventory_quantity: 3, prices: [{ currency: 'EUR', amount: 800 }] })] }),
];

describe('admin stock and prices', () => {
  const testApp = useTestApp(withAdmin({ catalog: PRODUCTS }));
  const admin = (...args: Parameters<ReturnType<typeof adminClient>>) => adminClient(testApp)(...args);
  let mcp: McpTestClient;
  before(async () => {
    const base = await testApp.app.listen({ port: 0, host: '127.0.0.1' });
    mcp = await McpTestClient.connect(`${base}/mcp`);
  });
  after(() => mcp?.close());

  const publicVariant = async (handle: string, sku: string, query = '') => {
    const detail = (await testApp.app.inject({ url: `/public/v1/products/${handle}${query}` })).json();
    return detail.product.variants.find((v: any) => v.id === ids[sku]);
  };
  const mcpVariant = async (handle: string, sku: string) => {
    const outcome = await mcp.call('get_product', { handle });
    assert.equal(outcome.isError, false);
    return outcome.data.product.variants.find((v: any) => v.id === ids[sku]);
  };
  const ids: Record<string, string> = {};
  before(async () => {
    for (const sku of ['OIL-500', 'OIL-1000', 'HONEY']) ids[sku] = await testApp.variantId(sku);
  });

  const variantState = async () => ({
    variants: await testApp.store.db.selectFrom('variants').selectAll().orderBy('sku').execute(),
    prices: await testApp.store.db.selectFrom('prices').selectAll().orderBy('variant_id').orderBy('currency').orderBy('region_id').execute(),
    audit: await testApp.store.db.selectFrom('admin_audit').select(['seq', 'position']).execute(),
  });

  it('a price change is on the very next public read and MCP call, and the ETag moves', async () => {
    const before = await admin('GET', `/admin/v1/variants/${ids['OIL-500']}`);
    const response = await admin('PATCH', `/admin/v1/variants/${ids['OIL-500']}`, { prices: [{ currency: 'EUR', amount: 1799 }, { currency: 'GBP', region_id: 'reg_gb', amount: 1500 }] }, { 'if-match': before.headers.etag as string });
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.headers.etag, `"${before.data.variant.version + 1}"`);
    assert.deepEqual((await publicVariant('olive-oil', 'OIL-500')).price, { amount: 17.99, currency: 'EUR' });
    assert.deepEqual((await publicVariant('olive-oil', 'OIL-500', '?country=GB')).price, { amount: 15, currency: 'GBP' });
    assert.deepEqual((await mcpVariant('olive-oil', 'OIL-500')).price, { amount: 17.99, currency: 'EUR' });

    await admin('PATCH', `/admin/v1/variants/${ids['OIL-500']}`, { prices: [{ currency: 'GBP', region_id: 'reg_gb', amount: null }] });
    assert.equal((await publicVariant('olive-oil', 'OIL-500', '?country=GB')).price, null, 'a null amount removes the price');
  });

  it('prices name their region `region`, as the catalog file, PUT and GET do; `region_id` is still accepted; /admin/openapi.json documents both', async () => {
    const url = `/admin/v1/variants/${ids['OIL-500']}`;
    const gbPrice = async () => (await publicVariant('olive-oil', 'OIL-500', '?country=GB')).price;
    assert.equal((await admin('PATCH', url, { prices: [{ currency: 'GBP', region: 'reg_gb', amount: 1400 }] })).statusCode, 200);
    assert.deepEqual(await gbPrice(), { amount: 14, currency: 'GBP' });
    assert.equal((await admin('PATCH', url, { prices: [{ currency: 'GBP', region: 'reg_gb', region_id: 'reg_gb', amount: 1450 }] })).statusCode, 200);
    assert.deepEqual(await gbPrice(), { amount: 14.5, currency: 'GBP' });
    assert.equal((await admin('POST', '/admin/v1/prices', { rows: [{ sku: 'OIL-500', currency: 'GBP', region: 'reg_gb', amount: 1300 }] })).statusCode, 200);
    assert.deepEqual(await gbPrice(), { amount: 13, currency: 'GBP' });
    const twoRegions = await admin('POST', '/admin/v1/prices', { rows: [{ sku: 'OIL-500', currency: 'GBP', region: 'reg_gb', region_id: 'reg_eu', amount: 1 }] });
    assert.match(assertAdminError(twoRegions, 400, 'INVALID_REQUEST').message, /body\.rows\[0\] names region "reg_gb" and region_id "reg_eu"/);
    assert.equal((await admin('GET', url)).data.variant.prices.find((price: { region?: string }) => price.region === 'reg_gb').amount, 1300);
    const document = (await admin('GET', '/admin/openapi.json')).data;
    for (const [path, method] of [['/admin/v1/variants/{id}', 'patch'], ['/admin/v1/prices', 'post']] as const) {
      const body = JSON.stringify(document.paths[path][method].requestBody);
      assert.match(body, /"region":\{[^}]*preferred/, path);
      assert.match(body, /"region_id":\{[^}]*former name of `region`/, path);
    }
  });

  it('availability moves in_stock -> backorder -> out_of_stock -> in_stock as stock and backorder change, on REST and MCP alike', async () => {
    const steps: [object, string][] = [
      [{ manage_inventory: true, inventory_quantity: 2, allow_backorder: true }, 'in_stock'],
      [{ inventory_quantity: 0 }, 'backorder'],
      [{ allow_backorder: false }, 'out_of_stock'],
      [{ manage_inventory: false }, 'in_stock'],
    ];
    for (const [patch, status] of steps) {
      assert.equal((await admin('PATCH', `/admin/v1/variants/${ids.HONEY}`, patch)).statusCode, 200);
      assert.equal((await publicVariant('honey', 'HONEY')).availability.status, status, JSON.stringify(patch));
      assert.equal((await mcpVariant('honey', 'HONEY')).availability.status, status, `MCP after ${JSON.stringify(patch)}`);
    }
  });

  it('PATCH /variants refuses, writing nothing: empty or unknown fields, bad types, duplicate or unservable prices, stale If-Match, unknown id', async () => {
    const state = await variantState();
    const url = `/admin/v1/variants/${ids['OIL-1000']}`;
    const cases: [unknown, RegExp][] = [
      [{}, /body must set at least one field/],
      [{ stock: 3 }, /unknown field "stock"/],
      [{ inventory_quantity: -1 }, /inventory_quantity must be >= 0/],
      [{ inventory_quantity: 1.5 }, /inventory_quantity must be integer/],
      [{ inventory_quantity: '3' }, /inventory_quantity must be integer/],
      [{ manage_inventory: 'yes' }, /manage_inventory must be boolean/],
      [{ prices: [{ currency: 'EUR' }] }, /missing the required field "amount"/],
      [{ prices: [{ currency: 'eur', amount: 1 }] }, /currency must match pattern/],
      [{ prices: [{ currency: 'EUR', amount: 1, region: 'reg_it', region_id: 'reg_eu' }] }, /body\.prices\[0\] names region "reg_it" and region_id "reg_eu"/],
      [{ prices: [{ currency: 'EUR', amount: 1, region: 'reg_mars' }] }, /no region has the id reg_mars/],
      [{ prices: [{ currency: 'EUR', amount: 1, region_id: 'reg_mars' }] }, /no region has the id reg_mars/],
      [{ prices: [{ currency: 'USD', amount: 1, region_id: 'reg_it' }] }, /region reg_it sells in EUR, not USD/],
      [{ prices: [{ currency: 'EUR', amount: 1 }, { currency: 'EUR', amount: 2 }] }, /another entry already sets the EUR price/],
      [{ prices: [{ currency: 'ZZZ', amount: 1 }] }, /\$\.prices\[0\]\.currency no region sells in ZZZ/],
      [{ inventory_quantity: 1, prices: [{ currency: 'USD', amount: 1, region_id: 'reg_it' }] }, /sells in EUR/],
    ];
    for (const [payload, message] of cases) {
      const error = assertAdminError(await admin('PATCH', url, payload), 400, 'INVALID_REQUEST');
      assert.match(error.message, message, JSON.stringify(payload));
    }
    const stale = assertAdminError(await admin('PATCH', url, { inventory_quantity: 1 }, { 'if-match': '"99"' }), 412, 'PRECONDITION_FAILED');
    assert.equal(typeof stale.details.current_version, 'number');
    assertAdminError(await admin('PATCH', '/admin/v1/variants/variant_nope', { inventory_quantity: 1 }), 404, 'NOT_FOUND');
    assert.deepEqual(await variantState(), state);
  });

  it('POST /inventory and /prices write every row and report each variant with its new version', async () => {
    const versions = async () => Object.fromEntries((await testApp.store.db.selectFrom('variants').select(['sku', 'version']).execute()).map((row) => [row.sku, Number(row.version)]));
    const before = await versions();
    const stock = await admin('POST', '/admin/v1/inventory', { rows: [{ sku: 'OIL-500', manage_inventory: true, inventory_quantity: 0 }, { sku: 'OIL-1000', inventory_quantity: 9, if_version: before['OIL-1000'] }] });
    assert.equal(stock.statusCode, 200, stock.body);
    assert.deepEqual(stock.data.rows, [
      { index: 0, sku: 'OIL-500', variant_id: ids['OIL-500'], version: before['OIL-500']! + 1 },
      { index: 1, sku: 'OIL-1000', variant_id: ids['OIL-1000'], version: before['OIL-1000']! + 1 },
    ]);
    assert.equal((await publicVariant('olive-oil', 'OIL-500')).availability.status, 'out_of_stock');

    const prices = await admin('POST', '/admin/v1/prices', { rows: [{ sku: 'OIL-1000', currency: 'EUR', amount: 3100 }, { sku: 'OIL-1000', currency: 'EUR', region_id: 'reg_eu', amount: 3200 }] });
    assert.equal(prices.statusCode, 200, prices.body);
    assert.deepEqual(prices.data.rows.map((row: any) => row.version), [before['OIL-1000']! + 2, before['OIL-1000']! + 2], 'one version step per variant and request');
    assert.deepEqual((await publicVariant('olive-oil', 'OIL-1000')).price, { amount: 31, currency: 'EUR' });
    assert.deepEqual((await publicVariant('olive-oil', 'OIL-1000', '?country=DE')).price, { amount: 32, currency: 'EUR' });
    assert.deepEqual((await mcpVariant('olive-oil', 'OIL-1000')).price, { amount: 31, currency: 'EUR' });

    const audit = await admin('GET', '/admin/v1/audit?limit=2');
    assert.deepEqual(
      audit.data.entries.map((entry: any) => [entry.action, entry.target_id, entry.version_before, entry.version_after, entry.changes.region_id ?? null]),
      [
        ['set_prices', ids['OIL-1000'], before['OIL-1000']! + 1, before['OIL-1000']! + 2, 'reg_eu'],
        ['set_prices', ids['OIL-1000'], before['OIL-1000']! + 1, before['OIL-1000']! + 2, null],
      ],
    );
  });

  it('a bulk request with any bad row writes nothing and lists every bad row', async () => {
    const state = await variantState();
    const inventory = await admin('POST', '/admin/v1/inventory', {
      rows: [
        { sku: 'OIL-500', inventory_quantity: 7 },
        { sku: 'NO-SUCH-SKU', inventory_quantity: 1 },
        { sku: 'OIL-500', inventory_quantity: 8 },
        { sku: 'HONEY' },
        { sku: 'OIL-1000', inventory_quantity: 1, if_version: 999 },
      ],
    });
    const error = assertAdminError(inventory, 400, 'INVALID_REQUEST');
    assert.deepEqual(
      error.details.rows.map((row: any) => [row.index, row.sku, row.code]),
      [[1, 'NO-SUCH-SKU', 'UNKNOWN_SKU'], [2, 'OIL-500', 'DUPLICATE_ROW'], [3, 'HONEY', 'EMPTY_ROW'], [4, 'OIL-1000', 'VERSION_MISMATCH']],
    );
    const prices = await admin('POST', '/admin/v1/prices', {
      rows: [
        { sku: 'OIL-500', currency: 'EUR', amount: 1 },
        { sku: 'OIL-500', currency: 'GBP', region_id: 'reg_mars', amount: 1 },
        { sku: 'OIL-500', currency: 'USD', region_id: 'reg_gb', amount: 1 },
        { sku: 'OIL-500', currency: 'EUR', amount: null },
        { sku: 'OIL-500', currency: 'ZZZ', amount: 1 },
      ],
    });
    const refused = assertAdminError(prices, 400, 'INVALID_REQUEST').details.rows;
    assert.deepEqual(
      refused.map((row: any) => [row.index, row.code]),
      [[1, 'UNKNOWN_REGION'], [2, 'CURRENCY_MISMATCH'], [3, 'DUPLICATE_ROW'], [4, 'UNKNOWN_CURRENCY']],
    );
    assert.match(refused[3].message, /no region sells in ZZZ \(they sell in EUR, GBP, JPY, USD\)/);
    const stale = await admin('POST', '/admin/v1/inventory', { rows: [{ sku: 'HONEY', inventory_quantity: 1, if_version: 999 }] });
    assert.equal(assertAdminError(stale, 412, 'PRECONDITION_FAILED').details.rows[0].code, 'VERSION_MISMATCH');
    assert.deepEqual(await variantState(), state, 'nothing was written');
  });

  it('bulk bodies that break the schema are 400 with the row and field named, and nothing is written', async () => {
    const state = await variantState();
    const tooMany = { rows: Array.from({ length: 1001 }, () => ({ sku: 'HONEY', inventory_quantity: 1 })) };
    const cases: [string, unknown, RegExp][] = [
      ['/inventory', { rows: [] }, /body\.rows must NOT have fewer than 1 items/],
      ['/inventory', tooMany, /body\.rows must NOT have more than 1000 items/],
      ['/inventory', [{ sku: 'HONEY', inventory_quantity: 1 }], /body must be object/],
      ['/inventory', { rows: [{ sku: 'HONEY', inventory_quantity: -5 }] }, /body\.rows\[0\]\.inventory_quantity must be >= 0/],
      ['/inventory', { rows: [{ sku: 'HONEY', quantity: 5 }] }, /body\.rows\[0\] has an unknown field "quantity"/],
      ['/inventory', { rows: [{ inventory_quantity: 5 }] }, /body\.rows\[0\] is missing the required field "sku"/],
      ['/prices', { rows: [{ sku: 'HONEY', currency: 'EUR' }] }, /missing the required field "amount"/],
      ['/prices', { rows: [{ sku: 'HONEY', currency: 'EUR', amount: 1.5 }] }, /amount must be integer|amount must match/],
      ['/prices', { rows: [{ sku: 'HONEY', currency: 'EUR', amount: 1 }], extra: true }, /unknown field "extra"/],
    ];
    for (const [path, payload, message] of cases) {
      const error = assertAdminError(await admin('POST', `/admin/v1${path}`, payload), 400, 'INVALID_REQUEST');
      assert.match(error.message, message, `${path} ${JSON.stringify(payload).slice(0, 80)}`);
    }
    assert.deepEqual(await variantState(), state);
  });

  it('1,000 rows in one request are written (chunked statements)', async () => {
    const skus = Array.from({ length: 1000 }, (_, i) => `BULK-${String(i).padStart(4, '0')}`);
    const response = await admin('PUT', '/admin/v1/products/bulk-carrier', {
      status: 'published',
      translations: { en: { title: 'Bulk carrier' } },
      options: [{ name: 'N', values: skus.slice(0, 100) }],
      variants: skus.slice(0, 100).map((sku) => variant(sku, { options: [sku] })),
    });
    assert.equal(response.statusCode, 201, response.body);
    // Prices only in currencies a region sells in: a market for each of the six the catalog lacks.
    const more = ['CHF', 'SEK', 'NOK', 'DKK', 'PLN', 'CZK'];
    for (const [i, currency] of more.entries()) {
      const region = await admin('PUT', `/admin/v1/regions/reg_${currency.toLowerCase()}`, { name: currency, currency, countries: [['CH', 'SE', 'NO', 'DK', 'PL', 'CZ'][i]!] });
      assert.equal(region.statusCode, 201, region.body);
    }
    const rows = skus.slice(0, 100).flatMap((sku) => ['EUR', 'GBP', 'USD', 'JPY', ...more].map((currency, i) => ({ sku, currency, amount: 100 + i })));
    const prices = await admin('POST', '/admin/v1/prices', { rows });
    assert.equal(prices.statusCode, 200, prices.body.slice(0, 500));
    assert.equal(prices.data.rows.length, 1000);
    const stored = await testApp.store.db.selectFrom('prices').innerJoin('variants', 'variants.id', 'prices.variant_id').select('prices.amount').where('variants.sku', 'like', 'BULK-%').execute();
    assert.equal(stored.length, 1000);
  });
});
