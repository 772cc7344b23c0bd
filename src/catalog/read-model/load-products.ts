import type { Db } from '../../store/database.js';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '../locales.js';
import type { CatalogProduct, CatalogVariant, ProductText, Region } from './live-catalog.js';
import type { StringPool } from './string-pool.js';

export async function loadRegions(db: Db): Promise<Region[]> {
  const [regionRows, countryRows] = await Promise.all([
    db.selectFrom('regions').selectAll().orderBy('position').execute(),
    db.selectFrom('region_countries').selectAll().orderBy('country').execute(),
  ]);
  const countries = new Map<string, string[]>();
  for (const row of countryRows) countries.set(row.region_id, [...(countries.get(row.region_id) ?? []), row.country]);
  return regionRows.map((row) => ({ id: row.id, name: row.name, currency: row.currency, countries: countries.get(row.id) ?? [] }));
}

type ProductRow = { id: string; handle: string; thumbnail: string | null; created_at: string };

const servedProducts = (db: Db) =>
  db
    .selectFrom('products')
    .select(['id', 'handle', 'thumbnail', 'created_at'])
    .where('status', '=', 'published')
    .where('weighted', '=', 0);

/**
 * The served state of these products (at most a few hundred: one `in` list per table),
 * keyed by id. A product that is not served (gone, draft, weighted) is absent.
 */
export async function loadProducts(db: Db, ids: readonly string[], strings: StringPool): Promise<Map<string, CatalogProduct>> {
  if (ids.length === 0) return new Map();
  return assemble(db, await servedProducts(db).where('id', 'in', ids).execute(), strings);
}

/** Every served product, a page at a time in id order, for a full build of the read model. */
export async function* loadAllProducts(db: Db, pageSize: number, strings: StringPool): AsyncGenerator<Map<string, CatalogProduct>> {
  let after = '';
  for (;;) {
    const rows = await servedProducts(db).where('id', '>', after).orderBy('id').limit(pageSize).execute();
    if (rows.length === 0) return;
    yield await assemble(db, rows, strings);
    after = rows.at(-1)!.id;
  }
}

/** Reads the rest of these products in one query per table and builds their compact form. */
async function assemble(db: Db, productRows: ProductRow[], strings: StringPool): Promise<Map<string, CatalogProduct>> {
  const ids = productRows.map((row) => row.id);
  if (ids.length === 0) return new Map();
  const [textRows, optionRows, variantRows, valueRows, priceRows] = await Promise.all([
    db.selectFrom('product_translations').selectAll().where('product_id', 'in', ids).execute(),
    db.selectFrom('product_options').select(['product_id', 'name']).where('product_id', 'in', ids).orderBy('product_id').orderBy('position').execute(),
    db.selectFrom('variants').selectAll().where('product_id', 'in', ids).orderBy('product_id').orderBy('position').execute(),
    db
      .selectFrom('variant_option_values as value')
      .innerJoin('product_options as option', 'option.id', 'value.option_id')
      .select(['value.variant_id', 'value.value', 'option.position'])
      .where('option.product_id', 'in', ids)
      .execute(),
    db
      .selectFrom('prices as price')
      .innerJoin('variants as variant', 'variant.id', 'price.variant_id')
      .select(['price.variant_id', 'price.currency', 'price.region_id', 'price.amount'])
      .where('variant.product_id', 'in', ids)
      .execute(),
  ]);

  const texts = groupBy(textRows, (row) => row.product_id);
  const optionNames = groupBy(optionRows, (row) => row.product_id);
  const values = groupBy(valueRows, (row) => row.variant_id);
  const prices = groupBy(priceRows, (row) => row.variant_id);
  const variants = groupBy(variantRows, (row) => row.product_id);

  const products = new Map<string, CatalogProduct>();
  for (const row of productRows) {
    const productTexts: Partial<Record<Locale, ProductText>> = {};
    for (const text of texts.get(row.id) ?? []) {
      if ((LOCALES as readonly string[]).includes(text.locale)) {
        productTexts[text.locale as Locale] = { title: text.title, description: text.description };
      }
    }
    // A product without a text in the default locale cannot be served; no writer makes one.
    if (!productTexts[DEFAULT_LOCALE]) continue;
    products.set(row.id, {
      id: row.id,
      handle: row.handle,
      thumbnail: row.thumbnail,
      createdAt: row.created_at,
      texts: productTexts,
      optionNames: (optionNames.get(row.id) ?? []).map((option) => strings.intern(option.name)),
      variants: (variants.get(row.id) ?? []).map(
        (variant): CatalogVariant => ({
          id: variant.id,
          sku: variant.sku,
          productId: row.id,
          optionValues: (values.get(variant.id) ?? [])
            .sort((a, b) => Number(a.position) - Number(b.position))
            .map((value) => strings.intern(value.value)),
          manageInventory: Boolean(variant.manage_inventory),
          inventoryQuantity: Number(variant.inventory_quantity),
          allowBackorder: Boolean(variant.allow_backorder),
          prices: (prices.get(variant.id) ?? []).flatMap((price) => [strings.intern(price.region_id ?? price.currency), Number(price.amount)]),
        }),
      ),
    });
  }
  return products;
}

function groupBy<T>(rows: T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const group = groups.get(key(row));
    if (group) group.push(row);
    else groups.set(key(row), [row]);
  }
  return groups;
}
