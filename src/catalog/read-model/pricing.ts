import type { CatalogProduct, CatalogVariant, Region } from './product.js';

/** The variant's price in the region in minor units: region-specific, else by currency, else none. */
export function minorPriceIn(variant: CatalogVariant, region: Region): number | null {
  let byCurrency: number | null = null;
  const { prices } = variant;
  for (let i = 0; i < prices.length; i += 2) {
    if (prices[i] === region.id) return prices[i + 1] as number;
    if (prices[i] === region.currency) byCurrency = prices[i + 1] as number;
  }
  return byCurrency;
}

const fractionDigitsCache = new Map<string, number>();

/** ISO 4217 minor-unit digits (2 for EUR, 0 for JPY), as Intl knows them. */
export function fractionDigits(currency: string): number {
  let digits = fractionDigitsCache.get(currency);
  if (digits === undefined) {
    try {
      digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    } catch {
      digits = 2;
    }
    fractionDigitsCache.set(currency, digits);
  }
  return digits;
}

export function toMajorUnits(minor: number, currency: string): number {
  const digits = fractionDigits(currency);
  return Number((minor / 10 ** digits).toFixed(digits));
}

/** Minimum and maximum minor-unit price over the variants that have one; null when none has. */
export function minorPriceRange(product: CatalogProduct, region: Region): { minimum: number; maximum: number } | null {
  let minimum = Infinity;
  let maximum = -Infinity;
  for (const variant of product.variants) {
    const price = minorPriceIn(variant, region);
    if (price === null) continue;
    minimum = Math.min(minimum, price);
    maximum = Math.max(maximum, price);
  }
  return minimum === Infinity ? null : { minimum, maximum };
}
