import { LRUCache } from 'lru-cache';
import { reuseJson } from '../../http/json-serializer.js';
import type { CursorCodec } from './cursor.js';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '../model/locales.js';
import { findIdentifiers, type LookupFindings, type LookupIdentifier, type LookupIdentifiers, type LookupMatch } from './lookup.js';
import { DEFAULT_COUNTRY, marketContext, resolveMarket, type Market, type MarketContext, type MarketInput } from './market.js';
import { CatalogReadError } from '../read-model/read-errors.js';
import { asksForFilters, resolveFilter, type FilterInput, type ProductFilter } from '../read-model/product-filter.js';
import { appliedSort, positionOf, rankProducts, type Ranking } from '../read-model/query.js';
import type { CatalogReadModel } from '../read-model/read-model.js';
import type { LiveCatalog } from '../read-model/live-catalog.js';
import type { CatalogProduct, Region } from '../read-model/product.js';
import { words } from '../read-model/text.js';
import { productUrl, renderProduct, type PublicProduct } from './render.js';
import { TaxonomyCounter, type TaxonomyLists } from './taxonomy-listing.js';
import type { SortOrder } from '../read-model/query.js';

/** The page size of a request that names none. */
export const DEFAULT_LIMIT = 10;

export interface ListProductsInput extends MarketInput, FilterInput {
  q?: string | undefined;
  sort?: SortOrder | undefined;
  limit?: number | undefined;
  offset?: number | undefined;
  cursor?: string | undefined;
}

export interface ProductListResult {
  products: PublicProduct[];
  count: number;
  limit: number;
  offset: number;
  has_more: boolean;
  next_cursor: string | null;
  context: MarketContext;
}

/** The markets the catalog sells in, as `list_markets` and the developer portal show them. */
export interface MarketList {
  regions: { id: string; name: string; currency: string; countries: string[] }[];
  default_market: { locale: Locale; country: string };
  locales: Locale[];
}

/** A list request checked and resolved: everything its page depends on. */
export interface ListRequest {
  /** The catalog as served when the request was resolved; the page is computed from it. */
  catalog: LiveCatalog;
  market: Market;
  queryWords: string[];
  limit: number;
  offset: number | undefined;
  cursor: string | undefined;
  filter: ProductFilter | undefined;
  /** As applied: `relevance` only with query words. */
  sort: SortOrder;
  /** Whether the filters or the sort read prices or stock, which differ by market and change all day. */
  dependsOnOffers: boolean;
  /**
   * The catalog generation the page is valid for: the ranking generation, or the change
   * generation when the filters or the sort depend on prices or stock.
   */
  generation: number;
}

/** A page as served, and the catalog products it shows, in order. */
export interface ListedPage {
  result: ProductListResult;
  shown: CatalogProduct[];
}

/** A page of products in served order, before any rendering. */
export interface ProductPage {
  products: CatalogProduct[];
  /** Every match of the request, on all pages. */
  count: number;
  /** Position of the page's first product among the matches. */
  offset: number;
  /** The cursor of the next page; null on the last one. */
  nextCursor: string | null;
}

/** A detail request resolved: the product served under the handle, and the market. */
export interface ProductRequest {
  market: Market;
  product: CatalogProduct;
}

export interface ProductDetailResult {
  product: PublicProduct;
  context: MarketContext;
}

export interface LookupInput extends MarketInput, LookupIdentifiers {}

/** A lookup resolved: the market, and what the identifiers found in the catalog as served. */
export interface LookupRequest extends LookupFindings {
  market: Market;
}

export interface LookupResult {
  products: PublicProduct[];
  matches: LookupMatch[];
  not_found: LookupIdentifier[];
  context: MarketContext;
}

export interface TaxonomyInput extends MarketInput {
  /** Count only the products available (or not) in the market, as the list's `available` filter. */
  available?: boolean | undefined;
}

/** A taxonomy request resolved: the market, the filter its counts apply, and the catalog generation they depend on. */
export interface TaxonomyRequest {
  catalog: LiveCatalog;
  market: Market;
  filter: ProductFilter | undefined;
  generation: number;
}

export interface TaxonomyResult extends TaxonomyLists {
  context: MarketContext;
}

/**
 * Renderings kept: a page of a popular listing is rendered once and its JSON text reused
 * by every response that shows it. Bounded, so a huge catalog in many markets never
 * holds every rendering at once (about 3 KB each with their JSON text).
 */
const RENDERINGS_KEPT = 10_000;
/** Search results kept, counted in matches: popular queries repeat. */
const RANKED_MATCHES_KEPT = 1_000_000;

interface Rendering {
  product: CatalogProduct;
  region: Region;
  rendered: PublicProduct;
}

interface CachedRanking {
  generation: number;
  ranking: Ranking;
}

/**
 * The catalog's read operations, shared by the REST routes and the MCP tools. Bounds
 * are enforced by the callers' schemas; this enforces the rules between values.
 */
export class CatalogService {
  readonly #renderings = new LRUCache<string, Rendering>({ max: RENDERINGS_KEPT });
  readonly #rankings = new LRUCache<string, CachedRanking>({
    maxSize: RANKED_MATCHES_KEPT,
    sizeCalculation: (cached) => cached.ranking.count + 1,
  });
  readonly #taxonomyCounts = new TaxonomyCounter();

  constructor(
    private readonly readModel: CatalogReadModel,
    private readonly storefrontUrl: string,
    private readonly cursors: CursorCodec,
  ) {}

  /** The catalog as served now. Everything read from it in one synchronous stretch is one state of the catalog. */
  get live(): LiveCatalog {
    return this.readModel.catalog;
  }

  markets(): MarketList {
    return {
      regions: this.live.regions.map(({ id, name, currency, countries }) => ({ id, name, currency, countries: [...countries] })),
      default_market: { locale: DEFAULT_LOCALE, country: DEFAULT_COUNTRY },
      locales: [...LOCALES],
    };
  }

  /** A page of products as REST and MCP serve it. */
  async listProducts(input: ListProductsInput): Promise<ProductListResult> {
    return this.listPage(await this.resolveList(input)).result;
  }

  /**
   * Checks a list request and resolves it against the catalog as served now: what the
   * page depends on, before any of it is computed (CatalogAnswers keys prepared pages on it).
   */
  async resolveList(input: ListProductsInput): Promise<ListRequest> {
    // A search, a filter or an order of its own reads the catalog by search-index slot.
    if (input.q !== undefined || !inCatalogOrder(input)) await this.readModel.whenSearchable();
    const catalog = this.readModel.catalog;
    const market = resolveMarket(catalog, input);
    if (input.cursor !== undefined && input.offset !== undefined) {
      throw new CatalogReadError('cursor and offset cannot be combined.', { kind: 'cursor_with_offset' });
    }
    const queryWords = words(input.q ?? '');
    const filter = resolveFilter(input, catalog.taxonomy, market.currency);
    const sort = appliedSort(input.sort, queryWords.length > 0);
    const dependsOnOffers = filter?.dependsOnOffers === true || sort === 'price_asc' || sort === 'price_desc';
    return {
      catalog,
      market,
      queryWords,
      limit: input.limit ?? DEFAULT_LIMIT,
      offset: input.offset,
      cursor: input.cursor,
      filter,
      sort,
      dependsOnOffers,
      generation: catalog.generationFor(dependsOnOffers),
    };
  }

  /** The page a resolved request asks for, with the catalog products it shows. */
  listPage(request: ListRequest): ListedPage {
    const { products: shown, count, offset, nextCursor } = this.pageOf(request);
    const result = {
      products: shown.map((product) => this.render(product, request.market)),
      count,
      limit: request.limit,
      offset,
      has_more: nextCursor !== null,
      next_cursor: nextCursor,
      context: marketContext(request.market),
    };
    return { result, shown };
  }

  /** The page a resolved request asks for, unrendered: for surfaces that render products in a shape of their own (UCP). */
  pageOf(request: ListRequest): ProductPage {
    const { catalog, limit, offset, cursor } = request;
    const ranking = this.#ranking(request);
    const scope = cursorScope(request);
    const count = ranking.count;
    const start = cursor === undefined ? (offset ?? 0) : ranking.indexAfter(this.cursors.decode(cursor, scope));
    const end = Math.min(start + limit, count);
    const matches = ranking.range(start, end);
    const products = matches.map((match) => catalog.productById.get(match.product.id)!);
    const nextCursor = end > start && end < count ? this.cursors.encode(positionOf(matches.at(-1)!), scope) : null;
    return { products, count, offset: start, nextCursor };
  }

  getProduct(handle: string, input: MarketInput): ProductDetailResult {
    return this.productDetail(this.resolveProduct(handle, input));
  }

  /** The product a detail request names, in the market it asks for; refused as `product_not_found` when none is served. */
  resolveProduct(handle: string, input: MarketInput): ProductRequest {
    const catalog = this.readModel.catalog;
    const market = resolveMarket(catalog, input);
    const product = catalog.productByHandle.get(handle);
    if (!product) {
      throw new CatalogReadError(`No published product has the handle "${handle}".`, { kind: 'product_not_found', handle });
    }
    return { market, product };
  }

  productDetail({ market, product }: ProductRequest): ProductDetailResult {
    return { product: this.render(product, market), context: marketContext(market) };
  }

  /** Products by product id, variant id or SKU, as REST and MCP serve them. */
  lookup(input: LookupInput): LookupResult {
    return this.lookupResult(this.resolveLookup(input));
  }

  /** Checks a lookup and finds its identifiers in the catalog as served now (CatalogAnswers keys prepared answers on what was found). */
  resolveLookup(input: LookupInput): LookupRequest {
    const catalog = this.readModel.catalog;
    return { market: resolveMarket(catalog, input), ...findIdentifiers(catalog, input) };
  }

  /** The products found, rendered exactly as a list renders them in the market. */
  lookupResult({ market, products, matches, notFound }: LookupRequest): LookupResult {
    return { products: products.map((product) => this.render(product, market)), matches, not_found: notFound, context: marketContext(market) };
  }

  /** The category tree and the collections with their product counts in a market, as list_categories serves them. */
  async listTaxonomy(input: TaxonomyInput): Promise<TaxonomyResult> {
    return this.taxonomyLists(await this.resolveTaxonomy(input));
  }

  /** Checks a taxonomy request and resolves it against the catalog as served now (CatalogAnswers keys the prepared lists on it). */
  async resolveTaxonomy(input: TaxonomyInput): Promise<TaxonomyRequest> {
    // Counting reads the catalog by search-index slot.
    await this.readModel.whenSearchable();
    const catalog = this.readModel.catalog;
    const market = resolveMarket(catalog, input);
    const filter = resolveFilter({ available: input.available }, catalog.taxonomy, market.currency);
    return { catalog, market, filter, generation: catalog.generationFor(filter?.dependsOnOffers === true) };
  }

  taxonomyLists({ catalog, market, filter, generation }: TaxonomyRequest): TaxonomyResult {
    return { ...this.#taxonomyCounts.lists(catalog, market.locale, market.region, filter, generation), context: marketContext(market) };
  }

  /** A request's ranking, reused while the catalog generation it depends on stays (the catalog's own order needs no keeping). */
  #ranking({ catalog, market, queryWords, filter, sort, dependsOnOffers, generation }: ListRequest): Ranking {
    if (queryWords.length === 0 && filter === undefined && sort === 'newest') return rankProducts(catalog, queryWords, market.locale);
    // Only prices and stock differ between markets: other rankings are shared by every region.
    const key = `${market.locale}|${dependsOnOffers ? market.region.id : ''}|${sort}|${filter?.key ?? ''}|${queryWords.join(' ')}`;
    const cached = this.#rankings.get(key);
    if (cached?.generation === generation) return cached.ranking;
    const ranking = rankProducts(catalog, queryWords, market.locale, { region: market.region, filter, sort });
    this.#rankings.set(key, { generation, ranking });
    return ranking;
  }

  /** The storefront page of a served product, as every rendering links it. */
  productUrl(product: CatalogProduct): string {
    return productUrl(this.storefrontUrl, product.handle);
  }

  /**
   * A product as served in a locale and region, shared (read-only) by every response
   * that shows it, its JSON text included. A cached rendering serves only the very
   * product object and Region object it was made from: a change replaces those, so a
   * stale rendering is never served.
   */
  render(product: CatalogProduct, market: Market): PublicProduct {
    const key = `${market.locale}|${market.region.id}|${product.id}`;
    const cached = this.#renderings.get(key);
    if (cached?.product === product && cached.region === market.region) return cached.rendered;
    const rendered = reuseJson(renderProduct(product, market, this.live.taxonomy, this.storefrontUrl));
    this.#renderings.set(key, { product, region: market.region, rendered });
    return rendered;
  }
}

/** Whether a list asks for the catalog's own order, unfiltered (read without the search index). */
function inCatalogOrder(input: ListProductsInput): boolean {
  return !asksForFilters(input) && appliedSort(input.sort, false) === 'newest';
}

/**
 * A cursor is valid only for the query, filters, sort and market it was issued for. A
 * request in the default order without filters has the scope cursors had before filters
 * existed, so those stay valid.
 */
function cursorScope({ queryWords, market, filter, sort }: ListRequest): string {
  const scope: unknown[] = [queryWords.join(' '), market.locale, market.country, market.currency];
  if (filter !== undefined || sort !== appliedSort(undefined, queryWords.length > 0)) scope.push(filter?.key ?? '', sort);
  return JSON.stringify(scope);
}
