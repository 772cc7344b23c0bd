import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { getOk } from '../support/catalog-assertions.js';
import { product, skuVariants, variant } from '../support/catalog-builder.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** docs/decisions.md, Availability: one variant per row (and per order-sensitive combination). */
const ROWS = [
  { sku: 'UNMANAGED', fields: { manage_inventory: false, inventory_quantity: 0, allow_backorder: false }, status: 'in_stock', purchasable: true },
  { sku: 'IN-STOCK', fields: { manage_inventory: true, inventory_quantity: 5, allow_backorder: false }, status: 'in_stock', purchasable: true },
  { sku: 'IN-STOCK-BACKORDERABLE', fields: { manage_inventory: true, inventory_quantity: 1, allow_backorder: true }, status: 'in_stock', purchasable: true },
  { sku: 'BACKORDER', fields: { manage_inventory: true, inventory_quantity: 0, allow_backorder: true }, status: 'backorder', purchasable: true },
  { sku: 'OUT-OF-STOCK', fields: { manage_inventory: true, inventory_quantity: 0, allow_backorder: false }, status: 'out_of_stock', purchasable: false },
] as const;

describe('variant availability', () => {
  let testApp: TestApp;
  let variants: Map<string, any>;

  before(async () => {
    testApp = await startTestApp({
      catalog: [product('stock-table', skuVariants(ROWS.map((row) => variant(row.sku, { ...row.fields }))))],
    });
    const data = await getOk(testApp.client, '/public/v1/products/stock-table');
    variants = new Map(data.product.variants.map((v: any) => [v.sku, v]));
  });
  after(() => testApp.close());

  for (const row of ROWS) {
    const { manage_inventory, inventory_quantity, allow_backorder } = row.fields;
    it(`200 with ${row.status} (purchasable ${row.purchasable}) for manage_inventory=${manage_inventory}, quantity=${inventory_quantity}, backorder=${allow_backorder}`, () => {
      assert.deepEqual(variants.get(row.sku).availability, { status: row.status, purchasable: row.purchasable });
    });
  }

  it('200 with the same availability in the list', async () => {
    const data = await getOk(testApp.client, '/public/v1/products');
    const listed = data.products[0].variants.map((v: any) => [v.sku, v.availability]);
    assert.deepEqual(listed, [...variants.values()].map((v) => [v.sku, v.availability]));
  });

  it('200 never exposes stock quantities or inventory flags', async () => {
    const response = await testApp.client.get('/public/v1/products/stock-table');
    assert.doesNotMatch(response.body, /"\w*(inventory|quantity|backorder)\w*"\s*:/i);
    for (const v of response.data.product.variants) {
      assert.deepEqual(Object.keys(v).sort(), ['availability', 'display_name', 'id', 'options', 'price', 'sku']);
    }
  });
});
