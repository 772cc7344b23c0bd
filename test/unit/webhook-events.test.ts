import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ProductChangeDetail } from '../../src/catalog/store/change-log.js';
import { catalogChangeEvents } from '../../src/delivery/events.js';

const AT = '2026-11-26T18:00:00.000Z';
const details = (fields: Partial<ProductChangeDetail>): ProductChangeDetail => ({ product_id: 'prod_1', handle: 'olive-oil', kinds: [], served: true, prices: [], availability: [], ...fields });
const inStock = { purchasable: true, status: 'in_stock' } as const;

describe('catalogChangeEvents: a change\'s per-product details as webhook events', () => {
  it('makes one event per product kind, then one per price and availability change, numbered within the change', () => {
    const events = catalogChangeEvents(42, AT, [
      details({
        kinds: ['created', 'price', 'availability', 'published'],
        prices: [{ variant_id: 'var_1', sku: 'OIL-1', key: 'reg_eu', old: null, new: 1650 }],
        availability: [{ variant_id: 'var_1', sku: 'OIL-1', old: null, new: inStock }],
      }),
      details({ product_id: 'prod_2', handle: 'bread', kinds: ['content', 'withdrawn'] }),
      details({ product_id: 'prod_3', handle: 'old-jam', kinds: ['deleted'], served: false }),
    ]);
    assert.deepEqual(
      events.map((event) => [event.id, event.type]),
      [
        ['evt_42_0', 'product.created'],
        ['evt_42_1', 'product.published'],
        ['evt_42_2', 'variant.price_changed'],
        ['evt_42_3', 'variant.availability_changed'],
        ['evt_42_4', 'product.updated'],
        ['evt_42_5', 'product.withdrawn'],
        ['evt_42_6', 'product.deleted'],
      ],
    );
    assert.ok(events.every((event) => event.timestamp === AT && event.catalog_version === 42));
    assert.deepEqual(events[2]!.data, { product_id: 'prod_1', handle: 'olive-oil', variant_id: 'var_1', sku: 'OIL-1', region_id: 'reg_eu', currency: null, old: null, new: 1650 });
    assert.deepEqual(events[3]!.data, { product_id: 'prod_1', handle: 'olive-oil', variant_id: 'var_1', sku: 'OIL-1', old: null, new: 'in_stock' });
    assert.deepEqual(events[6]!.data, { product_id: 'prod_3', handle: 'old-jam' });
  });

  it('makes the same events, ids included, when a change is consumed again', () => {
    const products = [details({ kinds: ['content'], prices: [{ variant_id: 'var_1', sku: 'OIL-1', key: 'reg_eu', old: 1650, new: 1590 }] })];
    assert.deepEqual(catalogChangeEvents(7, AT, products), catalogChangeEvents(7, AT, products));
  });
});
