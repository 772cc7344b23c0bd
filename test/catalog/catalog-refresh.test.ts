import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { importCatalog } from '../../src/catalog/store/import-catalog.js';
import { pollUntil } from '../support/poll.js';
import { catalog, day, product, variant } from '../support/catalog-builder.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { CatalogWriter } from '../../src/catalog/store/catalog-writer.js';

/** Only a hang guard: the app polls every 100 ms here; a busy machine may take seconds. */
const POLL_LIMIT_MS = 30_000;

describe('a running app picks up catalog changes made through the store', () => {
  let testApp: TestApp;

  before(async () => {
    testApp = await startTestApp({ catalog: [product('first-product', { created_at: day(1) })], config: { catalogPollMs: 100 } });
  });
  after(() => testApp.close());

  /** Polls the detail route until it answers `status`, for at most POLL_LIMIT_MS. */
  const waitForStatus = async (url: string, status: number) =>
    (await pollUntil(() => testApp.client.get(url), (response) => response.statusCode === status, POLL_LIMIT_MS)).value;

  it('404 before, then 200 for a product imported by another writer, without a restart or refresh call', async () => {
    assert.equal((await testApp.client.get('/public/v1/products/late-arrival')).statusCode, 404);
    const changed = catalog([
      product('late-arrival', { created_at: day(2), variants: [variant('LATE', { prices: [{ currency: 'EUR', amount: 1234 }] })] }),
    ]);
    await importCatalog(new CatalogWriter(testApp.store.db), changed);

    const response = await waitForStatus('/public/v1/products/late-arrival', 200);
    assert.equal(response.statusCode, 200, `not served within ${POLL_LIMIT_MS} ms`);
    assert.equal(response.data.product.variants[0].price.amount, 12.34);
    const list = await testApp.client.get('/public/v1/products');
    assert.deepEqual(list.data.products.map((p: any) => p.handle), ['late-arrival', 'first-product']);
  });
});
