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

/** A catalog that does not fit the heap this process was given, found while it loads. */
export class CatalogTooLargeError extends Error {
  constructor(products: number, projectedBytes: number, limitBytes: number) {
    const mib = (bytes: number) => `${Math.ceil(bytes / 2 ** 20).toLocaleString('en')} MiB`;
    // Room for the catalog at CATALOG_HEAP_SHARE, rounded up to the next 512 MiB.
    const advised = Math.ceil(projectedBytes / CATALOG_HEAP_SHARE / 2 ** 29) * 512;
    super(
      `With the catalog's ${products.toLocaleString('en')} served products and their search index, this process would use about ${mib(projectedBytes)} of heap, ` +
        `more than ${CATALOG_HEAP_SHARE * 100}% of its heap limit of ${mib(limitBytes)}; it stops now rather than run out of memory later. ` +
        `Give Node.js a larger heap, e.g. NODE_OPTIONS=--max-old-space-size=${advised}, and the machine or container the memory to match ` +
        `(RSS runs at about 1.3 times the heap; docs/deploy.md, Memory).`,
    );
    this.name = 'CatalogTooLargeError';
  }
}

/**
 * Watches a full build of the read model as it loads: once a sample of the catalog is in
 * memory, projects the whole catalog's heap from it and refuses a catalog that would not
 * fit, before the heap runs out (which ends the process with nothing said of why).
 */
export class HeapBudget {
  readonly #before: number;

  constructor(
    private readonly totalProducts: number,
    private readonly read: () => HeapReading = readHeap,
  ) {
    this.#before = read().used;
  }

  /** Throws CatalogTooLargeError when `loaded` products so far project a catalog over the budget. */
  check(loaded: number): void {
    if (loaded === 0 || loaded < Math.min(this.totalProducts, Math.max(SAMPLE_PRODUCTS, this.totalProducts * SAMPLE_SHARE))) return;
    const { used, limit } = this.read();
    const perProduct = Math.max(0, used - this.#before) / loaded;
    const projected = this.#before + perProduct * this.totalProducts * (1 + INDEX_SHARE);
    if (projected > limit * CATALOG_HEAP_SHARE) throw new CatalogTooLargeError(this.totalProducts, projected, limit);
  }
}
