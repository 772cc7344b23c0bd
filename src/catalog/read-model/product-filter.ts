import { CatalogReadError } from './read-errors.js';
import type { Taxonomy } from '../model/taxonomy.js';
import type { RegionOffers } from './offer-index.js';
import type { SearchIndex } from './search-index.js';
import { fractionDigits } from './pricing.js';

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

/**
 * The filter as a test of a search-index slot, reading no product object: the taxonomy
 * filters are marked once from the index's facets (the slots of each category,
 * collection and tag), the price and availability filters read the market's offers.
 */
export function slotFilter(filter: ProductFilter, index: SearchIndex, offers: RegionOffers): (slot: number) => boolean {
  const { categories, collections, tags, available, minPrice, maxPrice } = filter;
  const facets = (
    [
      ['category', categories],
      ['collection', collections],
      ['tag', tags],
    ] as const
  ).filter(([, values]) => values !== undefined);
  // Per slot, how many of the taxonomy filters its product passes (each counts once, whichever of its values it has).
  const passed = new Uint8Array(facets.length > 0 ? index.slotCount : 0);
  facets.forEach(([kind, values], f) => {
    for (const value of values!) {
      index.forEachInFacet(kind, value, (slot) => {
        if (passed[slot] === f) passed[slot] = f + 1;
      });
    }
  });
  const priced = minPrice !== undefined || maxPrice !== undefined;
  const low = minPrice ?? 0;
  const high = maxPrice ?? Infinity;
  return (slot) =>
    (facets.length === 0 || passed[slot] === facets.length) &&
    (available === undefined || offers.sellable(slot) === available) &&
    (!priced || offers.hasPriceWithin(slot, low, high));
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

/** Whether a request names any filter. */
export function asksForFilters({ category, collection, tag, available, price_min: priceMin, price_max: priceMax }: FilterInput): boolean {
  return (category ?? collection ?? tag ?? available ?? priceMin ?? priceMax) !== undefined;
}

/**
 * Resolves the filters of a request in its market; undefined when it asks for none. An
 * unknown category or collection, or a lower bound above the upper one, is refused
 * naming the parameter.
 */
export function resolveFilter(input: FilterInput, taxonomy: Taxonomy, currency: string): ProductFilter | undefined {
  if (!asksForFilters(input)) return undefined;
  const { category, collection, tag, available, price_min: priceMin, price_max: priceMax } = input;
  const unknown = (parameter: 'category' | 'collection', handles: readonly string[], known: (handle: string) => unknown) => {
    const missing = handles.find((handle) => !known(handle));
    if (missing !== undefined) {
      throw new CatalogReadError(`${parameter} "${missing}" is not one of the catalog's.`, { kind: 'unknown_taxonomy', parameter, handle: missing });
    }
  };
  if (category) unknown('category', category, (handle) => taxonomy.category(handle));
  if (collection) unknown('collection', collection, (handle) => taxonomy.collection(handle));
  if (priceMin !== undefined && priceMax !== undefined && priceMin > priceMax) {
    throw new CatalogReadError(`price_min ${priceMin} is above price_max ${priceMax}.`, { kind: 'inverted_price_range', priceMin, priceMax });
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
