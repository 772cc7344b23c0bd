import { catalogProblem } from '../errors.js';
import type { Taxonomy } from '../taxonomy.js';
import type { CatalogProduct, Region } from './live-catalog.js';
import { availabilityOf, fractionDigits, minorPriceIn } from './pricing.js';

/**
 * A list request's filters, resolved against the catalog (category handles expanded to
 * their subtrees, price bounds in minor units of the market currency). Filters combine
 * with AND; the values of one filter with OR (docs/decisions.md, Filters and sort).
 */
export interface ProductFilter {
  /** The filters in one canonical text: what cursors, kept rankings and kept answers are keyed on. */
  readonly key: string;
  /** Whether the result depends on prices or stock (which change all day without moving the ranking generation). */
  readonly dependsOnOffers: boolean;
  /** Every category of the asked subtrees. */
  readonly categories?: ReadonlySet<string>;
  readonly collections?: ReadonlySet<string>;
  readonly tags?: ReadonlySet<string>;
  readonly available?: boolean;
  /** Inclusive bounds, minor units. */
  readonly minPrice?: number;
  readonly maxPrice?: number;
}

/** Whether a product passes the filter in the market of `region`. */
export function passes(product: CatalogProduct, filter: ProductFilter, region: Region): boolean {
  const { categories, collections, tags, available, minPrice, maxPrice } = filter;
  if (categories && !product.categories.some((handle) => categories.has(handle))) return false;
  if (collections && (product.collection === null || !collections.has(product.collection))) return false;
  if (tags && !product.tags.some((tag) => tags.has(tag))) return false;
  if (available !== undefined && sellableIn(product, region) !== available) return false;
  if (minPrice !== undefined || maxPrice !== undefined) {
    const low = minPrice ?? 0;
    const high = maxPrice ?? Infinity;
    return product.variants.some((variant) => {
      const price = minorPriceIn(variant, region);
      return price !== null && price >= low && price <= high;
    });
  }
  return true;
}

/** Whether some variant can be bought in the market: purchasable, and priced there (a cart refuses a variant without a price). */
function sellableIn(product: CatalogProduct, region: Region): boolean {
  return product.variants.some((variant) => availabilityOf(variant).purchasable && minorPriceIn(variant, region) !== null);
}

/** The filter parameters of a list request, as REST and search_catalog take them. */
export interface FilterInput {
  category?: readonly string[] | undefined;
  collection?: readonly string[] | undefined;
  tag?: readonly string[] | undefined;
  available?: boolean | undefined;
  /** Major units of the market currency. */
  price_min?: number | undefined;
  price_max?: number | undefined;
}

/**
 * Resolves the filters of a request in its market; undefined when it asks for none. An
 * unknown category or collection, or a lower bound above the upper one, is INVALID_QUERY
 * naming the parameter.
 */
export function resolveFilter(input: FilterInput, taxonomy: Taxonomy, currency: string): ProductFilter | undefined {
  const { category, collection, tag, available, price_min: priceMin, price_max: priceMax } = input;
  if (!category && !collection && !tag && available === undefined && priceMin === undefined && priceMax === undefined) return undefined;
  const unknown = (parameter: string, handles: readonly string[], known: (handle: string) => unknown, list: string) => {
    const missing = handles.find((handle) => !known(handle));
    if (missing !== undefined) {
      throw catalogProblem('INVALID_QUERY', `Invalid query parameter: ${parameter} "${missing}" is not one of the catalog's.`, `${list} lists them.`);
    }
  };
  if (category) unknown('category', category, (handle) => taxonomy.category(handle), 'GET /public/v1/categories (MCP: list_categories)');
  if (collection) unknown('collection', collection, (handle) => taxonomy.collection(handle), 'GET /public/v1/collections (MCP: list_categories)');
  if (priceMin !== undefined && priceMax !== undefined && priceMin > priceMax) {
    throw catalogProblem('INVALID_QUERY', `Invalid query parameter: price_min ${priceMin} is above price_max ${priceMax}.`, 'Send price_min at most price_max.');
  }
  const digits = fractionDigits(currency);
  const minPrice = priceMin === undefined ? undefined : toMinorUnits(priceMin, digits, Math.ceil);
  const maxPrice = priceMax === undefined ? undefined : toMinorUnits(priceMax, digits, Math.floor);
  const canonical = (values: readonly string[] | undefined) => (values ? [...new Set(values)].sort().join(',') : '');
  return {
    key: [canonical(category), canonical(collection), canonical(tag), available ?? '', minPrice ?? '', maxPrice ?? ''].join('|'),
    dependsOnOffers: available !== undefined || minPrice !== undefined || maxPrice !== undefined,
    ...(category && { categories: new Set(category.flatMap((handle) => [...taxonomy.subtree(handle)])) }),
    ...(collection && { collections: new Set(collection) }),
    ...(tag && { tags: new Set(tag) }),
    ...(available !== undefined && { available }),
    ...(minPrice !== undefined && { minPrice }),
    ...(maxPrice !== undefined && { maxPrice }),
  };
}

/**
 * A bound in major units as minor units, rounded inwards (a lower bound up, an upper one
 * down), after dropping the binary noise of the multiplication (12.9 × 100 is 1290.0000000000002).
 */
function toMinorUnits(major: number, digits: number, inwards: (value: number) => number): number {
  return inwards(Number((major * 10 ** digits).toFixed(6)));
}
