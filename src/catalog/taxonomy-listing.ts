import { LRUCache } from 'lru-cache';
import type { Locale } from './locales.js';
import type { CatalogProduct, LiveCatalog, Region } from './read-model/live-catalog.js';
import { passes, type ProductFilter } from './read-model/product-filter.js';
import { titleIn, type Taxonomy } from './taxonomy.js';

/** A category as `GET /public/v1/categories` and list_categories list it (the `Category` schema). */
export interface PublicCategory {
  handle: string;
  title: string;
  parent: string | null;
  depth: number;
  product_count: number;
}

/** A collection as `GET /public/v1/collections` and list_categories list it (the `Collection` schema). */
export interface PublicCollection {
  handle: string;
  title: string;
  product_count: number;
}

export interface TaxonomyLists {
  /** In tree order: each parent before its children. */
  categories: PublicCategory[];
  collections: PublicCollection[];
}

/**
 * Served products per category and per collection (docs/decisions.md, Taxonomy routes):
 * a category counts the products in it or in any category below it, each once, which is
 * the `count` of the product list filtered by that category.
 */
interface TaxonomyCounts {
  readonly categories: ReadonlyMap<string, number>;
  readonly collections: ReadonlyMap<string, number>;
}

/**
 * Count sets kept: one per filter without a market (all products) and per region and
 * filter (available or not), so a few per region.
 */
const COUNT_SETS_KEPT = 256;

/**
 * The taxonomy with product counts in a market. Counting is one pass over every served
 * product (tens of milliseconds at 100,000), so counts are kept per region and filter and
 * reused while the catalog generation they were counted at stays: the ranking generation
 * moves whenever the served products or their categories and collections change, the
 * change generation also with prices and stock, which the `available` filter reads.
 */
export class TaxonomyCounter {
  readonly #kept = new LRUCache<string, { generation: number; counts: TaxonomyCounts }>({ max: COUNT_SETS_KEPT });

  /** The lists in `locale`, counted in `region` among the products that pass `filter`; `generation` is what the counts depend on. */
  lists(catalog: LiveCatalog, locale: Locale, region: Region, filter: ProductFilter | undefined, generation: number): TaxonomyLists {
    const { taxonomy } = catalog;
    const counts = this.#counts(catalog, region, filter, generation);
    return {
      categories: taxonomy.categories.map(({ handle, parent, titles }) => ({
        handle,
        title: titleIn(titles, locale),
        parent,
        depth: taxonomy.depthOf(handle),
        product_count: counts.categories.get(handle)!,
      })),
      collections: taxonomy.collections.map(({ handle, titles }) => ({ handle, title: titleIn(titles, locale), product_count: counts.collections.get(handle)! })),
    };
  }

  #counts(catalog: LiveCatalog, region: Region, filter: ProductFilter | undefined, generation: number): TaxonomyCounts {
    // Without a filter no count depends on the market: one set serves every region.
    const key = filter === undefined ? '' : `${region.id}|${filter.key}`;
    const kept = this.#kept.get(key);
    if (kept?.generation === generation) return kept.counts;
    const counts = countProducts(catalog.products, catalog.taxonomy, filter && ((product) => passes(product, filter, region)));
    this.#kept.set(key, { generation, counts });
    return counts;
  }
}

/** One pass over the products; a product counts in each category it is in and in every category above those, once each. */
function countProducts(products: readonly CatalogProduct[], taxonomy: Taxonomy, included: ((product: CatalogProduct) => boolean) | undefined): TaxonomyCounts {
  const { categories } = taxonomy;
  const indexOf = new Map(categories.map((category, i) => [category.handle, i]));
  // A served category's parent is served too (the taxonomy serves an unreachable one at the top).
  const parentOf = Int32Array.from(categories, (category) => (category.parent === null ? -1 : indexOf.get(category.parent)!));
  const categoryCounts = new Uint32Array(categories.length);
  // The product a category was last counted for: a product in two categories of one subtree counts once above them.
  const countedFor = new Int32Array(categories.length).fill(-1);
  const collectionCounts = new Map(taxonomy.collections.map((collection) => [collection.handle, 0]));
  for (let p = 0; p < products.length; p++) {
    const product = products[p]!;
    if (included && !included(product)) continue;
    for (const handle of product.categories) {
      // Up the tree until a category already counted for this product, whose ancestors are counted too.
      for (let c = indexOf.get(handle) ?? -1; c !== -1 && countedFor[c] !== p; c = parentOf[c]!) {
        countedFor[c] = p;
        categoryCounts[c]!++;
      }
    }
    const inCollection = product.collection === null ? undefined : collectionCounts.get(product.collection);
    if (inCollection !== undefined) collectionCounts.set(product.collection!, inCollection + 1);
  }
  return {
    categories: new Map(categories.map((category, i) => [category.handle, categoryCounts[i]!])),
    collections: collectionCounts,
  };
}
