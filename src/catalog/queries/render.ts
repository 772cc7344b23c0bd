import { textIn } from '../read-model/product.js';
import type { Market } from './market.js';
import { availabilityOf, type Availability } from '../model/availability.js';
import { minorPriceIn, minorPriceRange, toMajorUnits } from '../read-model/pricing.js';
import type { CatalogProduct, CatalogVariant, ProductImage } from '../read-model/product.js';
import { titleIn, type Category, type Collection, type Taxonomy } from '../model/taxonomy.js';

export interface PublicPrice {
  amount: number;
  currency: string;
}

export interface PublicVariant {
  id: string;
  sku: string | null;
  display_name: string | null;
  options: { name: string; value: string }[];
  price: PublicPrice | null;
  availability: Availability;
}

export interface PublicProduct {
  id: string;
  handle: string;
  title: string;
  description: string | null;
  thumbnail: string | null;
  url: string;
  variants: PublicVariant[];
  price_range: { minimum: number; maximum: number; currency: string } | null;
  categories: TaxonomyReference[];
  collection: TaxonomyReference | null;
  tags: readonly string[];
  images: readonly ProductImage[];
}

export interface TaxonomyReference {
  handle: string;
  title: string;
}

/** A product as the catalog serves it in one market (the `Product` schema of /openapi.json). */
export function renderProduct(product: CatalogProduct, market: Market, taxonomy: Taxonomy, storefrontUrl: string): PublicProduct {
  const text = textIn(product, market.locale);
  const range = minorPriceRange(product, market.region);
  const reference = (entry: Category | Collection): TaxonomyReference => ({ handle: entry.handle, title: titleIn(entry.titles, market.locale) });
  const collection = product.collection === null ? undefined : taxonomy.collection(product.collection);
  return {
    id: product.id,
    handle: product.handle,
    title: text.title,
    description: text.description,
    thumbnail: product.thumbnail,
    url: productUrl(storefrontUrl, product.handle),
    variants: product.variants.map((variant) => renderVariant(product, variant, market)),
    price_range: range && {
      minimum: toMajorUnits(range.minimum, market.currency),
      maximum: toMajorUnits(range.maximum, market.currency),
      currency: market.currency,
    },
    // A handle the taxonomy does not hold (never written by the importer) is left out rather than served without a title.
    categories: product.categories.flatMap((handle) => {
      const category = taxonomy.category(handle);
      return category ? [reference(category)] : [];
    }),
    collection: collection ? reference(collection) : null,
    tags: product.tags,
    images: product.images,
  };
}

/** The storefront page of a product (README, STOREFRONT_URL). */
export function productUrl(storefrontUrl: string, handle: string): string {
  return `${storefrontUrl}/products/${handle}`;
}

/** The variant's option values in option order, e.g. "500 g / Whole bean"; null when the product has no options. */
export function variantDisplayName(variant: CatalogVariant): string | null {
  return variant.optionValues.length > 0 ? variant.optionValues.join(' / ') : null;
}

function renderVariant(product: CatalogProduct, variant: CatalogVariant, market: Market): PublicVariant {
  const price = minorPriceIn(variant, market.region);
  return {
    id: variant.id,
    sku: variant.sku,
    display_name: variantDisplayName(variant),
    options: product.optionNames.map((name, i) => ({ name, value: variant.optionValues[i]! })),
    price: price === null ? null : { amount: toMajorUnits(price, market.currency), currency: market.currency },
    availability: availabilityOf(variant),
  };
}
