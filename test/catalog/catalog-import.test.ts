import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CatalogWriter } from '../../src/catalog/store/catalog-writer.js';
import { importCatalog } from '../../src/catalog/store/import-catalog.js';
import { assertProblem, getOk } from '../support/catalog-assertions.js';
import { catalog, day, product, skuVariants, variant } from '../support/catalog-builder.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const original = () =>
  product('update-me', { title: 'Old Title', created_at: day(2), ...skuVariants([variant('U-1'), variant('U-2')]) });

/** `update-me` retitled, U-1 repriced, U-2 dropped, U-3 added; `keep-me` left out. */
const changed = () =>
  product('update-me', {
    title: 'New Title',
    created_at: day(2),
    ...skuVariants([variant('U-1', { prices: [{ currency: 'EUR', amount: 4250 }] }), variant('U-3')]),
  });

describe('catalog import through the importer (upsert by handle and SKU)', () => {
  let testApp: TestApp;

  before(async () => {
    testApp = await startTestApp({ catalog: [original(), product('keep-me', { created_at: day(1) })] });
  });
  after(() => testApp.close());

  const detail = (handle: string) => getOk(testApp.client, `/public/v1/products/${handle}`);
  const importAndRefresh = async (...args: Parameters<typeof importCatalog>) => {
    const report = await importCatalog(...args);
    await testApp.app.catalogReadModel.refresh();
    return report;
  };

  it('200 after a re-import with the same product and variant ids, the new texts and prices, and the dropped variant gone', async () => {
    const before = (await detail('update-me')).product;
    const report = await importAndRefresh(new CatalogWriter(testApp.store.db), catalog([changed()]));
    const after = (await detail('update-me')).product;

    assert.deepEqual(report.products, { created: 0, updated: 1 });
    assert.deepEqual(report.variants, { created: 1, updated: 1, removed: ['U-2'] });
    assert.equal(after.id, before.id);
    assert.equal(after.title, 'New Title');
    assert.deepEqual(after.variants.map((v: any) => v.sku), ['U-1', 'U-3']);
    assert.equal(after.variants[0].id, before.variants[0].id);
    assert.deepEqual(after.variants[0].price, { amount: 42.5, currency: 'EUR' });
  });

  it('200 for a product missing from the file: kept as it was and reported as missing', async () => {
    const before = (await detail('keep-me')).product;
    const report = await importAndRefresh(new CatalogWriter(testApp.store.db), catalog([changed()]));
    assert.deepEqual(report.missing, ['keep-me']);
    assert.deepEqual(report.unpublished, []);
    assert.deepEqual((await detail('keep-me')).product, before);
  });

  it('404 PRODUCT_NOT_FOUND for a product missing from the file once imported with unpublishMissing', async () => {
    const report = await importAndRefresh(new CatalogWriter(testApp.store.db), catalog([changed()]), { unpublishMissing: true });
    assert.deepEqual(report.unpublished, ['keep-me']);
    assertProblem(await testApp.client.get('/public/v1/products/keep-me'), 404, 'PRODUCT_NOT_FOUND');
    const list = await getOk(testApp.client, '/public/v1/products');
    assert.deepEqual(list.products.map((p: any) => p.handle), ['update-me']);
  });

  it('200 again for an unpublished product once a file publishes it, with its old id', async () => {
    const id = (await testApp.store.db.selectFrom('products').select('id').where('handle', '=', 'keep-me').executeTakeFirstOrThrow()).id;
    await importAndRefresh(new CatalogWriter(testApp.store.db), catalog([product('keep-me', { created_at: day(1) })]));
    assert.equal((await detail('keep-me')).product.id, id);
  });
});
