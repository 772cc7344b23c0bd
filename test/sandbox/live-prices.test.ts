import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { importCatalog } from '../../src/catalog/store/import-catalog.js';
import { catalog, product, variant } from '../support/catalog-builder.js';
import { SANDBOX_PRODUCTS } from '../support/sandbox.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { CatalogWriter } from '../../src/catalog/store/catalog-writer.js';

describe('sandbox cart prices follow the live catalog', () => {
  let sandbox: TestApp;
  let token: string;
  before(async () => {
    sandbox = await startTestApp({ catalog: SANDBOX_PRODUCTS });
    token = await sandbox.newKey();
  });
  after(() => sandbox.close());

  /** Re-imports the test catalog with `olive-oil` and `cents` replaced, and reloads the read model. */
  async function changeCatalog(oilPrice: number, tenInStock: boolean): Promise<void> {
    const products = SANDBOX_PRODUCTS.map((item) =>
      item.handle === 'olive-oil'
        ? product('olive-oil', { variants: [variant('OIL', { prices: [{ currency: 'EUR', amount: oilPrice }] })] })
        : item.handle === 'cents'
          ? {
              ...item,
              variants: item.variants.map((v) => (v.sku === 'TEN' && !tenInStock ? { ...v, manage_inventory: true, inventory_quantity: 0 } : v)),
            }
          : item,
    );
    await importCatalog(new CatalogWriter(sandbox.store.db), catalog(products));
    await sandbox.app.catalogReadModel.refresh();
  }

  test('a price change shows on the next read; a line that stops being purchasable is dropped', async () => {
    const cart = await sandbox.newCart(token);
    const url = `/sandbox/v1/carts/${cart.id}`;
    const oil = await sandbox.variantId('OIL');
    const ten = await sandbox.variantId('TEN');
    await sandbox.call(token, 'POST', `${url}/items`, { variant_id: oil, quantity: 2 });
    await sandbox.call(token, 'POST', `${url}/items`, { variant_id: ten, quantity: 1 });

    await changeCatalog(1800, false);
    const read = await sandbox.call(token, 'GET', url);
    assert.deepEqual(read.data.items, [{ variant_id: oil, quantity: 2, unit_price: 18 }]);
    assert.equal(read.data.totals.item_total, 36);

    // Back in stock: the dropped line does not come back once the cart was changed without it.
    await sandbox.call(token, 'POST', `${url}/items`, { variant_id: oil, quantity: 1 });
    await changeCatalog(1650, true);
    const later = await sandbox.call(token, 'GET', url);
    assert.deepEqual(later.data.items, [{ variant_id: oil, quantity: 3, unit_price: 16.5 }]);
  });
});
