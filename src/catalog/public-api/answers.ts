import { LRUCache } from 'lru-cache';
import type { CatalogCacheConfig } from '../../config.js';
import { serializeJson } from '../../http/json-serializer.js';
import { PreparedBody, type Caching } from '../../http/prepared-body.js';
import type { CatalogService, ListProductsInput, LookupInput, TaxonomyInput } from '../queries/catalog-service.js';
import { feedCursor, type ChangeFeed, type ChangeFeedInput } from '../queries/change-feed.js';
import type { Market, MarketInput } from '../queries/market.js';
import type { LiveCatalog } from '../read-model/live-catalog.js';
import type { CatalogProduct, Region } from '../read-model/product.js';

/**
 * Bytes of prepared answers kept, counted by their text: their gzip and Brotli forms, once
 * asked for, add about two fifths. A 20-product page is 20 to 45 KB, so about a thousand
 * of the most asked pages.
 */
const ANSWER_BYTES_KEPT = 32 * 1024 * 1024;

/**
 * A prepared answer and what it was made from. It serves only while the catalog still
 * holds those very objects: the catalog replaces a product's object when anything of it
 * changes (a price, a stock level) and its Region objects when regions or the taxonomy
 * change, and moves its generations when the served products, their order, their
 * searchable texts or their taxonomy change (and, for a page whose filters or sort
 * depend on prices or stock, with any change). The products are weakly held, so a kept answer never keeps a replaced product
 * alive.
 */
interface PreparedAnswer {
  body: PreparedBody;
  region: Region;
  products: readonly WeakRef<CatalogProduct>[];
  /** The catalog generation a list page or a taxonomy list is valid for (`ListRequest.generation`, `TaxonomyRequest.generation`), or the catalog version for a change feed page; undefined for a product's detail or a lookup, which have no ranking. */
  generation: number | undefined;
}

/**
 * Catalog answers as sent: the JSON text of a list page, a product or a lookup in a market, its
 * ETag and compressed forms, made once and reused while the answer stays the same. A
 * request is resolved (its market, query words and paging checked) and its answer looked
 * up by those before anything of the page is computed, so a repeated request costs a few
 * identity checks: no ranking, cursor or rendering work. Changes to other products leave
 * a kept answer alone. Its ETag hashes the text itself, so every instance gives the same
 * answer the same tag.
 */
export class CatalogAnswers {
  readonly caching: Caching;
  readonly #answers = new LRUCache<string, PreparedAnswer>({
    maxSize: ANSWER_BYTES_KEPT,
    // A lookup's key holds its identifiers (kilobytes for 50 SKUs), as much as a small answer.
    sizeCalculation: (answer, key) => answer.body.size + key.length,
  });

  constructor(
    private readonly catalog: CatalogService,
    private readonly feed: ChangeFeed,
    cache: CatalogCacheConfig,
  ) {
    this.caching = { cacheControl: catalogCacheControl(cache) };
  }

  async list(input: ListProductsInput): Promise<PreparedBody> {
    const request = await this.catalog.resolveList(input);
    const { catalog, market, queryWords, limit, offset, cursor, filter, sort, generation } = request;
    const paging = cursor === undefined ? `offset ${offset ?? 0}` : `cursor ${cursor}`;
    const key = `list|${marketKey(market)}|${limit}|${paging}|${sort}|${filter?.key ?? ''}|${queryWords.join(' ')}`;
    const kept = this.#answers.get(key);
    if (kept?.generation === generation && kept.region === market.region && stillServed(kept.products, catalog)) {
      return kept.body;
    }
    const { result, shown } = this.catalog.listPage(request);
    return this.#prepare(key, result, market.region, shown, generation);
  }

  detail(handle: string, input: MarketInput): PreparedBody {
    const request = this.catalog.resolveProduct(handle, input);
    const { market, product } = request;
    const key = `detail|${marketKey(market)}|${handle}`;
    const kept = this.#answers.get(key);
    if (kept?.region === market.region && kept.products[0]!.deref() === product) return kept.body;
    return this.#prepare(key, this.catalog.productDetail(request), market.region, [product], undefined);
  }

  /**
   * Keyed on what the identifiers matched, so a kept answer says exactly what a new one
   * would, provided it shows the very region and product objects the catalog holds now.
   */
  lookup(input: LookupInput): PreparedBody {
    const request = this.catalog.resolveLookup(input);
    const { market, products, matches, notFound } = request;
    const key = `lookup|${marketKey(market)}|${JSON.stringify([matches, notFound])}`;
    const kept = this.#answers.get(key);
    if (kept?.region === market.region && madeFrom(kept.products, products)) return kept.body;
    return this.#prepare(key, this.catalog.lookupResult(request), market.region, products, undefined);
  }

  /**
   * The category tree or the collections with their product counts in a market. No
   * product is shown, and the generation also moves when the regions or the taxonomy are
   * replaced, so it alone says whether a kept list still holds.
   */
  async taxonomy(list: 'categories' | 'collections', input: TaxonomyInput): Promise<PreparedBody> {
    const request = await this.catalog.resolveTaxonomy(input);
    const { market, filter, generation } = request;
    const key = `${list}|${marketKey(market)}|${filter?.key ?? ''}`;
    const kept = this.#answers.get(key);
    if (kept?.generation === generation) return kept.body;
    const { [list]: entries, context } = this.catalog.taxonomyLists(request);
    return this.#prepare(key, { [list]: entries, context }, market.region, [], generation);
  }

  /**
   * A page of the change feed. It depends only on the log up to the version served (which
   * never changes below it) and on the products as served at that version, so a kept page
   * serves while the version and the market's Region object stay; its ETag hashes its
   * text, so a client gets 304 for an unchanged page even after it was made again.
   */
  async changes(input: ChangeFeedInput): Promise<PreparedBody> {
    const request = this.feed.resolve(input);
    const { market, since, limit, version } = request;
    const key = `changes|${marketKey(market)}|${limit}|${since === undefined ? 'now' : feedCursor(since)}`;
    const kept = this.#answers.get(key);
    if (kept?.generation === version && kept.region === market.region) return kept.body;
    return this.#prepare(key, await this.feed.page(request), market.region, [], version);
  }

  #prepare(key: string, result: object, region: Region, products: readonly CatalogProduct[], generation: number | undefined): PreparedBody {
    // The answer's text without its closing brace: each response appends its request id.
    const body = new PreparedBody(serializeJson(result).slice(0, -1));
    this.#answers.set(key, { body, region, products: products.map((product) => new WeakRef(product)), generation });
    return body;
  }
}

const marketKey = ({ locale, country, currency }: Market) => `${locale} ${country} ${currency}`;

/** Whether the catalog still serves each of these very product objects. */
function stillServed(products: readonly WeakRef<CatalogProduct>[], catalog: LiveCatalog): boolean {
  return products.every((kept) => {
    const product = kept.deref();
    return product !== undefined && catalog.productById.get(product.id) === product;
  });
}

/** Whether a kept answer shows exactly these product objects, in this order. */
function madeFrom(kept: readonly WeakRef<CatalogProduct>[], products: readonly CatalogProduct[]): boolean {
  return kept.length === products.length && kept.every((held, index) => held.deref() === products[index]);
}

/** What ends each catalog answer: its request id, then the closing brace left off the prepared text. */
export const requestIdTail = (requestId: string): string => `,"request_id":${JSON.stringify(requestId)}}`;

/** How long caches keep catalog answers (CATALOG_CACHE_MAX_AGE...): `max-age` 0 makes every cache revalidate (cheap with the ETag); stale-while-revalidate 0 leaves it out. */
export function catalogCacheControl({ maxAgeSeconds, staleWhileRevalidateSeconds }: CatalogCacheConfig): string {
  if (maxAgeSeconds === 0) return 'no-cache';
  return `public, max-age=${maxAgeSeconds}${staleWhileRevalidateSeconds > 0 ? `, stale-while-revalidate=${staleWhileRevalidateSeconds}` : ''}`;
}
