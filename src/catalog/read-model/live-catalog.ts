import { EMPTY_TAXONOMY, type Taxonomy } from '../model/taxonomy.js';
import { KeyedIndex, type ReadonlyKeyedIndex } from './keyed-index.js';
import { OfferIndex } from './offer-index.js';
import { sameClassification, sameSearchFields, SearchIndex } from './search-index.js';
import type { CatalogProduct, CatalogVariant, Region } from './product.js';
import { compareServedOrder, firstIndexNotBefore, type Positioned } from './served-order.js';

/**
 * The published catalog in memory, changed product by product. Only published,
 * non-weighted products are in it, so nothing else can be served by any route or tool.
 * Product objects are never mutated: a change replaces the product whole, so a reader
 * never sees half a product; the products read in one slice are applied
 * synchronously, so a request sees all of a slice or none of it.
 */
export class LiveCatalog {
  #regions: readonly Region[] = [];
  #regionByCountry = new Map<string, Region>();
  #taxonomy: Taxonomy = EMPTY_TAXONOMY;
  /** Newest first: `created_at` descending, then id ascending (docs/decisions.md, Ordering). */
  #products: CatalogProduct[] = [];
  readonly #productById = new KeyedIndex<CatalogProduct>((product) => product.id);
  readonly #productByHandle = new KeyedIndex<CatalogProduct>((product) => product.handle);
  readonly #variantById = new KeyedIndex<CatalogVariant>((variant) => variant.id);
  /** SKUs are unique in the store (docs/decisions.md, Batch lookup), so one variant each. */
  readonly #variantBySku = new KeyedIndex<CatalogVariant>((variant) => variant.sku);
  readonly #search = new SearchIndex();
  readonly #offers = new OfferIndex(this.#search);
  /** Served products not in the search index yet: a full build indexes them after it is served. */
  readonly #unindexed = new Set<CatalogProduct>();
  #rankingGeneration = nextGeneration();
  #changeGeneration = this.#rankingGeneration;

  /** @param version The catalog version (change sequence) the contents reflect. */
  constructor(public version: number) {}

  get regions(): readonly Region[] {
    return this.#regions;
  }

  get regionByCountry(): ReadonlyMap<string, Region> {
    return this.#regionByCountry;
  }

  get products(): readonly CatalogProduct[] {
    return this.#products;
  }

  get taxonomy(): Taxonomy {
    return this.#taxonomy;
  }

  get productById(): ReadonlyKeyedIndex<CatalogProduct> {
    return this.#productById;
  }

  get productByHandle(): ReadonlyKeyedIndex<CatalogProduct> {
    return this.#productByHandle;
  }

  get variantById(): ReadonlyKeyedIndex<CatalogVariant> {
    return this.#variantById;
  }

  get variantBySku(): ReadonlyKeyedIndex<CatalogVariant> {
    return this.#variantBySku;
  }

  get search(): SearchIndex {
    return this.#search;
  }

  /** Prices and availability per market by search slot, for filters and the price orders. */
  get offers(): OfferIndex {
    return this.#offers;
  }

  /** Whether the search index holds every served product; search waits until it does. */
  get searchable(): boolean {
    return this.#unindexed.size === 0;
  }

  /** Served products not in the search index yet. */
  get unindexedCount(): number {
    return this.#unindexed.size;
  }

  /** Indexes up to `count` of the products a full build left unindexed; returns how many are left. */
  indexSome(count: number): number {
    for (const product of this.#unindexed) {
      if (count-- === 0) break;
      this.#search.add(product);
      this.#unindexed.delete(product);
    }
    return this.#unindexed.size;
  }

  /**
   * Changes whenever the served products, their order, their searchable texts, their
   * categories, collection or tags, or the taxonomy change, so search and filter results
   * computed before are stale; prices and stock leave it alone. Unique across catalogs, so
   * a cache can key on it without holding a replaced catalog alive.
   */
  get rankingGeneration(): number {
    return this.#rankingGeneration;
  }

  /**
   * Changes with every change at all, prices and stock included: what results that
   * depend on prices or availability (their filters, the price order) are valid for.
   */
  get changeGeneration(): number {
    return this.#changeGeneration;
  }

  /** The generation a result is valid for: the change generation when it reads prices or stock, else the ranking generation. */
  generationFor(readsOffers: boolean): number {
    return readsOffers ? this.#changeGeneration : this.#rankingGeneration;
  }

  /**
   * Regions and the taxonomy are replaced whole, together: renderings keyed to the old
   * Region objects go stale with them, so a renamed category is never served under its old
   * title.
   */
  setDefinitions(regions: readonly Region[], taxonomy: Taxonomy): void {
    this.#regions = regions;
    this.#taxonomy = taxonomy;
    this.#rankingGeneration = this.#changeGeneration = nextGeneration();
    this.#regionByCountry = new Map(regions.flatMap((region) => region.countries.map((country) => [country, region] as const)));
  }

  /**
   * Makes the catalog hold `loaded` for each of `ids`: a product missing from `loaded` is
   * no longer served (deleted, unpublished, weighted). Synchronous, so readers see the
   * whole slice or none of it.
   */
  apply(ids: Iterable<string>, loaded: ReadonlyMap<string, CatalogProduct>): void {
    const leaving = new Set<CatalogProduct>();
    const arriving: CatalogProduct[] = [];
    let reranked = false;
    let changed = false;
    for (const id of ids) {
      const before = this.#productById.get(id);
      const after = loaded.get(id);
      changed ||= before !== undefined || after !== undefined;
      // A product a full build has not indexed yet leaves nothing in the index to remove.
      const unindexed = before !== undefined && this.#unindexed.delete(before);
      if (before) this.#forget(before);
      if (after) this.#remember(after);
      if (before && after && before.createdAtMs === after.createdAtMs) {
        this.#products[this.#indexOf(before)] = after;
        reranked ||= !sameClassification(before, after);
        if (unindexed) {
          this.#unindexed.add(after);
        } else if (sameSearchFields(before, after)) {
          this.#search.replace(after);
        } else {
          this.#search.remove(before);
          this.#search.add(after);
          reranked = true;
        }
        continue;
      }
      if (before) {
        leaving.add(before);
        if (!unindexed) this.#search.remove(before);
      }
      if (after) {
        arriving.push(after);
        this.#search.add(after);
      }
      reranked ||= before !== undefined || after !== undefined;
    }
    if (leaving.size > 0 || arriving.length > 0) this.#reorder(leaving, arriving);
    if (changed) this.#changeGeneration = nextGeneration();
    if (reranked) this.#rankingGeneration = this.#changeGeneration;
  }

  /**
   * A full build's way in: products that are not in the catalog yet, with no ordering
   * work per call; `sort()` orders them once at the end, before the catalog is served,
   * and `indexSome()` indexes them for search (about a third of a build's time).
   */
  add(products: Iterable<CatalogProduct>): void {
    for (const product of products) {
      this.#remember(product);
      this.#unindexed.add(product);
      this.#products.push(product);
    }
  }

  sort(): void {
    this.#products.sort(compareServedOrder);
    this.#rankingGeneration = this.#changeGeneration = nextGeneration();
  }

  #forget(product: CatalogProduct): void {
    this.#productById.delete(product);
    // A handle, variant or SKU may already belong to a product applied earlier in this change.
    this.#productByHandle.delete(product);
    for (const variant of product.variants) {
      this.#variantById.delete(variant);
      this.#variantBySku.delete(variant);
    }
  }

  #remember(product: CatalogProduct): void {
    this.#productById.set(product);
    this.#productByHandle.set(product);
    for (const variant of product.variants) {
      this.#variantById.set(variant);
      this.#variantBySku.set(variant);
    }
  }

  /** Index of a product that is in the list, by binary search on the served order. */
  #indexOf(product: CatalogProduct): number {
    const index = lowerBound(this.#products, product);
    if (this.#products[index]?.id !== product.id) throw new Error(`Product ${product.id} is missing from the served order`);
    return index;
  }

  /**
   * A few products move by splicing; many (an import's slice) by one merge
   * pass, which costs one copy of the list instead of one per product.
   */
  #reorder(leaving: Set<CatalogProduct>, arriving: CatalogProduct[]): void {
    arriving.sort(compareServedOrder);
    if (leaving.size + arriving.length <= SPLICE_AT_MOST) {
      for (const product of leaving) this.#products.splice(this.#indexOf(product), 1);
      for (const product of arriving) this.#products.splice(lowerBound(this.#products, product), 0, product);
      return;
    }
    const staying = leaving.size === 0 ? this.#products : this.#products.filter((product) => !leaving.has(product));
    const merged: CatalogProduct[] = new Array(staying.length + arriving.length);
    let s = 0;
    let a = 0;
    for (let m = 0; m < merged.length; m++) {
      merged[m] = a === arriving.length || (s < staying.length && compareServedOrder(staying[s]!, arriving[a]!) < 0) ? staying[s++]! : arriving[a++]!;
    }
    this.#products = merged;
  }
}

let generations = 0;
const nextGeneration = () => ++generations;

/** Moves up to this many products one splice each; beyond, a merge pass is cheaper. */
const SPLICE_AT_MOST = 32;

/** The index of the first product that does not come before `target` in the served order. */
function lowerBound(products: readonly CatalogProduct[], target: Positioned): number {
  return firstIndexNotBefore(products.length, (index) => compareServedOrder(products[index]!, target) < 0);
}
