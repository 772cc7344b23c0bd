import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { minorPriceIn, priceTable } from '../../src/catalog/read-model/pricing.js';
import { NO_PRICE } from '../../src/catalog/read-model/product.js';
import { catalogVariant, EUROPE, SWITZERLAND, UNITED_STATES } from '../support/catalog-product.js';

describe('priceTable', () => {
  it('has a column per key in the order keys first appear, a row per variant, and NO_PRICE where a variant has none', () => {
    const table = priceTable([['EUR', 590, 'USD', 660], ['ch', 700, 'EUR', 1590], []]);
    assert.deepEqual(table.keys, ['EUR', 'USD', 'ch']);
    assert.deepEqual(table.amounts, [590, 660, NO_PRICE, 1590, NO_PRICE, 700, NO_PRICE, NO_PRICE, NO_PRICE]);
  });

  it('keeps the keys list that shareKeys answers', () => {
    const shared = Object.freeze(['EUR']);
    assert.equal(priceTable([['EUR', 1]], () => shared).keys, shared);
  });

  it('prices each variant from its own row: the region first, then its currency, else none', () => {
    const prices = priceTable([['EUR', 590, 'ch', 550], ['EUR', 1590], ['USD', 0]]);
    const variant = (priceRow: number) => ({ ...catalogVariant(`v${priceRow}`), prices, priceRow });
    assert.equal(minorPriceIn(variant(0), EUROPE), 590);
    assert.equal(minorPriceIn(variant(0), SWITZERLAND), 550);
    assert.equal(minorPriceIn(variant(1), SWITZERLAND), 1590);
    assert.equal(minorPriceIn(variant(1), UNITED_STATES), null);
    // A price of zero is a price.
    assert.equal(minorPriceIn(variant(2), UNITED_STATES), 0);
    assert.equal(minorPriceIn(variant(2), EUROPE), null);
  });
});
