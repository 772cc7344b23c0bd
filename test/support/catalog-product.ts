import { priceTable } from '../../src/catalog/read-model/pricing.js';
import type { CatalogProduct, CatalogVariant, Region } from '../../src/catalog/read-model/product.js';

/** Markets of the read-model unit tests: Europe in euros, Switzerland with a price of its own in euros, the US in dollars. */
export const EUROPE: Region = { id: 'eu', name: 'Europe', currency: 'EUR', countries: ['IT', 'FR'] };
export const SWITZERLAND: Region = { id: 'ch', name: 'Switzerland', currency: 'EUR', countries: ['CH'] };
export const UNITED_STATES: Region = { id: 'us', name: 'United States', currency: 'USD', countries: ['US'] };

export interface CatalogVariantFields extends Partial<Omit<CatalogVariant, 'prices' | 'priceRow'>> {
  /** Flat pairs of key and minor-unit amount, as the served document lists them. */
  prices?: (string | number)[];
}

/** A variant as the read model holds it: in stock, not managed, 1.00 EUR unless told otherwise; its prices a table of its own. */
export function catalogVariant(id: string, { prices = ['EUR', 100], ...fields }: CatalogVariantFields = {}): CatalogVariant {
  return { id, sku: id.toUpperCase(), productId: '', optionValues: [], manageInventory: false, inventoryQuantity: 0, allowBackorder: false, prices: priceTable([prices]), priceRow: 0, ...fields };
}

export interface CatalogProductFields extends Partial<Omit<CatalogProduct, 'texts'>> {
  /** The English title (the default locale); the handle unless given. */
  title?: string;
  /** The Italian title, when the product has one. */
  titleIt?: string;
}

/**
 * A product as the read model holds it, built directly, for unit tests of the read-model
 * structures: handle `id`, one variant at 1.00 EUR, created on 1 January 2025, in no
 * category, collection or tag, unless told otherwise.
 */
export function catalogProduct(id: string, { title = id, titleIt, ...fields }: CatalogProductFields = {}): CatalogProduct {
  return {
    id,
    handle: id,
    thumbnail: null,
    createdAtMs: Date.UTC(2025, 0, 1),
    texts: { en: { title, description: null }, ...(titleIt !== undefined && { it: { title: titleIt, description: null } }) },
    optionNames: [],
    categories: [],
    collection: null,
    tags: [],
    images: [],
    variants: [catalogVariant(`variant_${id}`, { productId: id })],
    ...fields,
  };
}
