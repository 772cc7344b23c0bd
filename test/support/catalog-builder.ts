import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type {
  CatalogFile,
  CatalogFileCategory,
  CatalogFileCollection,
  CatalogFileProduct,
  CatalogFileRegion,
  CatalogFileVariant,
} from '../../src/catalog/file/catalog-file-schema.js';

/**
 * Tiny purpose-built catalogs in the catalog file format, so a test states exactly the
 * products it relies on instead of searching the demo catalog for a fitting one.
 */

export const REGIONS: CatalogFileRegion[] = [
  { id: 'reg_it', name: 'Italy', currency: 'EUR', countries: ['IT'] },
  { id: 'reg_eu', name: 'European Union', currency: 'EUR', countries: ['DE', 'FR'] },
  { id: 'reg_gb', name: 'United Kingdom', currency: 'GBP', countries: ['GB'] },
  { id: 'reg_us', name: 'United States', currency: 'USD', countries: ['US'] },
  { id: 'reg_jp', name: 'Japan', currency: 'JPY', countries: ['JP'] },
];

/** Midnight UTC of the given day of January 2025: a readable `created_at`. */
export const day = (n: number) => `2025-01-${String(n).padStart(2, '0')}T00:00:00.000Z`;

/** An always purchasable variant with a EUR price, unless the fields say otherwise. */
export function variant(sku: string, fields: Partial<CatalogFileVariant> = {}): CatalogFileVariant {
  return {
    sku,
    options: [],
    manage_inventory: false,
    inventory_quantity: 0,
    allow_backorder: false,
    prices: [{ currency: 'EUR', amount: 1000 }],
    ...fields,
  };
}

/**
 * Several variants of one product, told apart by one option whose values are their
 * SKUs (a catalog file needs a distinct option combination per variant).
 */
export function skuVariants(variants: CatalogFileVariant[]): Pick<CatalogFileProduct, 'options' | 'variants'> {
  return {
    options: [{ name: 'Variant', values: variants.map((v) => v.sku) }],
    variants: variants.map((v) => ({ ...v, options: [v.sku] })),
  };
}

export interface TitleFields {
  /** English title; defaults to the handle in words. */
  title?: string;
  /** Italian title; no Italian translation (English is served) when omitted. */
  titleIt?: string;
}

const inWords = (handle: string) => handle.replace(/-/g, ' ');

export interface ProductFields extends Partial<CatalogFileProduct>, TitleFields {}

/** A published product with one variant (SKU derived from the handle) unless the fields say otherwise. */
export function product(handle: string, fields: ProductFields = {}): CatalogFileProduct {
  const { title = inWords(handle), titleIt, ...rest } = fields;
  return {
    handle,
    status: 'published',
    weighted: false,
    created_at: day(1),
    translations: {
      en: { title, description: `About ${title}.` },
      ...(titleIt !== undefined && { it: { title: titleIt, description: `Su ${titleIt}.` } }),
    },
    options: [],
    variants: [variant(handle.toUpperCase())],
    ...rest,
  };
}

const titles = (handle: string, { title = inWords(handle), titleIt }: TitleFields) => ({ en: title, ...(titleIt !== undefined && { it: titleIt }) });

/** A category of the tree: at the top unless a parent is given. */
export function category(handle: string, fields: TitleFields & { parent?: string } = {}): CatalogFileCategory {
  return { handle, ...(fields.parent !== undefined && { parent: fields.parent }), titles: titles(handle, fields) };
}

export function collection(handle: string, fields: TitleFields = {}): CatalogFileCollection {
  return { handle, titles: titles(handle, fields) };
}

export function catalog(products: CatalogFileProduct[], regions: CatalogFileRegion[] = REGIONS): CatalogFile {
  return { version: 1, regions, products };
}

export interface TempDir {
  path: string;
  /** Writes JSON (any value: invalid catalogs too) and returns the file's path. */
  writeJson(name: string, value: unknown): Promise<string>;
  remove(): Promise<void>;
}

export async function tempDir(): Promise<TempDir> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'vetrina-test-'));
  return {
    path: dir,
    writeJson: async (name, value) => {
      const file = path.join(dir, name);
      await writeFile(file, JSON.stringify(value, null, 2));
      return file;
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
