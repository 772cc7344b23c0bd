import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CatalogProduct } from '../../src/catalog/read-model/product.js';
import { OfferIndex, type RegionOffers } from '../../src/catalog/read-model/offer-index.js';
import { SearchIndex } from '../../src/catalog/read-model/search-index.js';
import { catalogProduct, catalogVariant, EUROPE, SWITZERLAND, UNITED_STATES } from '../support/catalog-product.js';

/** A product whose variants have these prices (flat key, minor units pairs), each in stock. */
const priced = (id: string, ...prices: (string | number)[][]) =>
  catalogProduct(id, { variants: prices.map((variantPrices, v) => catalogVariant(`${id}_${v}`, { productId: id, prices: variantPrices })) });

function offersOf(...products: CatalogProduct[]) {
  const search = new SearchIndex();
  for (const product of products) search.add(product);
  const offers = new OfferIndex(search);
  return { search, offers, slot: (id: string) => search.slotOf(id)! };
}

/** Every price test of one slot: the bounds it passes among a few. */
const boundsPassed = (offers: RegionOffers, slot: number, bounds: [number, number][]) => bounds.filter(([low, high]) => offers.hasPriceWithin(slot, low, high));

describe('OfferIndex: prices per market', () => {
  const oil = priced('oil', ['EUR', 1200, 'USD', 1500], ['EUR', 800, 'ch', 950], ['EUR', 2000]);
  const euroOnly = priced('euro-only', ['EUR', 500]);
  const { offers, slot } = offersOf(oil, euroOnly);

  it('the lowest variant price in the market; a region price wins over its currency price', () => {
    assert.equal(offers.in(EUROPE).lowestPrice(slot('oil')), 800);
    assert.equal(offers.in(SWITZERLAND).lowestPrice(slot('oil')), 950);
    assert.equal(offers.in(UNITED_STATES).lowestPrice(slot('oil')), 1500, 'only the variants priced in the market count');
  });

  it('no price in the market: lowest is Infinity (sorts last), and no bounds hold it', () => {
    assert.equal(offers.in(UNITED_STATES).lowestPrice(slot('euro-only')), Infinity);
    assert.deepEqual(boundsPassed(offers.in(UNITED_STATES), slot('euro-only'), [[0, Infinity], [0, 500]]), []);
  });

  it('a price within the bounds, inclusive, from any variant; bounds between two prices hold none', () => {
    const europe = offers.in(EUROPE);
    const bounds: [number, number][] = [
      [800, 800],
      [2000, 2000],
      [0, 799],
      [2001, 5000],
      [900, 1100],
      [900, 1200],
      [1201, 1999],
      [0, Infinity],
    ];
    assert.deepEqual(boundsPassed(europe, slot('oil'), bounds), [[800, 800], [2000, 2000], [900, 1200], [0, Infinity]]);
    assert.deepEqual(boundsPassed(offers.in(SWITZERLAND), slot('oil'), [[800, 900], [950, 950], [1201, 1999], [1999, 2000]]), [[950, 950], [1999, 2000]]);
  });

  it('the same Region object keeps its offers; a replaced one (say, a new currency) starts afresh', () => {
    assert.equal(offers.in(EUROPE), offers.in(EUROPE));
    const inDollars = { ...EUROPE, currency: 'USD' };
    assert.notEqual(offers.in(inDollars), offers.in(EUROPE));
    assert.equal(offers.in(inDollars).lowestPrice(slot('oil')), 1500);
  });
});

describe('OfferIndex: sellability', () => {
  const variant = (id: string, fields: Parameters<typeof catalogVariant>[1]) => catalogVariant(id, { prices: ['EUR', 100], ...fields });
  const products = [
    catalogProduct('unmanaged', { variants: [variant('a', {})] }),
    catalogProduct('in-stock', { variants: [variant('b', { manageInventory: true, inventoryQuantity: 3 })] }),
    catalogProduct('backorder', { variants: [variant('c', { manageInventory: true, inventoryQuantity: 0, allowBackorder: true })] }),
    catalogProduct('sold-out', { variants: [variant('d', { manageInventory: true, inventoryQuantity: 0 })] }),
    catalogProduct('one-left', { variants: [variant('e', { manageInventory: true, inventoryQuantity: 0 }), variant('f', { manageInventory: true, inventoryQuantity: 1 })] }),
    // Its purchasable variant is priced in dollars only, its euro one sold out.
    catalogProduct('elsewhere', { variants: [variant('g', { manageInventory: true, inventoryQuantity: 0 }), variant('h', { prices: ['USD', 100] })] }),
    catalogProduct('no-variants', { variants: [] }),
  ];
  const { offers, slot } = offersOf(...products);
  const sellableIn = (region: typeof EUROPE) => products.filter((product) => offers.in(region).sellable(slot(product.id))).map((product) => product.id);

  it('sellable when a variant is purchasable (in stock, unmanaged or on backorder) and priced in the market', () => {
    assert.deepEqual(sellableIn(EUROPE), ['unmanaged', 'in-stock', 'backorder', 'one-left']);
    assert.deepEqual(sellableIn(UNITED_STATES), ['elsewhere']);
  });
});

describe('OfferIndex: following the products of the search index', () => {
  it('a replaced product is read afresh (its revision moved): new prices and stock on the next read', () => {
    const { search, offers, slot } = offersOf(priced('oil', ['EUR', 1200]));
    const europe = offers.in(EUROPE);
    assert.equal(europe.lowestPrice(slot('oil')), 1200);
    assert.equal(europe.sellable(slot('oil')), true);
    search.replace(catalogProduct('oil', { variants: [catalogVariant('oil_0', { prices: ['EUR', 900], manageInventory: true, inventoryQuantity: 0 })] }));
    assert.equal(europe.lowestPrice(slot('oil')), 900);
    assert.equal(europe.sellable(slot('oil')), false);
    assert.equal(europe.hasPriceWithin(slot('oil'), 1000, 1300), false);
  });

  it('a slot freed and reused holds the new product\'s offers, not the old one\'s', () => {
    const old = priced('old', ['EUR', 100]);
    const { search, offers } = offersOf(old);
    const europe = offers.in(EUROPE);
    const slot = search.slotOf('old')!;
    assert.equal(europe.lowestPrice(slot), 100);
    search.remove(old);
    search.add(priced('new', ['EUR', 700]));
    assert.equal(search.slotOf('new'), slot);
    assert.equal(europe.lowestPrice(slot), 700);
  });

  it('products added after the first read, in slots beyond it, are read too', () => {
    const { search, offers } = offersOf(priced('first', ['EUR', 100]));
    const europe = offers.in(EUROPE);
    assert.equal(europe.lowestPrice(0), 100);
    for (let i = 1; i <= 40; i++) search.add(priced(`p${i}`, ['EUR', 100 + i]));
    for (let i = 1; i <= 40; i++) assert.equal(europe.lowestPrice(search.slotOf(`p${i}`)!), 100 + i);
    assert.equal(europe.lowestPrice(0), 100);
  });
});
