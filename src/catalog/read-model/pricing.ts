import { NO_PRICE, type CatalogProduct, type CatalogVariant, type PriceTable, type Region } from './product.js';

/** The variant's price in the region in minor units: region-specific, else by currency, else none. */
export function minorPriceIn(variant: CatalogVariant, region: Region): number | null {
  let byCurrency: number | null = null;
  const { keys, amounts } = variant.prices;
  const row = variant.priceRow * keys.length;
  for (let i = 0; i < keys.length; i++) {
    const amount = amounts[row + i]!;
    if (amount === NO_PRICE) continue;
    if (keys[i] === region.id) return amount;
    if (keys[i] === region.currency) byCurrency = amount;
  }
  return byCurrency;
}

/**
 * The price table of a product's variants from each variant's flat pairs of key and
 * amount (as the served document lists them), its keys in the order they first appear.
 * `shareKeys` answers the list to keep for the keys: one shared with every equal list.
 */
export function priceTable(variantPrices: readonly (readonly (string | number)[])[], shareKeys: (keys: string[]) => readonly string[] = (keys) => keys): PriceTable {
  const keys: string[] = [];
  for (const pairs of variantPrices) {
    for (let i = 0; i < pairs.length; i += 2) if (!keys.includes(pairs[i] as string)) keys.push(pairs[i] as string);
  }
  const amounts: number[] = new Array<number>(keys.length * variantPrices.length).fill(NO_PRICE);
  variantPrices.forEach((pairs, row) => {
    for (let i = 0; i < pairs.length; i += 2) amounts[row * keys.length + keys.indexOf(pairs[i] as string)] = pairs[i + 1] as number;
  });
  return { keys: shareKeys(keys), amounts };
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
