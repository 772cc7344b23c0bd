import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pg from 'pg';
import type { CatalogFile, CatalogFilePrice } from '../../src/catalog/file/catalog-file-schema.js';
import { MAX_VARIANT_PRICES } from '../../src/catalog/file/catalog-file-schema.js';
import { MAX_CATEGORY_DEPTH } from '../../src/catalog/model/taxonomy.js';
import { isStoreUnavailable } from '../../src/store/store-unavailable.js';
import { catalog, category, product, REGIONS, skuVariants, variant } from '../support/catalog-builder.js';
import { adminClient, assertAdminError, failedImport, importOverHttp, withAdmin } from '../support/admin.js';
import { needsPostgres, postgresUrl } from '../support/production-services.js';
import { useTestApp, type TestApp } from '../support/test-app.js';

/** The rules an import and the admin API share (docs/admin.md, docs/catalog-format.md). */

const SWISS = { id: 'reg_ch', name: 'Switzerland', currency: 'CHF', countries: ['CH'] };
const SWISS_REGIONS = [...REGIONS, SWISS];
const CHEESE = product('gruyere', { variants: [variant('GRUYERE', { prices: [{ currency: 'EUR', amount: 900 }, { currency: 'CHF', amount: 1090, region: 'reg_ch' }] })] });


/** Everything an import could have written, to show that a refused one wrote nothing. */
const storeState = async (testApp: TestApp) => ({
  regions: await testApp.store.db.selectFrom('regions').selectAll().orderBy('id').execute(),
  countries: await testApp.store.db.selectFrom('region_countries').selectAll().orderBy('country').execute(),
  categories: await testApp.store.db.selectFrom('categories').select(['handle', 'parent_handle']).orderBy('handle').execute(),
  products: await testApp.store.db.selectFrom('products').select(['handle', 'version']).orderBy('handle').execute(),
  prices: await testApp.store.db.selectFrom('prices').selectAll().orderBy('variant_id').orderBy('currency').orderBy('region_id').execute(),
});

describe("a region's currency: one rule for the admin API and the import", () => {
  const testApp = useTestApp(withAdmin({ catalog: catalog([CHEESE], SWISS_REGIONS) }));
  const admin = (...args: Parameters<ReturnType<typeof adminClient>>) => adminClient(testApp)(...args);
  const swissPrice = async () => (await admin('GET', '/admin/v1/products/gruyere')).statusCode === 200
    ? (await testApp.app.inject({ url: '/public/v1/products/gruyere?country=CH' })).json().product.variants[0].price
    : undefined;

  it('refuses (409, naming the region; a failed job over HTTP) an import that changes the currency of a region with prices in the old one, and writes nothing', async () => {
    assert.deepEqual(await swissPrice(), { amount: 10.9, currency: 'CHF' });
    const regions = SWISS_REGIONS.map((region) => (region.id === 'reg_ch' ? { ...region, currency: 'EUR' } : region));
    const before = await storeState(testApp);

    const byAdmin = assertAdminError(await admin('PUT', '/admin/v1/regions/reg_ch', { name: 'Switzerland', currency: 'EUR', countries: ['CH'] }), 409, 'CONFLICT');
    const byImport = await failedImport(testApp, catalog([product('fresh-figs')], regions), 'CONFLICT');
    assert.match(byImport.message, /reg_ch/);
    assert.equal(byImport.message, byAdmin.message, 'one rule, one message');
    assert.deepEqual(await storeState(testApp), before);
    assert.deepEqual(await swissPrice(), { amount: 10.9, currency: 'CHF' });
  });

  it('lets both change it once the region has no prices of its own', async () => {
    const removed = await admin('POST', '/admin/v1/prices', { rows: [{ sku: 'GRUYERE', currency: 'CHF', region_id: 'reg_ch', amount: null }] });
    assert.equal(removed.statusCode, 200, removed.body);
    const regions = SWISS_REGIONS.map((region) => (region.id === 'reg_ch' ? { ...region, currency: 'EUR' } : region));
    const imported = await importOverHttp(testApp, catalog([CHEESE].map((p) => ({ ...p, variants: [variant('GRUYERE', { prices: [{ currency: 'EUR', amount: 900 }] })] })), regions));
    assert.equal(imported.status, 'succeeded', JSON.stringify(imported));
    assert.deepEqual(await swissPrice(), { amount: 9, currency: 'EUR' });
  });
});

/** `count` categories, each below the one before, from `first`. */
const chain = (prefix: string, count: number, parentOfFirst?: string) =>
  Array.from({ length: count }, (_, level) => category(`${prefix}-${level}`, level === 0 ? (parentOfFirst ? { parent: parentOfFirst } : {}) : { parent: `${prefix}-${level - 1}` }));

describe('the category depth limit holds across imports', () => {
  const testApp = useTestApp(withAdmin({ catalog: { ...catalog([product('honey')]), categories: chain('c', MAX_CATEGORY_DEPTH + 1) } as CatalogFile }));

  it(`refuses (400, naming the category) an import that re-parents a stored category so that one below it is ${MAX_CATEGORY_DEPTH + 1} levels deep, and writes nothing`, async () => {
    const before = await storeState(testApp);
    // On its own the file is fine: "c-0" one level below a new top.
    const file = { ...catalog([product('honey')]), categories: [category('top'), category('c-0', { parent: 'top' })] };
    const refused = await failedImport(testApp, file, 'INVALID_REQUEST');
    assert.deepEqual(refused.details.problems, [
      {
        path: '$.categories[1].parent',
        message: `category "c-${MAX_CATEGORY_DEPTH}" (stored, below "c-0") would be more than ${MAX_CATEGORY_DEPTH} levels below the top`,
      },
    ]);
    assert.deepEqual(await storeState(testApp), before);
    const listed = (await testApp.app.inject({ url: '/public/v1/categories' })).json();
    assert.equal(listed.categories.length, MAX_CATEGORY_DEPTH + 1);
  });

  it('accepts a re-parenting that stays within the limit', async () => {
    const file = { ...catalog([product('honey')]), categories: [category('top'), category('c-1', { parent: 'top' })] };
    const imported = await importOverHttp(testApp, file);
    assert.equal(imported.status, 'succeeded', JSON.stringify(imported));
  });
});

const letters = (i: number, length: number) =>
  Array.from({ length }, (_, place) => String.fromCharCode(65 + (Math.floor(i / 26 ** (length - 1 - place)) % 26))).join('');
/** `count` prices of one variant, each in a currency of its own (AAA, AAB, ...). */
const manyPrices = (count: number): CatalogFilePrice[] => Array.from({ length: count }, (_, i) => ({ currency: letters(i, 3), amount: 100 + i }));
/** A region selling in each of those currencies (prices only in currencies a region sells are accepted). */
const manyRegions = (count: number) => [
  { id: 'reg_eu', name: 'Europe', currency: 'EUR', countries: ['IT'] },
  ...Array.from({ length: count }, (_, i) => ({ id: `reg_${i}`, name: `Region ${i}`, currency: letters(i, 3), countries: [letters(i, 2)] })),
];

describe(`at most ${MAX_VARIANT_PRICES} prices per variant`, () => {
  const testApp = useTestApp(withAdmin({ catalog: catalog([product('honey')], manyRegions(MAX_VARIANT_PRICES + 1)) }));
  const admin = (...args: Parameters<ReturnType<typeof adminClient>>) => adminClient(testApp)(...args);
  const body = (variants: ReturnType<typeof variant>[]) => {
    const { handle: _handle, ...rest } = product('honey', skuVariants(variants));
    return rest;
  };

  it(`refuses (400, naming the field) ${MAX_VARIANT_PRICES + 1} prices in one variant, in the admin API and in a catalog file`, async () => {
    const before = await storeState(testApp);
    const tooMany = [variant('HONEY', { prices: manyPrices(MAX_VARIANT_PRICES + 1) })];
    const byAdmin = assertAdminError(await admin('PUT', '/admin/v1/products/honey', body(tooMany)), 400, 'INVALID_REQUEST');
    assert.match(byAdmin.message, /body\.variants\[0\]\.prices must NOT have more than 100 items/);
    const byImport = await failedImport(testApp, catalog([product('honey', skuVariants(tooMany))], manyRegions(MAX_VARIANT_PRICES + 1)), 'INVALID_REQUEST');
    assert.deepEqual(byImport.details.problems, [{ path: '$.products[0].variants[0].prices', message: 'must NOT have more than 100 items' }]);
    assert.deepEqual(await storeState(testApp), before);
  });

  it(`writes a product of 100 variants with ${MAX_VARIANT_PRICES} prices each (200), its statements within the bound-parameter limits`, async () => {
    const variants = Array.from({ length: 100 }, (_, v) => variant(`HONEY-${v}`, { prices: manyPrices(MAX_VARIANT_PRICES) }));
    const written = await admin('PUT', '/admin/v1/products/honey', body(variants));
    assert.equal(written.statusCode, 200, written.body);
    const count = await testApp.store.db.selectFrom('prices').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    assert.equal(Number(count.n), 100 * MAX_VARIANT_PRICES);
  });
});

describe('PostgreSQL protocol errors (08P01) are internal errors, not outages', () => {
  it('classes a statement with more parameters than the protocol allows as a bug (500), not 503 with Retry-After', { skip: needsPostgres }, async () => {
    const client = new pg.Client({ connectionString: postgresUrl });
    await client.connect();
    try {
      const parameters = Array.from({ length: 70_000 }, (_, i) => i);
      const error = await client.query(`select cardinality(array[${parameters.map((_, i) => `$${i + 1}::int`).join(', ')}])`, parameters).then(() => undefined, (caught: unknown) => caught);
      assert.equal((error as { code?: string }).code, '08P01');
      assert.equal(isStoreUnavailable(error), false);
    } finally {
      await client.end();
    }
  });
});

describe('images and thumbnails are http: or https: addresses', () => {
  const testApp = useTestApp(withAdmin({ catalog: [product('honey')] }));
  const admin = (...args: Parameters<ReturnType<typeof adminClient>>) => adminClient(testApp)(...args);
  const { handle: _handle, ...honey } = product('honey');

  it('refuses javascript: and data: addresses (400, naming the field) in PUT, PATCH and a catalog file, and writes nothing', async () => {
    const before = await storeState(testApp);
    for (const url of ['javascript:alert(1)', 'JavaScript:alert(document.cookie)', 'data:text/html,<script>alert(1)</script>', 'ftp://files.example/x.jpg']) {
      const put = assertAdminError(await admin('PUT', '/admin/v1/products/honey', { ...honey, thumbnail: url }), 400, 'INVALID_REQUEST');
      assert.match(put.message, /body\.thumbnail /);
      const image = assertAdminError(await admin('PUT', '/admin/v1/products/honey', { ...honey, images: [{ url }] }), 400, 'INVALID_REQUEST');
      assert.match(image.message, /body\.images\[0\]\.url /);
      const patch = assertAdminError(await admin('PATCH', '/admin/v1/products/honey', { thumbnail: url }), 400, 'INVALID_REQUEST');
      assert.match(patch.message, /body\.thumbnail /);
      const patchImage = assertAdminError(await admin('PATCH', '/admin/v1/products/honey', { images: [{ url }] }), 400, 'INVALID_REQUEST');
      assert.match(patchImage.message, /body\.images\[0\]\.url /);
      const file = catalog([product('honey', { thumbnail: url, images: [{ url }] })]);
      const imported = await failedImport(testApp, file, 'INVALID_REQUEST');
      // A union's every branch reports (not a web address, not null): one field, several problems.
      const paths = new Set(imported.details.problems.map((problem: { path: string }) => problem.path));
      assert.deepEqual([...paths], ['$.products[0].thumbnail', '$.products[0].images[0].url']);
    }
    assert.deepEqual(await storeState(testApp), before);
  });

  it('accepts http: and https: addresses', async () => {
    const written = await admin('PUT', '/admin/v1/products/honey', { ...honey, thumbnail: 'http://images.example/h.jpg', images: [{ url: 'https://images.example/h2.jpg' }] });
    assert.equal(written.statusCode, 200, written.body);
    const served = (await testApp.app.inject({ url: '/public/v1/products/honey' })).json().product;
    assert.deepEqual([served.thumbnail, served.images[0].url], ['http://images.example/h.jpg', 'https://images.example/h2.jpg']);
  });
});
