import type { Kysely, Selectable } from 'kysely';
import type { Database, VariantTable } from '../../../store/schema.js';
import type { CatalogFileProduct, CatalogFileVariant } from '../../file/catalog-file-schema.js';
import { taxonomyOf } from '../served-document.js';

/** A variant as stored: the catalog file's variant plus its id and version. */
export interface StoredVariant extends CatalogFileVariant {
  id: string;
  version: number;
}

/** A product as stored, drafts included: the catalog file's product plus ids, versions and times. */
export interface StoredProduct extends Omit<CatalogFileProduct, 'variants' | 'created_at'> {
  id: string;
  version: number;
  created_at: string;
  updated_at: string;
  variants: StoredVariant[];
}

/** The product with `handle` in the catalog file's shape, whatever its status; undefined when there is none. */
export async function readProduct(db: Kysely<Database>, handle: string): Promise<StoredProduct | undefined> {
  const row = await db.selectFrom('products').selectAll().where('handle', '=', handle).executeTakeFirst();
  if (!row) return undefined;
  const [texts, options, variantRows] = await Promise.all([
    db.selectFrom('product_translations').selectAll().where('product_id', '=', row.id).orderBy('locale').execute(),
    db.selectFrom('product_options').select(['id', 'name']).where('product_id', '=', row.id).orderBy('position').execute(),
    db.selectFrom('variants').selectAll().where('product_id', '=', row.id).orderBy('position').execute(),
  ]);
  const variants = await withOptionsAndPrices(db, variantRows, options.map((option) => option.id));
  return {
    id: row.id,
    handle: row.handle,
    version: Number(row.version),
    status: row.status,
    weighted: row.weighted === 1,
    thumbnail: row.thumbnail,
    ...taxonomyOf(row),
    created_at: row.created_at,
    updated_at: row.updated_at,
    translations: Object.fromEntries(texts.map((text) => [text.locale, { title: text.title, description: text.description }])) as StoredProduct['translations'],
    // A product's option values are the ones its variants use, in the order they first appear.
    options: options.map((option, i) => ({ name: option.name, values: [...new Set(variants.map((variant) => variant.options[i]!))] })),
    variants,
  };
}

/** The variant with `id` and the handle of its product; undefined when there is none. */
export async function readVariant(db: Kysely<Database>, id: string): Promise<(StoredVariant & { product_id: string; product_handle: string }) | undefined> {
  const row = await db
    .selectFrom('variants')
    .innerJoin('products', 'products.id', 'variants.product_id')
    .selectAll('variants')
    .select('products.handle as product_handle')
    .where('variants.id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  const options = await db.selectFrom('product_options').select('id').where('product_id', '=', row.product_id).orderBy('position').execute();
  const [variant] = await withOptionsAndPrices(db, [row], options.map((option) => option.id));
  return { ...variant!, product_id: row.product_id, product_handle: row.product_handle };
}

async function withOptionsAndPrices(db: Kysely<Database>, rows: Selectable<VariantTable>[], optionIds: string[]): Promise<StoredVariant[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const [values, prices] = await Promise.all([
    db.selectFrom('variant_option_values').selectAll().where('variant_id', 'in', ids).execute(),
    db.selectFrom('prices').selectAll().where('variant_id', 'in', ids).orderBy('currency').orderBy('region_id').execute(),
  ]);
  const position = new Map(optionIds.map((id, i) => [id, i]));
  return rows.map((row) => {
    const options: string[] = [];
    for (const value of values) if (value.variant_id === row.id) options[position.get(value.option_id)!] = value.value;
    return {
      id: row.id,
      version: Number(row.version),
      sku: row.sku,
      options,
      manage_inventory: row.manage_inventory === 1,
      inventory_quantity: Number(row.inventory_quantity),
      allow_backorder: row.allow_backorder === 1,
      prices: prices
        .filter((price) => price.variant_id === row.id)
        .map((price) => ({ currency: price.currency, amount: Number(price.amount), ...(price.region_id !== null && { region: price.region_id }) })),
    };
  });
}
