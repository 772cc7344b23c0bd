import type { Db } from '../../store/database.js';
import { readCatalogVersion } from '../change-log.js';
import { DEFAULT_LOCALE } from '../locales.js';
import { buildSearchIndex } from './search-index.js';
import type { CatalogProduct, CatalogSnapshot, CatalogVariant, Region } from './snapshot.js';

/**
 * Reads the published catalog in a handful of whole-table queries (no per-product
 * round trips) and assembles an immutable snapshot. The version is read first, so a
 * change committed while loading is picked up by the next check.
 */
export async function loadSnapshot(db: Db): Promise<CatalogSnapshot> {
  const version = await readCatalogVersion(db);
  const [regionRows, countryRows, productRows, textRows, optionRows, variantRows, valueRows, priceRows] =
    await Promise.all([
      db.selectFrom('regions').selectAll().orderBy('position').execute(),
      db.selectFrom('region_countries').selectAll().orderBy('country').execute(),
      db
        .selectFrom('products')
        .select(['id', 'handle', 'thumbnail', 'created_at'])
        .where('status', '=', 'published')
        .where('weighted', '=', 0)
        .execute(),
      db.selectFrom('product_translations').selectAll().execute(),
      db.selectFrom('product_options').selectAll().orderBy('product_id').orderBy('position').execute(),
      db.selectFrom('variants').selectAll().orderBy('product_id').orderBy('position').execute(),
      db.selectFrom('variant_option_values').selectAll().execute(),
      db.selectFrom('prices').selectAll().execute(),
    ]);

  const regions: Region[] = regionRows.map((row) => ({ id: row.id, name: row.name, currency: row.currency, countries: [] }));
  const regionById = new Map(regions.map((region) => [region.id, region]));
  const regionByCountry = new Map<string, Region>();
  for (const row of countryRows) {
    const region = regionById.get(row.region_id);
    if (!region) continue;
    region.countries.push(row.country);
    regionByCountry.set(row.country, region);
  }

  const productById = new Map<string, CatalogProduct>(
    productRows.map((row) => [
      row.id,
      { id: row.id, handle: row.handle, thumbnail: row.thumbnail, createdAt: row.created_at, texts: new Map(), variants: [] },
    ]),
  );
  for (const row of textRows) {
    productById.get(row.product_id)?.texts.set(row.locale, { title: row.title, description: row.description });
  }

  const optionNames = new Map(optionRows.map((row) => [row.id, { name: row.name, position: row.position }]));
  const variantById = new Map<string, CatalogVariant>();
  for (const row of variantRows) {
    const product = productById.get(row.product_id);
    if (!product) continue;
    const variant: CatalogVariant = {
      id: row.id,
      sku: row.sku,
      productId: row.product_id,
      options: [],
      manageInventory: Boolean(row.manage_inventory),
      inventoryQuantity: Number(row.inventory_quantity),
      allowBackorder: Boolean(row.allow_backorder),
      currencyPrices: new Map(),
      regionPrices: new Map(),
    };
    product.variants.push(variant);
    variantById.set(variant.id, variant);
  }

  const positioned = new Map<string, { name: string; value: string; position: number }[]>();
  for (const row of valueRows) {
    const option = optionNames.get(row.option_id);
    if (!option || !variantById.has(row.variant_id)) continue;
    const list = positioned.get(row.variant_id) ?? [];
    list.push({ name: option.name, value: row.value, position: option.position });
    positioned.set(row.variant_id, list);
  }
  for (const [variantId, list] of positioned) {
    variantById.get(variantId)!.options = list
      .sort((a, b) => a.position - b.position)
      .map(({ name, value }) => ({ name, value }));
  }

  for (const row of priceRows) {
    const variant = variantById.get(row.variant_id);
    if (!variant) continue;
    if (row.region_id === null) variant.currencyPrices.set(row.currency, Number(row.amount));
    else variant.regionPrices.set(row.region_id, Number(row.amount));
  }

  // A product without a text in the default locale cannot be served; the import never writes one.
  const products = [...productById.values()]
    .filter((product) => product.texts.has(DEFAULT_LOCALE))
    .sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? -1 : 1) : a.createdAt < b.createdAt ? 1 : -1));

  return {
    version,
    regions,
    regionByCountry,
    products,
    productByHandle: new Map(products.map((product) => [product.handle, product])),
    variantById,
    rank: new Map(products.map((product, index) => [product.id, index])),
    search: buildSearchIndex(products),
  };
}
