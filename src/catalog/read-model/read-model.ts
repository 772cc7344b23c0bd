import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { throttledWarning } from '../../lib/throttled-warning.js';
import { chunks } from '../../store/chunks.js';
import type { Db } from '../../store/database.js';
import { changesAfter, readCatalogVersion } from '../store/change-log.js';
import { LiveCatalog } from './live-catalog.js';
import { CatalogTooLargeError, HeapBudget, type HeapProjection } from './heap-budget.js';
import { countServedProducts, loadAllProducts, loadDefinitions, loadProducts, servedAmong } from './load-products.js';
import { writeMissingServedDocuments } from '../store/served-document.js';
import { StringPool } from './string-pool.js';

/**
 * Products read and applied at a time, with a turn of the event loop between slices, so
 * requests keep being answered while a large change (an import) is applied. Applying a
 * change to each of 10,000 products stalled the event loop for 25 to 45 ms at most with
 * 250 per slice on a quiet machine, and for up to 112 ms while other processes competed
 * for the cores; 100 keeps that well within tens of milliseconds.
 */
export const PRODUCTS_PER_SLICE = 100;
/** Products read at a time by a full build: one query each, parsed and indexed between turns of the event loop. */
const PRODUCTS_PER_PAGE = 1000;
/** Changes read from the log at a time. */
const CHANGES_PER_READ = 1000;
/** Distinct shared strings (option names and values, currencies, region ids). */
const STRING_POOL_CAPACITY = 200_000;

/**
 * Holds the catalog in memory: catalog reads never touch the store. It is built once at
 * start; after that it follows the change log and re-reads only the products each
 * change touched, whether the change came from this process or from another one.
 */
export class CatalogReadModel {
  #catalog: LiveCatalog | undefined;
  #timer: NodeJS.Timeout | undefined;
  #catchingUp: Promise<void> | undefined;
  #followedBy: Promise<void> | undefined;
  #searchable: Promise<void> = Promise.resolve();
  #searchesWaited = 0;
  readonly #strings = new StringPool(STRING_POOL_CAPACITY);
  readonly #appliedListeners = new Set<(version: number) => void>();
  /** The budget of the build at start: its base is the heap without a catalog, beyond which the served catalog is measured. */
  #budget: HeapBudget | undefined;
  #outgrown: CatalogTooLargeError | undefined;

  /** @param heapBudget Makes each build's HeapBudget: over the process's own heap unless a test feeds it numbers. */
  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    private readonly heapBudget: () => HeapBudget = () => new HeapBudget(),
  ) {}

  get catalog(): LiveCatalog {
    if (!this.#catalog) throw new Error('The catalog read model is not loaded yet');
    return this.#catalog;
  }

  get loaded(): boolean {
    return this.#catalog !== undefined;
  }

  /**
   * Loaded and searchable: what /readyz waits for, so that no request routed to a ready
   * instance waits for the search index.
   */
  get ready(): boolean {
    return this.#catalog !== undefined && this.#catalog.searchable;
  }

  /**
   * Set once catalog changes (an import on an instance with a larger heap, or one too
   * small a sample to be refused at its start) would grow the catalog past this
   * instance's heap budget: it stopped applying changes there, serving the catalog as
   * of then, rather than run out of memory; /readyz answers 503 until it restarts with a
   * larger heap.
   */
  get outgrown(): CatalogTooLargeError | undefined {
    return this.#outgrown;
  }

  /**
   * Throws CatalogTooLargeError when an import of the products `handles` names would
   * grow the served catalog past this instance's heap budget, or when the catalog has
   * already outgrown it. The handles not served now are counted as added: a draft of
   * the file is counted too, and a product it unpublishes is not taken away (that happens
   * at its end), so the count errs on the side of the heap.
   */
  checkImport(handles: Iterable<string>): void {
    if (this.#outgrown) throw this.#outgrown;
    const served = this.catalog.products.length;
    let added = 0;
    for (const handle of handles) if (!this.catalog.productByHandle.has(handle)) added++;
    const projection = this.#budget!.exceeded(served, served + added);
    if (projection) {
      throw new CatalogTooLargeError(
        projection,
        `the ${added.toLocaleString('en')} products the import adds to the ${served.toLocaleString('en')} served now, the catalog's`,
        'the import is refused before it writes anything',
      );
    }
  }

  /** Served products the search index does not hold yet: all but zero only in the seconds after start. */
  get unindexedProducts(): number {
    return this.#catalog?.unindexedCount ?? 0;
  }

  /** Catalog reads that had to wait for the search index since start (`vetrina_catalog_index_waits_total`). */
  get searchesWaited(): number {
    return this.#searchesWaited;
  }

  /**
   * The full build, at start (after writing the documents of a store upgraded from before
   * they existed). The catalog is served as soon as it is loaded; its search index is
   * built next, in the background, and the instance is not ready (`ready`) until it is
   * built: searches that reach it before then wait for it (`whenSearchable`).
   */
  async load(): Promise<void> {
    const started = performance.now();
    const written = await writeMissingServedDocuments(this.db);
    if (written > 0) this.log.info({ products: written, ms: Math.round(performance.now() - started) }, 'served documents written for products stored before they existed');
    const { catalog, budget } = await this.#build('loaded');
    this.#catalog = catalog;
    this.#budget = budget;
    this.#searchable = this.#index(catalog);
    // Searches waiting for the index see a failure; nothing else awaits it.
    this.#searchable.catch((error: unknown) => this.log.error({ err: error }, 'building the search index failed'));
  }

  /** Resolves once the served catalog can be searched: at once, except in the seconds after start. */
  whenSearchable(): Promise<void> {
    if (this.catalog.searchable) return Promise.resolve();
    this.#searchesWaited++;
    return this.#searchable;
  }

  /** Resolves once the instance is `ready`; rejects if building the search index failed. */
  whenReady(): Promise<void> {
    return this.#searchable;
  }

  async #index(catalog: LiveCatalog): Promise<void> {
    const started = performance.now();
    while (catalog.indexSome(PRODUCTS_PER_PAGE) > 0) await yieldToEventLoop();
    this.log.info({ products: catalog.products.length, ms: Math.round(performance.now() - started) }, 'catalog search index built');
  }

  /**
   * Applies every change committed before this call; one run at a time. A call during a
   * run is answered by one more run after it, shared by every call made meanwhile: the
   * running one may have read the log before the change that prompted the call.
   * An instance so far behind that the log no longer holds its next change builds a new
   * catalog beside the served one and swaps it in.
   */
  refresh(): Promise<void> {
    if (this.#catchingUp === undefined) {
      this.#catchingUp = this.#catchUp().finally(() => {
        this.#catchingUp = undefined;
      });
      return this.#catchingUp;
    }
    this.#followedBy ??= this.#catchingUp
      .catch(() => undefined)
      .then(() => {
        this.#followedBy = undefined;
        return this.refresh();
      });
    return this.#followedBy;
  }

  /**
   * Calls `listener` with the catalog version each time this instance serves newer
   * changes, wherever they were made (its own writes, an announcement, a poll, a
   * rebuild): the change streams follow it. Answers the function that stops the calls.
   */
  onApplied(listener: (version: number) => void): () => void {
    this.#appliedListeners.add(listener);
    return () => this.#appliedListeners.delete(listener);
  }

  #applied(version: number): void {
    for (const listener of this.#appliedListeners) listener(version);
  }

  /**
   * Resolves once the read model serves catalog version `version` or a later one; rejects
   * with CatalogTooLargeError once the catalog has outgrown this instance's heap (`outgrown`).
   */
  async catchUpTo(version: number): Promise<void> {
    while (this.catalog.version < version) {
      if (this.#outgrown) throw this.#outgrown;
      await this.refresh();
    }
  }

  async #catchUp(): Promise<void> {
    const catalog = this.catalog;
    while (!this.#outgrown) {
      const changes = await changesAfter(this.db, catalog.version, CHANGES_PER_READ);
      if (changes === undefined) {
        // The served catalog stays searchable: its replacement is indexed before the swap.
        const rebuilt = await this.#build('rebuilt: the change log no longer holds the changes it missed').catch((error: unknown) => {
          if (!(error instanceof CatalogTooLargeError)) throw error;
          this.#stopGrowing(error.projection, catalog.version);
          return undefined;
        });
        if (!rebuilt) return;
        await this.#index(rebuilt.catalog);
        this.#catalog = rebuilt.catalog;
        this.#applied(rebuilt.catalog.version);
        return;
      }
      if (changes.length === 0) return;
      const ids = [...new Set(changes.flatMap((change) => change.productIds))];
      const projection = await this.#growthOverBudget(catalog, ids);
      if (projection) return this.#stopGrowing(projection, catalog.version);
      if (changes.some((change) => change.regions)) catalog.setDefinitions(...(await loadDefinitions(this.db)));
      await this.#applyProducts(catalog, ids);
      catalog.version = changes.at(-1)!.seq;
      this.#applied(catalog.version);
      if (changes.length < CHANGES_PER_READ) return;
    }
  }

  /**
   * The projection of the catalog with the products `ids` applied, when it passes the heap
   * budget. Only the products this instance does not serve can grow it: the store is asked
   * which of those it serves (a change to served products, such as a price, asks nothing),
   * and the count is checked after each statement's worth, as a build checks page by page,
   * so that a change many times the catalog's size is projected while the catalog is
   * still a sample of it (HeapBudget projects nothing from less). Products the changes take
   * away are not subtracted: the count errs on the side of the heap.
   */
  async #growthOverBudget(catalog: LiveCatalog, ids: string[]): Promise<HeapProjection | undefined> {
    const budget = this.#budget!;
    const served = catalog.products.length;
    let after = served;
    for (const slice of chunks(ids.filter((id) => !catalog.productById.has(id)))) {
      after += (await servedAmong(this.db, slice)).size;
      const projection = budget.exceeded(served, after);
      if (projection) return projection;
    }
    return undefined;
  }

  /** Stops applying changes: the instance serves the catalog of `version` and says why, in its log, /readyz and /metrics. */
  #stopGrowing(projection: HeapProjection, version: number): void {
    this.#outgrown = new CatalogTooLargeError(
      projection,
      "the latest catalog changes applied, the catalog's",
      `this instance stopped applying catalog changes at version ${version}: it serves the catalog as of then, and /readyz answers 503 until it is restarted`,
    );
    this.log.error({ catalogVersion: version, products: projection.products, projectedBytes: Math.round(projection.projectedBytes), limitBytes: projection.limitBytes }, this.#outgrown.message);
  }

  async #applyProducts(catalog: LiveCatalog, ids: string[]): Promise<void> {
    for (const slice of chunks(ids, PRODUCTS_PER_SLICE)) {
      catalog.apply(slice, await loadProducts(this.db, slice, this.#strings));
      await yieldToEventLoop();
    }
  }

  /**
   * Reads the whole catalog in slices; the version is read first, so changes made meanwhile
   * are applied next. Throws CatalogTooLargeError, before the heap runs out, for a catalog
   * this process's heap cannot hold.
   */
  async #build(outcome: string): Promise<{ catalog: LiveCatalog; budget: HeapBudget }> {
    const started = performance.now();
    const budget = this.heapBudget();
    const catalog = new LiveCatalog(await readCatalogVersion(this.db));
    catalog.setDefinitions(...(await loadDefinitions(this.db)));
    // Counted after the version is read: products published meanwhile are applied next, not projected.
    const total = await countServedProducts(this.db);
    for await (const page of loadAllProducts(this.db, PRODUCTS_PER_PAGE, this.#strings)) {
      catalog.add(page.values());
      budget.check(catalog.products.length, total);
      await yieldToEventLoop();
    }
    // Products withdrawn while it loaded can leave a catalog short of the count it was judged at.
    budget.check(catalog.products.length, catalog.products.length);
    catalog.sort();
    this.log.info(
      { catalogVersion: catalog.version, products: catalog.products.length, ms: Math.round(performance.now() - started) },
      `catalog read model ${outcome}`,
    );
    return { catalog, budget };
  }

  startWatching(intervalMs: number): void {
    // While the store is down this fails on every tick; the catalog keeps being served.
    const warn = throttledWarning(this.log, 'catalog change check failed; serving the catalog as last applied');
    this.#timer = setInterval(() => {
      this.refresh().catch(warn);
    }, intervalMs);
    this.#timer.unref();
  }

  stopWatching(): void {
    clearInterval(this.#timer);
  }
}
