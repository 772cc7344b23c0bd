import { DEFAULT_LOCALE, type Locale } from '../model/locales.js';

/**
 * The product types of the read model: what the live catalog holds, the indexes file and
 * the queries read. In a module of their own so that the structures built over them
 * (the live catalog, its indexes, pricing) do not import each other for their types.
 */

export interface Region {
  readonly id: string;
  readonly name: string;
  readonly currency: string;
  readonly countries: readonly string[];
}

export interface ProductText {
  readonly title: string;
  readonly description: string | null;
}

/**
 * A variant as the catalog serves it, kept small: at 100,000 products there are about
 * 600,000 of them. Repeated strings (option values, currencies, region ids) are shared.
 */
export interface CatalogVariant {
  readonly id: string;
  readonly sku: string;
  readonly productId: string;
  /** One value per option of the product, in the product's option order. */
  readonly optionValues: readonly string[];
  readonly manageInventory: boolean;
  readonly inventoryQuantity: number;
  readonly allowBackorder: boolean;
  /** The prices of the product's variants, this one's among them: its row is `priceRow`. */
  readonly prices: PriceTable;
  readonly priceRow: number;
}

/**
 * The prices of one product's variants, shared by them: a row of amounts per variant, a
 * column per key. A key is a currency code (upper case: the price for every region of that
 * currency) or a region id (lower case: that region's price, which wins over the
 * currency's). One table per product rather than a list per variant: the variants' own
 * lists took 58 MB at 100,000 products (docs/deploy.md, Memory).
 */
export interface PriceTable {
  /** Shared with every other product that has the same keys. */
  readonly keys: readonly string[];
  /** Minor units, row after row; NO_PRICE where a variant has no price for the key. */
  readonly amounts: readonly number[];
}

/** No price for that key (amounts are never negative: the catalog file's schema). */
export const NO_PRICE = -1;

export interface CatalogProduct {
  readonly id: string;
  readonly handle: string;
  readonly thumbnail: string | null;
  /** `created_at` in milliseconds since the epoch: the served order compares it millions of times. */
  readonly createdAtMs: number;
  /** The default locale's text is always present. */
  readonly texts: Readonly<Partial<Record<Locale, ProductText>>>;
  readonly optionNames: readonly string[];
  readonly variants: readonly CatalogVariant[];
  /** Handles of the categories the product is in, as listed (not their ancestors). */
  readonly categories: readonly string[];
  readonly collection: string | null;
  readonly tags: readonly string[];
  readonly images: readonly ProductImage[];
}

export interface ProductImage {
  readonly url: string;
  readonly alt: string | null;
}

/** A product's texts in the locale, or in the default locale where it has no translation. */
export function textIn(product: CatalogProduct, locale: Locale): ProductText {
  return product.texts[locale] ?? product.texts[DEFAULT_LOCALE]!;
}

/** A product's images in display order, as the protocol renderings list them: the thumbnail first when it is not among the images. */
export function displayImages(product: CatalogProduct): readonly ProductImage[] {
  const { thumbnail, images } = product;
  return thumbnail !== null && !images.some((image) => image.url === thumbnail) ? [{ url: thumbnail, alt: null }, ...images] : images;
}
