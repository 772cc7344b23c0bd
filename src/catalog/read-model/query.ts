import type { Locale } from '../model/locales.js';
import type { LiveCatalog } from './live-catalog.js';
import type { CatalogProduct, Region } from './product.js';
import { slotFilter, type ProductFilter } from './product-filter.js';
import { compareServedOrder, firstIndexNotBefore, type Positioned } from './served-order.js';
import { titleIn, WHOLE_WORDS_IN_TITLE } from './search-index.js';
import { words } from './text.js';

/** The orders a list can be asked for (docs/decisions.md, Filters and sort). */
export const SORT_ORDERS = ['relevance', 'newest', 'price_asc', 'price_desc', 'title'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

/**
 * The first part of a product's place in an order: its relevance tier (0 without a
 * query or in the newest order), its lowest price in minor units (negated in the
 * descending order; `Infinity` for no price, which comes last), or its title key.
 */
export type SortKey = number | string;

/** Where a page ended: the sort key of its last product, then what breaks ties. */
export interface CursorPosition {
  key: SortKey;
  createdAt: string;
  id: string;
}

/** A match at its place in the order: the product and its sort key. */
export interface RankedMatch {
  /** Only its id and creation time are read: a ranking may outlive a price change, so products are rendered from the live catalog by id. */
  product: CatalogProduct;
  key: SortKey;
}

/** The products a query matches, in the order asked for (docs/decisions.md, Ordering; Filters and sort). */
export interface Ranking {
  readonly count: number;
  /** The matches from index `start` to `end` (exclusive). */
  range(start: number, end: number): RankedMatch[];
  /** Index of the first match that comes after the position in the order (the position need not be listed). */
  indexAfter(position: CursorPosition): number;
}

/** What a ranking can be asked for besides the query: filters and a sort, in a market. Without, the default order, unfiltered. */
export interface RankingOptions {
  region: Region;
  filter: ProductFilter | undefined;
  /** `relevance` only with query words (without, it is `newest`). */
  sort: SortOrder;
}

/**
 * Relevance is a tier that depends only on the product and the query, never on corpus
 * statistics, so the order and therefore keyset cursors stay stable while the catalog
 * changes: 0 exact handle, 1 every query word is a whole word of the title, 2 partial
 * (prefix or fuzzy) match. Without a query every product is in tier 0. Other sorts put
 * their own key first (a price, a title); every order breaks ties newest first, then by id.
 */
export function rankProducts(catalog: LiveCatalog, queryWords: readonly string[], locale: Locale, options?: RankingOptions): Ranking {
  const filter = options?.filter;
  const sort = appliedSort(options?.sort, queryWords.length > 0);
  if (queryWords.length === 0 && filter === undefined && sort === 'newest') return new CatalogOrder(catalog.products);
  // Otherwise the candidates are read by search slot: every slot, or the query's matches.
  const index = catalog.search;
  const slots = index.slotCount;
  const matches = queryWords.length > 0 ? index.match(queryWords, locale).bySlot : undefined;
  const exactHandle = matches && catalog.productByHandle.get(queryWords.join('-'));
  const exactSlot = exactHandle && index.slotOf(exactHandle.id);
  const offers = options && catalog.offers.in(options.region);
  const included = filter && slotFilter(filter, index, offers!);
  const products: CatalogProduct[] = [];
  const found: number[] = [];
  for (let slot = 0; slot < slots; slot++) {
    if (matches && matches[slot] === 0) continue;
    const product = index.productAt(slot);
    if (product === undefined || (included && !included(slot))) continue;
    products.push(product);
    found.push(slot);
  }
  const createdAtMs = Float64Array.from(found, (slot) => index.createdAtMs(slot));
  switch (sort) {
    case 'relevance':
    case 'newest': {
      // Newest alone, or the relevance tier: 0 exact handle, 1 whole words of the title, 2 partial.
      const tierOf = (slot: number) => (slot === exactSlot ? 0 : matches![slot] === WHOLE_WORDS_IN_TITLE ? 1 : 2);
      return new KeyedRanking(products, sort === 'relevance' && matches ? Float64Array.from(found, tierOf) : new Float64Array(found.length), createdAtMs);
    }
    case 'price_asc':
    case 'price_desc': {
      const sign = sort === 'price_asc' ? 1 : -1;
      const priceKey = (slot: number) => {
        const lowest = offers!.lowestPrice(slot);
        // No price (Infinity) comes last in both directions.
        return lowest === Infinity ? lowest : sign * lowest;
      };
      return new KeyedRanking(products, Float64Array.from(found, priceKey), createdAtMs);
    }
    case 'title':
      return new KeyedRanking(products, products.map((product) => titleSortKey(product, locale)), createdAtMs);
  }
}

/** The order a request gets: the one it asks for, else relevance with query words and newest without (where relevance is newest). */
export function appliedSort(requested: SortOrder | undefined, searching: boolean): SortOrder {
  if (requested === undefined || requested === 'relevance') return searching ? 'relevance' : 'newest';
  return requested;
}

export function positionOf({ product, key }: RankedMatch): CursorPosition {
  return { key, createdAt: new Date(product.createdAtMs).toISOString(), id: product.id };
}

/**
 * Sort keys compared as numbers (a tier, a price in minor units; `Infinity` for no price,
 * which comes last) or as texts (a title).
 */
type SortKeys = Float64Array | readonly string[];

/**
 * Letters of a title the title order compares: titles alike in their first this many
 * (folded) letters are ordered newest first. Bounded so that the key fits in a cursor.
 */
export const TITLE_SORT_KEY_LENGTH = 64;

/** Per locale, each product's title key, computed once per product state (a changed product is a new object). */
const titleSortKeys = new Map<Locale, WeakMap<CatalogProduct, string>>();

/**
 * The title's words as search folds them (case and accents), so `Élan` sorts with the
 * e's and punctuation is ignored; letters, digits and spaces only, which also bounds the
 * key's size in a cursor.
 */
function titleSortKey(product: CatalogProduct, locale: Locale): string {
  let keys = titleSortKeys.get(locale);
  if (!keys) titleSortKeys.set(locale, (keys = new WeakMap()));
  let key = keys.get(product);
  if (key === undefined) {
    key = words(titleIn(product, locale)).join(' ').slice(0, TITLE_SORT_KEY_LENGTH);
    keys.set(product, key);
  }
  return key;
}

/** Every product, in the catalog's own order, which is already the served one. */
class CatalogOrder implements Ranking {
  constructor(private readonly products: readonly CatalogProduct[]) {}

  get count(): number {
    return this.products.length;
  }

  range(start: number, end: number): RankedMatch[] {
    return this.products.slice(start, end).map((product) => ({ product, key: 0 }));
  }

  indexAfter(position: CursorPosition): number {
    if (position.key !== 0) return this.products.length;
    const after = positioned(position);
    return firstIndexNotBefore(this.products.length, (index) => compareServedOrder(this.products[index]!, after) <= 0);
  }
}

/** Pages this deep are picked from the unsorted matches; a deeper one sorts them all, once. */
const PICKED_AT_MOST = 200;

/**
 * Matches kept unsorted with their sort keys and creation times side by side (in typed
 * arrays where the keys are numbers). A broad query matches tens of thousands of
 * products, and most of its readers want the first page: that is picked in one pass
 * (linear in the matches), and the whole order is sorted only when a page beyond the
 * first {@link PICKED_AT_MOST} matches is asked for. A cursor is located by counting the
 * matches before it, also in one pass, so walking page by page never sorts either.
 */
class KeyedRanking implements Ranking {
  #order: Uint32Array | undefined;
  /** Compares two matches' keys; NaN (two missing prices) counts as equal, like 0. */
  readonly #compareKeys: (a: number, b: number) => number;
  readonly #compareKeyTo: (match: number, key: SortKey) => number;

  constructor(
    private readonly products: readonly CatalogProduct[],
    private readonly keys: SortKeys,
    private readonly createdAtMs: Float64Array,
  ) {
    if (keys instanceof Float64Array) {
      this.#compareKeys = (a, b) => keys[a]! - keys[b]!;
      this.#compareKeyTo = (match, key) => keys[match]! - (key as number);
    } else {
      this.#compareKeys = (a, b) => compareTexts(keys[a]!, keys[b]!);
      this.#compareKeyTo = (match, key) => compareTexts(keys[match]!, key as string);
    }
  }

  get count(): number {
    return this.products.length;
  }

  range(start: number, end: number): RankedMatch[] {
    const positions = this.#order || end > PICKED_AT_MOST ? this.#sorted().subarray(start, end) : this.#first(end).slice(start);
    return Array.from(positions, (position) => ({ product: this.products[position]!, key: this.keys[position]! }));
  }

  indexAfter(position: CursorPosition): number {
    const after = positioned(position);
    const comesAfter = (match: number) => this.#compareKeyTo(match, position.key) || compareServedOrder(this.products[match]!, after);
    const order = this.#order;
    if (order) return firstIndexNotBefore(order.length, (index) => comesAfter(order[index]!) <= 0);
    let before = 0;
    for (let match = 0; match < this.products.length; match++) if (comesAfter(match) <= 0) before++;
    return before;
  }

  /** The order of two matches: by key, then newest first from the typed array, reading the products only for equal times. */
  readonly #compare = (a: number, b: number): number =>
    this.#compareKeys(a, b) || this.createdAtMs[b]! - this.createdAtMs[a]! || compareServedOrder(this.products[a]!, this.products[b]!);

  #sorted(): Uint32Array {
    this.#order ??= Uint32Array.from(this.products.keys()).sort(this.#compare);
    return this.#order;
  }

  /** The first `count` matches in served order, kept sorted while one pass offers each match. */
  #first(count: number): number[] {
    const first: number[] = [];
    for (let match = 0; match < this.products.length; match++) {
      if (first.length === count && this.#compare(match, first[count - 1]!) >= 0) continue;
      first.splice(firstIndexNotBefore(first.length, (index) => this.#compare(first[index]!, match) < 0), 0, match);
      if (first.length > count) first.pop();
    }
    return first;
  }
}

const compareTexts = (a: string, b: string) => (a === b ? 0 : a < b ? -1 : 1);

const positioned = (position: CursorPosition): Positioned => ({ id: position.id, createdAtMs: Date.parse(position.createdAt) });
