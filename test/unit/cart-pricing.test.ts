import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { LiveCatalog } from '../../src/catalog/read-model/live-catalog.js';
import { cartMarket, priceCart, sellability } from '../../src/sandbox/cart-pricing.js';
import { shippingRatesFor } from '../../src/sandbox/shipping.js';
import { product, REGIONS, variant } from '../support/catalog-builder.js';
import { liveCatalog } from '../support/live-catalog.js';
import { SANDBOX_PRODUCTS, VALID_ADDRESS } from '../support/sandbox.js';

describe('cart pricing (docs/decisions.md, Cart market)', () => {
  let catalog: LiveCatalog;
  let id: (sku: string) => string;
  const region = (regionId: string) => catalog.regions.find((candidate) => candidate.id === regionId)!;

  before(async () => {
    // reg_ch sells in EUR too, and comes first: the region of the default country must still win.
    const regions = [{ id: 'reg_ch', name: 'Switzerland', currency: 'EUR', countries: ['CH'] }, ...REGIONS];
    const usd = product('usd-only', { variants: [variant('USD-ONLY', { prices: [{ currency: 'USD', amount: 500 }] })] });
    catalog = await liveCatalog([...SANDBOX_PRODUCTS, usd], regions);
    // A SKU the catalog leaves out answers undefined, which the tests of refusals check.
    id = (sku) => catalog.variantBySku.get(sku)?.id as string;
  });

  /** The region of the cart's market when its only country is the address's, if any. */
  const cartRegion = (currency: string, country?: string) => cartMarket(catalog, currency, [country])?.region;

  describe('cartMarket', () => {
    it("is the address country's region when it sells in the cart currency", () => {
      assert.equal(cartRegion('EUR', 'DE')?.id, 'reg_eu');
    });
    it("is the default country's region for the currency without an address, or when the address's region sells in another", () => {
      assert.equal(cartRegion('EUR')?.id, 'reg_it');
      assert.equal(cartRegion('EUR', 'GB')?.id, 'reg_it');
    });
    it('is the first region selling the currency when the default country does not', () => {
      assert.equal(cartRegion('GBP')?.id, 'reg_gb');
    });
    it('is undefined when no region sells the currency', () => {
      assert.equal(cartRegion('CHF'), undefined);
    });
  });

  describe('sellability', () => {
    it('gives the region price over the currency price', () => {
      assert.deepEqual(sellability(catalog, id('OIL'), region('reg_it')), { unitPrice: 1650 });
      assert.deepEqual(sellability(catalog, id('OIL'), region('reg_eu')), { unitPrice: 1750 });
    });
    it('sells a backorderable variant with no stock', () => {
      assert.ok('unitPrice' in sellability(catalog, id('BACKORDER'), region('reg_it')));
    });
    const refusals: [string, () => string, string, RegExp][] = [
      ['an unknown variant', () => 'no-such-variant', 'reg_it', /not in the published catalog/],
      ['a variant out of stock', () => id('SOLD-OUT'), 'reg_it', /out of stock/],
      ['a variant without a price in the market', () => id('USD-ONLY'), 'reg_it', /no price in the cart's market/],
    ];
    for (const [what, variantId, regionId, reason] of refusals) {
      it(`refuses ${what}`, () => {
        const sale = sellability(catalog, variantId(), region(regionId));
        assert.ok('reason' in sale && reason.test(sale.reason), JSON.stringify(sale));
      });
    }
    it('refuses draft and weighted variants as not in the published catalog (the catalog leaves them out)', () => {
      assert.equal(id('DRAFT'), undefined);
      assert.equal(id('WEIGHTED'), undefined);
    });
  });

  describe('priceCart', () => {
    const rates = shippingRatesFor('EUR', { EUR: 490 });

    it('prices sellable lines now, leaves out the others, and adds the selected shipping option', () => {
      const contents = {
        items: [
          { variant_id: id('OIL'), quantity: 2 },
          { variant_id: id('TEN'), quantity: 3 },
          { variant_id: id('SOLD-OUT'), quantity: 1 },
        ],
        shipping_address: { ...VALID_ADDRESS, country: 'FR' },
        shipping_option_id: 'sandbox_standard',
      };
      const priced = priceCart(catalog, 'EUR', contents, rates);
      assert.equal(priced.region?.id, 'reg_eu');
      assert.deepEqual(priced.lines.map((line) => [line.variant_id, line.unitPrice]), [[id('OIL'), 1750], [id('TEN'), 10]]);
      assert.equal(priced.itemTotal, 2 * 1750 + 3 * 10);
      assert.equal(priced.shipping?.id, 'sandbox_standard');
      assert.equal(priced.shippingTotal, 490);
    });

    it('adds no shipping for an option that is not offered', () => {
      const priced = priceCart(catalog, 'EUR', { items: [], shipping_option_id: 'express' }, rates);
      assert.equal(priced.shipping, undefined);
      assert.equal(priced.shippingTotal, 0);
      assert.equal(priced.itemTotal, 0);
    });
  });
});
