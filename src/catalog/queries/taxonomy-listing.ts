import { LRUCache } from 'lru-cache';
import type { Locale } from '../model/locales.js';
import type { LiveCatalog } from '../read-model/live-catalog.js';
import type { Region } from '../read-model/product.js';
import { slotFilter, type ProductFilter } from '../read-model/product-filter.js';
import type { SearchIndex } from '../read-model/search-index.js';
import { titleIn, type Taxonomy } from '../model/taxonomy.js';

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
    const counts = countProducts(catalog.search, catalog.taxonomy, filter && slotFilter(filter, catalog.search, catalog.offers.in(region)));
    this.#kept.set(key, { generation, counts });
    return counts;
  }
}

/**
 * Counts from the search index's facets (the slots of each category and collection), so
 * that no product object is read: a category counts the products of every category of
 * its subtree, each once (a product in two categories of one subtree is stamped with the
 * category being counted); the availability filter reads the market's offers by slot.
 */
function countProducts(index: SearchIndex, taxonomy: Taxonomy, included: ((slot: number) => boolean) | undefined): TaxonomyCounts {
  const countedFor = new Int32Array(index.slotCount).fill(-1);
  const categories = new Map(
    taxonomy.categories.map((category, c) => {
      let count = 0;
      for (const handle of taxonomy.subtree(category.handle)) {
        index.forEachInFacet('category', handle, (slot) => {
          if (countedFor[slot] === c) return;
          countedFor[slot] = c;
          if (!included || included(slot)) count++;
        });
      }
      return [category.handle, count];
    }),
  );
  const collections = new Map(
    taxonomy.collections.map(({ handle }) => {
      let count = 0;
      index.forEachInFacet('collection', handle, (slot) => {
        if (!included || included(slot)) count++;
      });
      return [handle, count];
    }),
  );
  return { categories, collections };
}
