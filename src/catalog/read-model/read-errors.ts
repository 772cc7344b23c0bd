/** The market a request names, one value each. */
export type MarketParameter = 'locale' | 'country' | 'currency';

/**
 * Why a catalog read answered nothing, with what a surface needs to word it. The read
 * rules know no surface: REST (src/catalog/public-api/errors.ts), the MCP catalog tools
 * (src/mcp/catalog-tools.ts) and the sandbox (src/sandbox/cart-service.ts) each turn a
 * kind into their own code and hint, in their own terms (query parameters, tool arguments).
 */
export type ReadRefusal =
  /**
   * A locale, country or currency that does not resolve to a market: `malformed` when it
   * is not even a country or currency code; `accepted` lists the values that would resolve
   * (the locales, the served countries, the currency of the country's region).
   */
  | { kind: 'invalid_market'; parameter: MarketParameter; malformed: boolean; accepted: readonly string[] }
  /** A cursor this catalog did not issue (or one that was changed), or one issued for another list. */
  | { kind: 'invalid_cursor'; reason: 'not_issued' | 'other_list' }
  | { kind: 'cursor_with_offset' }
  /** A category or collection handle the catalog's taxonomy does not have. */
  | { kind: 'unknown_taxonomy'; parameter: 'category' | 'collection'; handle: string }
  /** A lower price bound above the upper one, as given (major units). */
  | { kind: 'inverted_price_range'; priceMin: number; priceMax: number }
  /** A lookup naming no identifier, or more than MAX_LOOKUP_IDENTIFIERS (src/catalog/queries/lookup.ts). */
  | { kind: 'lookup_bounds'; given: number }
  /** No served product has the handle. */
  | { kind: 'product_not_found'; handle: string }
  /** A change feed cursor the feed did not write. */
  | { kind: 'invalid_feed_cursor' }
  /** A change feed cursor older than the change log holds (CHANGE_FEED_RETENTION_HOURS). */
  | { kind: 'changes_expired' };

/** A refused read: `message` states the fault in the catalog's terms; the refusal is what a surface words its answer from. */
export class CatalogReadError extends Error {
  constructor(
    message: string,
    readonly refusal: ReadRefusal,
  ) {
    super(message);
    this.name = 'CatalogReadError';
  }
}
