import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Region } from '../../src/catalog/read-model/product.js';
import { OfferIndex } from '../../src/catalog/read-model/offer-index.js';
import { resolveFilter, slotFilter, type FilterInput } from '../../src/catalog/read-model/product-filter.js';
import { SearchIndex } from '../../src/catalog/read-model/search-index.js';
import { Taxonomy } from '../../src/catalog/model/taxonomy.js';
import { catalogProduct, catalogVariant, EUROPE, UNITED_STATES } from '../support/catalog-product.js';

const category = (handle: string, parent: string | null = null) => ({ handle, parent, titles: { en: handle } });
/** pantry > oils > olive-oils, pantry > sweets; drinks. */
const TAXONOMY = new Taxonomy(
  [category('pantry'), category('oils', 'pantry'), category('olive-oils', 'oils'), category('sweets', 'pantry'), category('drinks')],
  [
    { handle: 'autumn', titles: { en: 'Autumn' } },
    { handle: 'summer', titles: { en: 'Summer' } },
  ],
);

/** The one variant of each is priced in euros only, in stock unless sold out. */
const product = (id: string, euroCents: number, fields: Parameters<typeof catalogProduct>[1] = {}, soldOut = false) =>
  catalogProduct(id, { variants: [catalogVariant(`${id}_0`, { productId: id, prices: ['EUR', euroCents], manageInventory: soldOut })], ...fields });
const PRODUCTS = [
  product('evo', 1200, { categories: ['olive-oils'], collection: 'autumn', tags: ['organic'] }),
  product('sunflower', 500, { categories: ['oils'] }, true),
  product('honey', 900, { categories: ['sweets'], collection: 'autumn', tags: ['organic', 'raw'] }),
  product('soda', 200, { categories: ['drinks'], collection: 'summer' }),
  product('loose', 300),
];
const search = new SearchIndex();
for (const entry of PRODUCTS) search.add(entry);
const offers = new OfferIndex(search);

/** The products passing the filters of `input` in the market. */
function passing(input: FilterInput, region: Region = EUROPE): string[] {
  const filter = resolveFilter(input, TAXONOMY, region.currency);
  assert.ok(filter, 'a filter was asked for');
  const passes = slotFilter(filter, search, offers.in(region));
  return PRODUCTS.filter(({ id }) => passes(search.slotOf(id)!)).map(({ id }) => id);
}

describe('product filters, each alone', () => {
  it('category: the products in the category or any category below it; several categories are OR', () => {
    assert.deepEqual(passing({ category: ['pantry'] }), ['evo', 'sunflower', 'honey']);
    assert.deepEqual(passing({ category: ['oils'] }), ['evo', 'sunflower']);
    assert.deepEqual(passing({ category: ['olive-oils'] }), ['evo']);
    assert.deepEqual(passing({ category: ['sweets', 'drinks'] }), ['honey', 'soda']);
    assert.deepEqual(passing({ category: ['oils', 'olive-oils'] }), ['evo', 'sunflower'], 'overlapping subtrees count a product once');
  });

  it('collection and tag: the products having any of the values; an unknown tag matches none', () => {
    assert.deepEqual(passing({ collection: ['autumn'] }), ['evo', 'honey']);
    assert.deepEqual(passing({ collection: ['autumn', 'summer'] }), ['evo', 'honey', 'soda']);
    assert.deepEqual(passing({ tag: ['raw'] }), ['honey']);
    assert.deepEqual(passing({ tag: ['raw', 'organic'] }), ['evo', 'honey']);
    assert.deepEqual(passing({ tag: ['vegan'] }), []);
  });

  it('available: true for products sellable in the market, false for the others', () => {
    assert.deepEqual(passing({ available: true }), ['evo', 'honey', 'soda', 'loose']);
    assert.deepEqual(passing({ available: false }), ['sunflower']);
    assert.deepEqual(passing({ available: true }, UNITED_STATES), [], 'nothing is priced in dollars');
    assert.deepEqual(passing({ available: false }, UNITED_STATES), PRODUCTS.map(({ id }) => id));
  });

  it('price_min and price_max: inclusive bounds in major units of the market currency', () => {
    assert.deepEqual(passing({ price_min: 5 }), ['evo', 'sunflower', 'honey']);
    assert.deepEqual(passing({ price_max: 9 }), ['sunflower', 'honey', 'soda', 'loose']);
    assert.deepEqual(passing({ price_min: 5, price_max: 9 }), ['sunflower', 'honey']);
    assert.deepEqual(passing({ price_min: 9.01, price_max: 11.99 }), []);
    assert.deepEqual(passing({ price_min: 0 }, UNITED_STATES), [], 'no price in the market is no match');
  });
});

describe('product filters combined: AND across filters', () => {
  it('each combination keeps only the products passing every filter', () => {
    assert.deepEqual(passing({ category: ['pantry'], available: true }), ['evo', 'honey']);
    assert.deepEqual(passing({ collection: ['autumn'], tag: ['raw'] }), ['honey']);
    assert.deepEqual(passing({ category: ['pantry'], collection: ['autumn'], tag: ['organic'], available: true, price_max: 10 }), ['honey']);
    assert.deepEqual(passing({ category: ['oils'], tag: ['raw'] }), []);
    assert.deepEqual(passing({ collection: ['summer'], price_min: 1 }), ['soda']);
    assert.deepEqual(passing({ category: ['drinks'], collection: ['autumn'] }), []);
  });
});

describe('resolveFilter', () => {
  const resolve = (input: FilterInput, currency = 'EUR') => resolveFilter(input, TAXONOMY, currency);
  const pick = (filter: ReturnType<typeof resolveFilter>) => ({ minPrice: filter?.minPrice, maxPrice: filter?.maxPrice });

  it('undefined when no filter is asked for', () => {
    assert.equal(resolve({}), undefined);
    assert.equal(resolve({ category: undefined, available: undefined }), undefined);
  });

  it('a canonical key: the order and repetition of values do not matter, every filter and value does', () => {
    assert.equal(resolve({ category: ['sweets', 'oils', 'oils'] })!.key, resolve({ category: ['oils', 'sweets'] })!.key);
    const keys = [
      { category: ['oils'] },
      { collection: ['autumn'] },
      { tag: ['oils'] },
      { tag: ['raw'] },
      { available: true },
      { available: false },
      { price_min: 1 },
      { price_max: 1 },
      { category: ['oils'], available: true },
    ].map((input) => resolve(input)!.key);
    assert.equal(new Set(keys).size, keys.length);
  });

  it('depends on offers only for availability and prices', () => {
    assert.equal(resolve({ category: ['oils'], collection: ['autumn'], tag: ['raw'] })!.dependsOnOffers, false);
    assert.equal(resolve({ available: false })!.dependsOnOffers, true);
    assert.equal(resolve({ price_max: 3 })!.dependsOnOffers, true);
  });

  it('price bounds in minor units of the currency, rounded inwards, without binary noise', () => {
    // 1.1 × 100 is 110.00000000000001 and 0.29 × 100 is 28.999999999999996.
    assert.deepEqual(pick(resolve({ price_min: 1.1, price_max: 1.1 })), { minPrice: 110, maxPrice: 110 });
    assert.deepEqual(pick(resolve({ price_min: 0.29, price_max: 0.29 })), { minPrice: 29, maxPrice: 29 });
    assert.deepEqual(pick(resolve({ price_min: 12.345, price_max: 12.345 })), { minPrice: 1235, maxPrice: 1234 });
    assert.deepEqual(pick(resolve({ price_min: 100.5, price_max: 100.5 }, 'JPY')), { minPrice: 101, maxPrice: 100 });
    assert.deepEqual(pick(resolve({ price_min: 0 })), { minPrice: 0, maxPrice: undefined });
  });

  it('refuses an unknown category or collection and a lower bound above the upper one, naming the value', () => {
    assert.throws(() => resolve({ category: ['oils', 'cheese'] }), /cheese/);
    assert.throws(() => resolve({ collection: ['winter'] }), /winter/);
    assert.throws(() => resolve({ price_min: 10, price_max: 9.99 }), /price_min 10/);
    assert.doesNotThrow(() => resolve({ price_min: 10, price_max: 10 }));
  });
});
