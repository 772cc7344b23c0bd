import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LiveCatalog } from '../../src/catalog/read-model/live-catalog.js';
import { type CatalogProduct, type Region } from '../../src/catalog/read-model/product.js';
import { resolveFilter } from '../../src/catalog/read-model/product-filter.js';
import { TaxonomyCounter } from '../../src/catalog/queries/taxonomy-listing.js';
import { Taxonomy } from '../../src/catalog/model/taxonomy.js';
import { catalogProduct, catalogVariant, EUROPE, UNITED_STATES } from '../support/catalog-product.js';

/** pantry > oils > olive-oils, pantry > sweets; drinks; and a collection nothing is in. */
const TAXONOMY = new Taxonomy(
  [
    { handle: 'pantry', parent: null, titles: { en: 'Pantry', it: 'Dispensa' } },
    { handle: 'drinks', parent: null, titles: { en: 'Drinks' } },
    { handle: 'oils', parent: 'pantry', titles: { en: 'Oils', it: 'Oli' } },
    { handle: 'olive-oils', parent: 'oils', titles: { en: 'Olive oils' } },
    { handle: 'sweets', parent: 'pantry', titles: { en: 'Sweets' } },
  ],
  [
    { handle: 'autumn', titles: { en: 'Autumn', it: 'Autunno' } },
    { handle: 'winter', titles: { en: 'Winter' } },
  ],
);

const soldOut = (id: string) => [catalogVariant(`${id}_0`, { productId: id, manageInventory: true })];
const PRODUCTS = [
  // In a category and the one below it: counted once in each subtree holding both.
  catalogProduct('evo', { categories: ['oils', 'olive-oils'], collection: 'autumn' }),
  catalogProduct('sunflower', { categories: ['oils'], variants: soldOut('sunflower') }),
  catalogProduct('honey', { categories: ['sweets', 'drinks'], collection: 'autumn' }),
  catalogProduct('soda', { categories: ['drinks'] }),
  catalogProduct('loose'),
];

function catalogOf(products: CatalogProduct[], taxonomy = TAXONOMY): LiveCatalog {
  const catalog = new LiveCatalog(1);
  catalog.setDefinitions([EUROPE, UNITED_STATES], taxonomy);
  catalog.apply(
    products.map(({ id }) => id),
    new Map(products.map((product) => [product.id, product])),
  );
  return catalog;
}

/** The counts listed, by handle. */
function counts(catalog: LiveCatalog, counter: TaxonomyCounter, options: { region?: Region; available?: boolean; generation?: number } = {}) {
  const { region = EUROPE, available } = options;
  const filter = resolveFilter({ available }, catalog.taxonomy, region.currency);
  const lists = counter.lists(catalog, 'en', region, filter, options.generation ?? catalog.generationFor(filter?.dependsOnOffers ?? false));
  return {
    categories: Object.fromEntries(lists.categories.map(({ handle, product_count: count }) => [handle, count])),
    collections: Object.fromEntries(lists.collections.map(({ handle, product_count: count }) => [handle, count])),
  };
}

describe('TaxonomyCounter: the category tree and collections with product counts', () => {
  it('an empty taxonomy lists nothing; categories and collections without products count 0', () => {
    assert.deepEqual(new TaxonomyCounter().lists(catalogOf(PRODUCTS, new Taxonomy([], [])), 'en', EUROPE, undefined, 1), { categories: [], collections: [] });
    assert.deepEqual(counts(catalogOf([]), new TaxonomyCounter()), {
      categories: { pantry: 0, oils: 0, 'olive-oils': 0, sweets: 0, drinks: 0 },
      collections: { autumn: 0, winter: 0 },
    });
  });

  it('in tree order with parent and depth, titled in the locale or else the default one', () => {
    const catalog = catalogOf(PRODUCTS);
    const { categories, collections } = new TaxonomyCounter().lists(catalog, 'it', EUROPE, undefined, catalog.rankingGeneration);
    assert.deepEqual(
      categories.map(({ handle, title, parent, depth }) => [handle, title, parent, depth]),
      [
        ['pantry', 'Dispensa', null, 0],
        ['oils', 'Oli', 'pantry', 1],
        ['olive-oils', 'Olive oils', 'oils', 2],
        ['sweets', 'Sweets', 'pantry', 1],
        ['drinks', 'Drinks', null, 0],
      ],
    );
    assert.deepEqual(collections.map(({ handle, title }) => [handle, title]), [['autumn', 'Autunno'], ['winter', 'Winter']]);
  });

  it('a category counts the products in it or any category below it, each once; a collection its own', () => {
    assert.deepEqual(counts(catalogOf(PRODUCTS), new TaxonomyCounter()), {
      categories: { pantry: 3, oils: 2, 'olive-oils': 1, sweets: 1, drinks: 2 },
      collections: { autumn: 2, winter: 0 },
    });
  });

  it('without a filter every market counts alike; available counts the products sellable in the market', () => {
    const catalog = catalogOf(PRODUCTS);
    const counter = new TaxonomyCounter();
    assert.deepEqual(counts(catalog, counter, { region: UNITED_STATES }), counts(catalog, counter));
    assert.deepEqual(counts(catalog, counter, { available: true }), {
      categories: { pantry: 2, oils: 1, 'olive-oils': 1, sweets: 1, drinks: 2 },
      collections: { autumn: 2, winter: 0 },
    });
    assert.deepEqual(counts(catalog, counter, { available: false }).categories, { pantry: 1, oils: 1, 'olive-oils': 0, sweets: 0, drinks: 0 });
    assert.deepEqual(counts(catalog, counter, { available: true, region: UNITED_STATES }).categories, { pantry: 0, oils: 0, 'olive-oils': 0, sweets: 0, drinks: 0 }, 'nothing is priced in dollars');
  });

  it('counts kept while the generation they were counted at stays, and counted afresh at a new one', () => {
    const catalog = catalogOf(PRODUCTS);
    const counter = new TaxonomyCounter();
    const generation = catalog.rankingGeneration;
    const before = counts(catalog, counter, { generation });
    catalog.apply(['honey', 'tea'], new Map([['tea', catalogProduct('tea', { categories: ['olive-oils'], collection: 'winter' })]]));
    assert.notEqual(catalog.rankingGeneration, generation);
    assert.deepEqual(counts(catalog, counter, { generation }), before);
    assert.deepEqual(counts(catalog, counter), {
      categories: { pantry: 3, oils: 3, 'olive-oils': 2, sweets: 0, drinks: 1 },
      collections: { autumn: 1, winter: 1 },
    });
  });
});
