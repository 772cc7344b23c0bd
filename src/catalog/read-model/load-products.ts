import type { Db } from '../../store/database.js';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '../model/locales.js';
import type { ServedDocument } from '../store/served-document.js';
import { storedCategories, storedCollections } from '../store/write/taxonomy.js';
import type { CatalogProduct, ProductText, Region } from './product.js';
import type { StringPool } from './string-pool.js';
import { priceTable } from './pricing.js';
import { Taxonomy } from '../model/taxonomy.js';

/** What products refer to: the regions (prices) and the taxonomy (categories and collections). */
export async function loadDefinitions(db: Db): Promise<[Region[], Taxonomy]> {
  return Promise.all([loadRegions(db), loadTaxonomy(db)]);
}

async function loadTaxonomy(db: Db): Promise<Taxonomy> {
  const [categories, collections] = await Promise.all([storedCategories(db), storedCollections(db)]);
  return new Taxonomy(categories, collections);
}

async function loadRegions(db: Db): Promise<Region[]> {
  const [regionRows, countryRows] = await Promise.all([
    db.selectFrom('regions').selectAll().orderBy('position').execute(),
    db.selectFrom('region_countries').selectAll().orderBy('country').execute(),
  ]);
  const countries = new Map<string, string[]>();
  for (const row of countryRows) countries.set(row.region_id, [...(countries.get(row.region_id) ?? []), row.country]);
  return regionRows.map((row) => ({ id: row.id, name: row.name, currency: row.currency, countries: countries.get(row.id) ?? [] }));
}

type ProductRow = { id: string; handle: string; thumbnail: string | null; created_at: string; served: string | null };

/** Only published, non-weighted products are served. */
const servedProducts = (db: Db) =>
  db
    .selectFrom('products')
    .select(['id', 'handle', 'thumbnail', 'created_at', 'served'])
    .where('status', '=', 'published')
    .where('weighted', '=', 0);

/** The served state of these products, keyed by id; a product that is not served (gone, draft, weighted) is absent. */
export async function loadProducts(db: Db, ids: readonly string[], strings: StringPool): Promise<Map<string, CatalogProduct>> {
  if (ids.length === 0) return new Map();
  return fromRows(await servedProducts(db).where('id', 'in', ids).execute(), strings);
}

/** Which of these products are served now (their ids), without reading them. */
export async function servedAmong(db: Db, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await servedProducts(db).clearSelect().select('id').where('id', 'in', ids).execute();
  return new Set(rows.map((row) => row.id));
}

/** How many products are served: what a full build will load. */
export async function countServedProducts(db: Db): Promise<number> {
  const row = await servedProducts(db).clearSelect().select((eb) => eb.fn.countAll<number | string>().as('count')).executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The served products after `after` in id order, read by `products_served_idx` (migration 0014). */
export const servedProductsAfter = (db: Db, after: string, pageSize: number) => servedProducts(db).where('id', '>', after).orderBy('id').limit(pageSize);

/** Every served product, a page at a time in id order, for a full build of the read model. */
export async function* loadAllProducts(db: Db, pageSize: number, strings: StringPool): AsyncGenerator<Map<string, CatalogProduct>> {
  let after = '';
  for (;;) {
    const rows = await servedProductsAfter(db, after, pageSize).execute();
    if (rows.length === 0) return;
    yield fromRows(rows, strings);
    after = rows.at(-1)!.id;
  }
}

function fromRows(rows: ProductRow[], strings: StringPool): Map<string, CatalogProduct> {
  const products = new Map<string, CatalogProduct>();
  for (const row of rows) {
    const product = fromDocument(row, strings);
    if (product) products.set(row.id, product);
  }
  return products;
}

/** Shared by every product without categories, tags or images: most of a catalog has no images, for one. */
const NONE: readonly never[] = [];

/** The compact in-memory product, sharing repeated strings; undefined when it cannot be served. */
function fromDocument(row: ProductRow, strings: StringPool): CatalogProduct | undefined {
  if (row.served === null) return undefined;
  const document = JSON.parse(row.served) as ServedDocument;
  const texts: Partial<Record<Locale, ProductText>> = {};
  for (const locale of LOCALES) {
    const text = document.texts[locale];
    if (text) texts[locale] = { title: text[0], description: text[1] };
  }
  // No writer stores a product without a text in the default locale; it could not be served.
  if (!texts[DEFAULT_LOCALE]) return undefined;
  const prices = priceTable(
    document.variants.map(([, , , , , , variantPrices]) => variantPrices),
    (keys) => strings.internList(keys),
  );
  return {
    id: row.id,
    handle: row.handle,
    thumbnail: row.thumbnail,
    createdAtMs: Date.parse(row.created_at),
    texts,
    optionNames: strings.internList(document.options),
    variants: document.variants.map(([id, sku, optionValues, manageInventory, inventoryQuantity, allowBackorder], priceRow) => ({
      id,
      sku,
      productId: row.id,
      optionValues: strings.internList(optionValues),
      manageInventory: manageInventory === 1,
      inventoryQuantity,
      allowBackorder: allowBackorder === 1,
      prices,
      priceRow,
    })),
    categories: strings.internList(document.categories ?? NONE),
    collection: document.collection ? strings.intern(document.collection) : null,
    tags: document.tags?.length ? document.tags.map((tag) => strings.intern(tag)) : NONE,
    images: document.images?.length ? document.images.map(([url, alt]) => ({ url, alt })) : NONE,
  };
}
