import { reuseJson } from '../http/json-serializer.js';
import { catalogProblem } from './errors.js';
import type { CursorCodec } from './cursor.js';
import { marketContext, resolveMarket, type Market, type MarketContext, type MarketInput } from './market.js';
import { DEFAULT_LIMIT } from './query-schemas.js';
import { indexAfter, matchingProducts, positionOf } from './read-model/query.js';
import type { CatalogReadModel } from './read-model/read-model.js';
import { snapshotMemo } from './read-model/snapshot-memo.js';
import type { CatalogProduct, CatalogSnapshot } from './read-model/snapshot.js';
import { words } from './read-model/text.js';
import { renderProduct, type PublicProduct } from './render.js';

export interface ListProductsInput extends MarketInput {
  q?: string | undefined;
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

export interface ProductDetailResult {
  product: PublicProduct;
  context: MarketContext;
}

/**
 * The catalog's read operations, shared by the REST routes and the MCP tools. Bounds
 * are enforced by the callers' schemas; this enforces the rules between values.
 */
export class CatalogService {
  constructor(
    private readonly readModel: CatalogReadModel,
    private readonly storefrontUrl: string,
    private readonly cursors: CursorCodec,
  ) {}

  listProducts(input: ListProductsInput): ProductListResult {
    const snapshot = this.readModel.snapshot;
    const market = resolveMarket(snapshot, input);
    if (input.cursor !== undefined && input.offset !== undefined) {
      throw catalogProblem(
        'INVALID_QUERY',
        'cursor and offset cannot be combined.',
        'Use next_cursor alone for the following pages; offset is for jumping to a position.',
      );
    }
    const limit = input.limit ?? DEFAULT_LIMIT;
    const ranked = matchingProducts(snapshot, input.q, market.locale);
    const scope = cursorScope(input.q, market);
    const start = input.cursor === undefined ? (input.offset ?? 0) : indexAfter(ranked, this.cursors.decode(input.cursor, scope));
    const page = ranked.slice(start, start + limit);
    const last = page.at(-1);
    const nextCursor = last && start + page.length < ranked.length ? this.cursors.encode(positionOf(last), scope) : null;
    return {
      products: page.map((entry) => this.render(snapshot, entry.product, market)),
      count: ranked.length,
      limit,
      offset: start,
      has_more: nextCursor !== null,
      next_cursor: nextCursor,
      context: marketContext(market),
    };
  }

  getProduct(handle: string, input: MarketInput): ProductDetailResult {
    const snapshot = this.readModel.snapshot;
    const market = resolveMarket(snapshot, input);
    const product = snapshot.productByHandle.get(handle);
    if (!product) {
      throw catalogProblem(
        'PRODUCT_NOT_FOUND',
        `No published product has the handle "${handle}".`,
        'Search with GET /public/v1/products?q=... to find a product and its handle.',
      );
    }
    return { product: this.render(snapshot, product, market), context: marketContext(market) };
  }

  get snapshot(): CatalogSnapshot {
    return this.readModel.snapshot;
  }

  /**
   * A product as served in a locale and region, rendered once per snapshot and shared
   * (read-only) by every response that shows it; its JSON text is reused as well.
   */
  private render(snapshot: CatalogSnapshot, product: CatalogProduct, market: Market): PublicProduct {
    return renderedMemo(snapshot, `${market.locale}|${market.region.id}|${product.id}`, () =>
      reuseJson(renderProduct(product, market, this.storefrontUrl)),
    );
  }
}

/** Bounded so a huge catalog in many markets cannot hold every rendering at once. */
const renderedMemo = snapshotMemo<PublicProduct>(20_000);

/** A cursor is valid only for the query and market it was issued for. */
function cursorScope(q: string | undefined, market: Market): string {
  return JSON.stringify([words(q ?? '').join(' '), market.locale, market.country, market.currency]);
}
