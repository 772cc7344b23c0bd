import { textIn } from './locales.js';
import type { Market } from './market.js';
import { availabilityOf, minorPriceIn, minorPriceRange, toMajorUnits, type Availability } from './read-model/pricing.js';
import type { CatalogProduct, CatalogVariant } from './read-model/live-catalog.js';

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
}

/** A product as the catalog serves it in one market (the `Product` schema of /openapi.json). */
export function renderProduct(product: CatalogProduct, market: Market, storefrontUrl: string): PublicProduct {
  const text = textIn(product, market.locale);
  const range = minorPriceRange(product, market.region);
  return {
    id: product.id,
    handle: product.handle,
    title: text.title,
    description: text.description,
    thumbnail: product.thumbnail,
    url: `${storefrontUrl}/products/${product.handle}`,
    variants: product.variants.map((variant) => renderVariant(product, variant, market)),
    price_range: range && {
      minimum: toMajorUnits(range.minimum, market.currency),
      maximum: toMajorUnits(range.maximum, market.currency),
      currency: market.currency,
    },
  };
}

function renderVariant(product: CatalogProduct, variant: CatalogVariant, market: Market): PublicVariant {
  const price = minorPriceIn(variant, market.region);
  return {
    id: variant.id,
    sku: variant.sku,
    display_name: variant.optionValues.length > 0 ? variant.optionValues.join(' / ') : null,
    options: product.optionNames.map((name, i) => ({ name, value: variant.optionValues[i]! })),
    price: price === null ? null : { amount: toMajorUnits(price, market.currency), currency: market.currency },
    availability: availabilityOf(variant),
  };
}
