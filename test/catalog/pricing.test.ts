import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { getOk } from '../support/catalog-assertions.js';
import { product, skuVariants, variant } from '../support/catalog-builder.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * docs/decisions.md, Prices. OIL-500 has a reg_eu price and no USD price; OIL-750 has both; neither has
 * a GBP region price. NO-USD has no USD price at all.
 */
const PRODUCTS = [
  product(
    'olive-oil',
    skuVariants([
      variant('OIL-500', {
        prices: [
          { currency: 'EUR', amount: 1650 },
          { currency: 'EUR', amount: 1750, region: 'reg_eu' },
          { currency: 'GBP', amount: 1420 },
          { currency: 'JPY', amount: 2700 },
        ],
      }),
      variant('OIL-750', {
        prices: [
          { currency: 'EUR', amount: 2290 },
          { currency: 'EUR', amount: 2430, region: 'reg_eu' },
          { currency: 'USD', amount: 2560 },
        ],
      }),
    ]),
  ),
  product('no-usd', { variants: [variant('NO-USD', { prices: [{ currency: 'EUR', amount: 5 }] })] }),
];

describe('variant prices and price_range per market (docs/decisions.md, Prices)', () => {
  let testApp: TestApp;

  before(async () => {
    testApp = await startTestApp({ catalog: PRODUCTS });
  });
  after(() => testApp.close());

  const detail = async (handle: string, country: string) => {
    const data = await getOk(testApp.client, `/public/v1/products/${handle}?country=${country}`);
    const prices = Object.fromEntries(data.product.variants.map((v: any) => [v.sku, v.price]));
    return { prices, range: data.product.price_range };
  };

  it('200 with the plain EUR price in IT, in major units (1650 -> 16.5)', async () => {
    const { prices, range } = await detail('olive-oil', 'IT');
    assert.deepEqual(prices, { 'OIL-500': { amount: 16.5, currency: 'EUR' }, 'OIL-750': { amount: 22.9, currency: 'EUR' } });
    assert.deepEqual(range, { minimum: 16.5, maximum: 22.9, currency: 'EUR' });
  });

  it('200 with the reg_eu price in DE, overriding the EUR price', async () => {
    const { prices, range } = await detail('olive-oil', 'DE');
    assert.deepEqual(prices, { 'OIL-500': { amount: 17.5, currency: 'EUR' }, 'OIL-750': { amount: 24.3, currency: 'EUR' } });
    assert.deepEqual(range, { minimum: 17.5, maximum: 24.3, currency: 'EUR' });
  });

  it('200 with price null in US for the variant without a USD price, and price_range over the others', async () => {
    const { prices, range } = await detail('olive-oil', 'US');
    assert.deepEqual(prices, { 'OIL-500': null, 'OIL-750': { amount: 25.6, currency: 'USD' } });
    assert.deepEqual(range, { minimum: 25.6, maximum: 25.6, currency: 'USD' });
  });

  it('200 with price null in GB for the variant without a GBP price', async () => {
    const { prices, range } = await detail('olive-oil', 'GB');
    assert.deepEqual(prices, { 'OIL-500': { amount: 14.2, currency: 'GBP' }, 'OIL-750': null });
    assert.deepEqual(range, { minimum: 14.2, maximum: 14.2, currency: 'GBP' });
  });

  it('200 with zero-decimal currencies in whole units (JPY 2700 -> 2700)', async () => {
    const { prices } = await detail('olive-oil', 'JP');
    assert.deepEqual(prices['OIL-500'], { amount: 2700, currency: 'JPY' });
  });

  it('200 with price_range null when no variant has a price in the market', async () => {
    const { prices, range } = await detail('no-usd', 'US');
    assert.deepEqual(prices, { 'NO-USD': null });
    assert.equal(range, null);
  });

  it('200 with the same prices in the list as in the detail', async () => {
    const list = await getOk(testApp.client, '/public/v1/products?country=DE&q=olive');
    const { range } = await detail('olive-oil', 'DE');
    assert.deepEqual(list.products[0].price_range, range);
  });
});
