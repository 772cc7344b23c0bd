import { getHeapStatistics } from 'node:v8';

/**
 * The share of V8's heap limit a loaded catalog, its search index included, may take:
 * the rest is room for requests, imports and the collector, which slows to a crawl and
 * then ends the process when the heap nears its limit.
 */
export const CATALOG_HEAP_SHARE = 0.8;
/**
 * The search index and the orders built after the products are loaded, as a share of the
 * products' own heap: about 0.17 at 100,000 products (a heap snapshot: 60 MB of index
 * beside 365 MB of catalog, docs/deploy.md, Memory), rounded up.
 */
const INDEX_SHARE = 0.25;
/**
 * The part of a catalog loaded before its whole size is projected from it: the heap in use
 * counts garbage not collected yet (tens of megabytes of parsed pages), which a small
 * sample would multiply into a catalog that seems not to fit.
 */
const SAMPLE_SHARE = 0.05;
const SAMPLE_PRODUCTS = 20_000;
/**
 * While a catalog loads, it is judged once twice the sample is loaded, from the leanest
 * reading since the sample: garbage only ever adds to a reading, and between the two the
 * old space grows enough for V8 to collect it at least once. Judged from the reading of the
 * moment at the sample, a generated catalog of a million products (930,957 served), which
 * served at 3.3 GB of RSS from SQLite, was projected at 4.9 GB of heap from PostgreSQL and
 * refused with a heap limit of 5 GB.
 */
const JUDGED_AT_SAMPLES = 2;
/**
 * Before then, a catalog is refused at once when the reading of the moment projects it
 * past this many times the budget: garbage does not make that much of it, and loading on
 * to twice the sample could run such a catalog out of heap before it is judged.
 */
const CLEARLY_OVER = 2;

export interface HeapReading {
  /** Bytes of the heap in use. */
  used: number;
  /** V8's heap limit in bytes (`--max-old-space-size` and the young generation). */
  limit: number;
}

export const readHeap = (): HeapReading => {
  const { used_heap_size: used, heap_size_limit: limit } = getHeapStatistics();
  return { used, limit };
};

/** What a catalog of `products` served products would take of this process's heap. */
export interface HeapProjection {
  products: number;
  projectedBytes: number;
  limitBytes: number;
}

const mib = (bytes: number) => Math.ceil(bytes / 2 ** 20);

/** The heap limit (MiB) that holds the projected catalog at CATALOG_HEAP_SHARE, rounded up to the next 512 MiB. */
export const advisedHeapMiB = ({ projectedBytes }: HeapProjection): number => Math.ceil(projectedBytes / CATALOG_HEAP_SHARE / 2 ** 29) * 512;

/** A catalog that does not fit the heap this process was given: found while it loads, before an import writes, or as changes made elsewhere arrive. */
export class CatalogTooLargeError extends Error {
  /**
   * @param subject Whose served products are counted, e.g. "the catalog's".
   * @param outcome What this process does about it: "it stops now rather than run out of memory later".
   */
  constructor(
    readonly projection: HeapProjection,
    subject: string,
    outcome: string,
  ) {
    const { products, projectedBytes, limitBytes } = projection;
    const inMiB = (bytes: number) => `${mib(bytes).toLocaleString('en')} MiB`;
    super(
      `With ${subject} ${products.toLocaleString('en')} served products and their search index, this process would use about ${inMiB(projectedBytes)} of heap, ` +
        `more than ${CATALOG_HEAP_SHARE * 100}% of its heap limit of ${inMiB(limitBytes)}; ${outcome}. ` +
        `Give Node.js a larger heap, e.g. NODE_OPTIONS=--max-old-space-size=${advisedHeapMiB(projection)}, and the machine or container the memory to match ` +
        `(RSS runs at about 1.3 times the heap; docs/deploy.md, Memory).`,
    );
    this.name = 'CatalogTooLargeError';
  }

  /** The numbers, as the admin API's problem details name them. */
  get details(): Record<string, number | string> {
    const { products, projectedBytes, limitBytes } = this.projection;
    return {
      served_products: products,
      projected_heap_mib: mib(projectedBytes),
      heap_limit_mib: mib(limitBytes),
      catalog_heap_share: CATALOG_HEAP_SHARE,
      setting: `NODE_OPTIONS=--max-old-space-size=${advisedHeapMiB(this.projection)}`,
    };
  }
}

/**
 * The one projection of a catalog's heap: bytes per served product measured in this
 * process (the heap in use beyond what it used before its catalog was built, over the
 * products loaded), times a number of served products, against CATALOG_HEAP_SHARE of
 * the heap limit. Made on a sample large enough that the garbage the heap in use
 * counts is not multiplied into a catalog that seems not to fit.
 */
export class HeapBudget {
  readonly #before: number;
  /** While a catalog loads: the fewest bytes per product read since the sample was loaded. */
  #leanestPerProduct = Infinity;

  /**
   * Measures the heap in use now: the base the catalog built next is measured beyond.
   * @param minimumSample Products loaded before any projection is made (SAMPLE_PRODUCTS): lower only where a test feeds numbers without garbage.
   */
  constructor(
    private readonly read: () => HeapReading = readHeap,
    private readonly minimumSample = SAMPLE_PRODUCTS,
  ) {
    this.#before = read().used;
  }

  /**
   * While a build loads, after each page: throws CatalogTooLargeError when the `loaded`
   * products so far, not indexed yet, project a `total` over the budget (judged from
   * JUDGED_AT_SAMPLES samples on, or once the whole catalog is loaded; before, only a
   * catalog CLEARLY_OVER it). A build calls it once more when it has loaded its last page,
   * with what it loaded as the total.
   */
  check(loaded: number, total: number): void {
    const sample = this.#sampleOf(total);
    if (loaded === 0 || loaded < sample) return;
    const perProduct = this.#perProduct(loaded);
    this.#leanestPerProduct = Math.min(this.#leanestPerProduct, perProduct);
    const judged = loaded >= Math.min(total, sample * JUDGED_AT_SAMPLES);
    const projection = judged ? this.#over(this.#leanestPerProduct, total, 1 + INDEX_SHARE) : this.#over(perProduct, total, 1 + INDEX_SHARE, CLEARLY_OVER);
    if (projection) throw new CatalogTooLargeError(projection, "the catalog's", 'it stops now rather than run out of memory later');
  }

  /**
   * While serving `served` products, indexed: the projection of a catalog of `products`
   * when it is over the budget; undefined when it fits, or when `served` is too small a
   * sample of it to tell.
   */
  exceeded(served: number, products: number): HeapProjection | undefined {
    if (served === 0 || served < this.#sampleOf(products)) return undefined;
    return this.#over(this.#perProduct(served), products, 1);
  }

  /** The products a projection of a catalog of `products` is made from: SAMPLE_SHARE of it, at least `minimumSample`, at most all of it. */
  #sampleOf(products: number): number {
    return Math.min(products, Math.max(this.minimumSample, products * SAMPLE_SHARE));
  }

  /** The heap in use now beyond the base, per product of `sample`. */
  #perProduct(sample: number): number {
    return Math.max(0, this.read().used - this.#before) / sample;
  }

  /**
   * @param growth The factor the heap measured per product grows by before the catalog is served: 1 + INDEX_SHARE while its search index is not built, 1 once it is.
   * @param margin How many times the budget the projection must pass to count as over it.
   */
  #over(perProduct: number, products: number, growth: number, margin = 1): HeapProjection | undefined {
    const limit = this.read().limit;
    const projectedBytes = this.#before + perProduct * products * growth;
    return projectedBytes > limit * CATALOG_HEAP_SHARE * margin ? { products, projectedBytes, limitBytes: limit } : undefined;
  }
}
