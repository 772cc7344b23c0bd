import type { CursorPosition } from '../cursor.js';
import type { Locale } from '../locales.js';
import type { CatalogProduct, LiveCatalog } from './live-catalog.js';
import { compareServedOrder, firstIndexNotBefore, type Positioned } from './served-order.js';
import { WHOLE_WORDS_IN_TITLE } from './search-index.js';

/** A match at its place in the served order: the product and its relevance tier. */
export interface RankedMatch {
  /** Only its id and creation time are read: a ranking may outlive a price change, so products are rendered from the live catalog by id. */
  product: CatalogProduct;
  tier: number;
}

/** The products a query matches, in served order (docs/decisions.md, Ordering). */
export interface Ranking {
  readonly count: number;
  /** The matches from index `start` to `end` (exclusive). */
  range(start: number, end: number): RankedMatch[];
  /** Index of the first match that comes after the position in the served order (the position need not be listed). */
  indexAfter(position: CursorPosition): number;
}

/**
 * Relevance is a tier that depends only on the product and the query, never on corpus
 * statistics, so the order and therefore keyset cursors stay stable while the catalog
 * changes: 0 exact handle, 1 every query word is a whole word of the title, 2 partial
 * (prefix or fuzzy) match. Without a query every product is in tier 0.
 */
export function rankProducts(catalog: LiveCatalog, queryWords: readonly string[], locale: Locale): Ranking {
  if (queryWords.length === 0) return new CatalogOrder(catalog.products);
  const index = catalog.search;
  const { count, bySlot } = index.match(queryWords, locale);
  const exactHandle = catalog.productByHandle.get(queryWords.join('-'));
  const exactSlot = exactHandle && index.slotOf(exactHandle.id);
  const products = new Array<CatalogProduct>(count);
  const tiers = new Uint8Array(count);
  const createdAtMs = new Float64Array(count);
  for (let slot = 0, found = 0; found < count; slot++) {
    if (bySlot[slot] === 0) continue;
    products[found] = index.productAt(slot)!;
    tiers[found] = slot === exactSlot ? 0 : bySlot[slot] === WHOLE_WORDS_IN_TITLE ? 1 : 2;
    createdAtMs[found] = index.createdAtMs(slot);
    found++;
  }
  return new SearchRanking(products, tiers, createdAtMs);
}

export function positionOf({ product, tier }: RankedMatch): CursorPosition {
  return { tier, createdAt: new Date(product.createdAtMs).toISOString(), id: product.id };
}

/** Every product, in the catalog's own order, which is already the served one. */
class CatalogOrder implements Ranking {
  constructor(private readonly products: readonly CatalogProduct[]) {}

  get count(): number {
    return this.products.length;
  }

  range(start: number, end: number): RankedMatch[] {
    return this.products.slice(start, end).map((product) => ({ product, tier: 0 }));
  }

  indexAfter(position: CursorPosition): number {
    if (position.tier > 0) return this.products.length;
    const after = positioned(position);
    return firstIndexNotBefore(this.products.length, (index) => compareServedOrder(this.products[index]!, after) <= 0);
  }
}

/** Pages this deep are picked from the unsorted matches; a deeper one sorts them all, once. */
const PICKED_AT_MOST = 200;

/**
 * A search's matches, kept unsorted with their tiers and creation times side by side in
 * typed arrays. A broad query matches tens of thousands of products, and most of its
 * readers want the first page: that is picked in one pass (linear in the matches), and
 * the whole order is sorted only when a page beyond the first {@link PICKED_AT_MOST}
 * matches is asked for. A cursor is located by counting the matches before it, also in
 * one pass, so walking a search page by page never sorts either.
 */
class SearchRanking implements Ranking {
  #order: Uint32Array | undefined;

  constructor(
    private readonly products: readonly CatalogProduct[],
    private readonly tiers: Uint8Array,
    private readonly createdAtMs: Float64Array,
  ) {}

  get count(): number {
    return this.products.length;
  }

  range(start: number, end: number): RankedMatch[] {
    const positions = this.#order || end > PICKED_AT_MOST ? this.#sorted().subarray(start, end) : this.#first(end).slice(start);
    return Array.from(positions, (position) => ({ product: this.products[position]!, tier: this.tiers[position]! }));
  }

  indexAfter(position: CursorPosition): number {
    const after = positioned(position);
    const comesAfter = (match: number) => this.tiers[match]! - position.tier || compareServedOrder(this.products[match]!, after);
    const order = this.#order;
    if (order) return firstIndexNotBefore(order.length, (index) => comesAfter(order[index]!) <= 0);
    let before = 0;
    for (let match = 0; match < this.products.length; match++) if (comesAfter(match) <= 0) before++;
    return before;
  }

  /** The served order of two matches: by tier, then newest first from the typed array, reading the products only for equal times. */
  readonly #compare = (a: number, b: number): number =>
    this.tiers[a]! - this.tiers[b]! || this.createdAtMs[b]! - this.createdAtMs[a]! || compareServedOrder(this.products[a]!, this.products[b]!);

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

const positioned = (position: CursorPosition): Positioned => ({ id: position.id, createdAtMs: Date.parse(position.createdAt) });
