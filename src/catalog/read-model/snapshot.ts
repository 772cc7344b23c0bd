import type MiniSearch from 'minisearch';

export interface Region {
  id: string;
  name: string;
  currency: string;
  countries: string[];
}

export interface ProductText {
  title: string;
  description: string | null;
}

export interface CatalogVariant {
  id: string;
  sku: string;
  productId: string;
  options: { name: string; value: string }[];
  manageInventory: boolean;
  inventoryQuantity: number;
  allowBackorder: boolean;
  /** Minor units by currency, for prices that apply to every region of that currency. */
  currencyPrices: Map<string, number>;
  /** Minor units by region id, overriding the currency price in that region. */
  regionPrices: Map<string, number>;
}

export interface CatalogProduct {
  id: string;
  handle: string;
  thumbnail: string | null;
  createdAt: string;
  /** Keyed by locale; the default locale is always present. */
  texts: Map<string, ProductText>;
  variants: CatalogVariant[];
}

/**
 * One immutable view of the published catalog. Only published, non-weighted products
 * are in it, so nothing else can be served by any route or tool. A catalog change
 * builds a new snapshot and swaps it in whole, so a request never sees half a change.
 */
export interface CatalogSnapshot {
  version: number;
  regions: Region[];
  regionByCountry: Map<string, Region>;
  /** Newest first: `created_at` descending, then id ascending. */
  products: CatalogProduct[];
  productByHandle: Map<string, CatalogProduct>;
  variantById: Map<string, CatalogVariant>;
  /** Position of each product in `products`: the tie-breaker of every ordering. */
  rank: Map<string, number>;
  search: MiniSearch;
}
