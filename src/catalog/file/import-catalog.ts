import { newId } from '../../lib/new-id.js';
import type { Insertable, Transaction } from 'kysely';
import type { Db } from '../../store/database.js';
import type { Database } from '../../store/schema.js';
import { recordCatalogChange } from '../change-log.js';
import type { CatalogFile, CatalogFileProduct } from './catalog-file-schema.js';

export interface ImportOptions {
  /** Set products that are in the store but not in the file to draft. Default: leave them as they are. */
  unpublishMissing?: boolean;
  now?: Date;
}

export interface ImportReport {
  regions: { created: number; updated: number };
  products: { created: number; updated: number };
  variants: { created: number; updated: number; removed: string[] };
  /** Handles in the store but not in the file: kept as they were, unless unpublished. */
  missing: string[];
  unpublished: string[];
  catalogVersion: number;
}

type Trx = Transaction<Database>;

/** Rows per multi-row statement: well under SQLite's and PostgreSQL's bound-parameter limits. */
const CHUNK = 400;

/**
 * Writes a validated catalog file in one transaction. Regions are upserted by id,
 * products by handle and variants by SKU, so ids (and the carts that refer to them)
 * survive re-imports. A product in the file is replaced as a whole: its texts,
 * options, variants and prices become exactly those of the file, and variants it no
 * longer lists are removed and reported. Products missing from the file are never
 * removed; they are reported, and set to draft only with `unpublishMissing`.
 */
export async function importCatalog(db: Db, catalog: CatalogFile, options: ImportOptions = {}): Promise<ImportReport> {
  const at = options.now ?? new Date();
  const now = at.toISOString();
  return db.transaction().execute(async (trx) => {
    const regions = await upsertRegions(trx, catalog);
    const existing = await trx.selectFrom('products').select(['id', 'handle', 'created_at']).execute();
    const byHandle = new Map(existing.map((row) => [row.handle, row]));

    const productRows = catalog.products.map((product) => {
      const known = byHandle.get(product.handle);
      return {
        id: known?.id ?? newId('prod'),
        handle: product.handle,
        status: product.status,
        weighted: product.weighted ? 1 : 0,
        thumbnail: product.thumbnail ?? null,
        created_at: product.created_at ? new Date(product.created_at).toISOString() : (known?.created_at ?? now),
        updated_at: now,
      };
    });
    for (const rows of chunks(productRows)) {
      await trx
        .insertInto('products')
        .values(rows)
        .onConflict((conflict) =>
          conflict.column('handle').doUpdateSet((eb) => ({
            status: eb.ref('excluded.status'),
            weighted: eb.ref('excluded.weighted'),
            thumbnail: eb.ref('excluded.thumbnail'),
            created_at: eb.ref('excluded.created_at'),
            updated_at: eb.ref('excluded.updated_at'),
            version: eb('products.version', '+', 1),
          })),
        )
        .execute();
    }
    const productIds = productRows.map((row) => row.id);
    const { report: variants, otherProductsTouched } = await replaceProductContents(trx, catalog.products, productIds);

    const inFile = new Set(catalog.products.map((product) => product.handle));
    const missing = existing.filter((row) => !inFile.has(row.handle)).map((row) => row.handle).sort();
    let unpublished: string[] = [];
    if (options.unpublishMissing && missing.length > 0) {
      const rows = await trx
        .selectFrom('products')
        .select(['id', 'handle'])
        .where('handle', 'in', missing)
        .where('status', '=', 'published')
        .execute();
      unpublished = rows.map((row) => row.handle).sort();
      for (const row of rows) otherProductsTouched.add(row.id);
      for (const handles of chunks(unpublished)) {
        await trx
          .updateTable('products')
          .set((eb) => ({ status: 'draft', updated_at: now, version: eb('version', '+', 1) }))
          .where('handle', 'in', handles)
          .execute();
      }
    }

    // Every import rewrites the regions it lists.
    const catalogVersion = await recordCatalogChange(trx, { productIds: [...productIds, ...otherProductsTouched], regions: true }, at);
    const created = productRows.filter((row) => !byHandle.has(row.handle)).length;
    return {
      regions,
      products: { created, updated: productRows.length - created },
      variants,
      missing,
      unpublished,
      catalogVersion,
    };
  });
}

async function upsertRegions(trx: Trx, catalog: CatalogFile): Promise<ImportReport['regions']> {
  const known = new Set((await trx.selectFrom('regions').select('id').execute()).map((row) => row.id));
  const fileCountries = catalog.regions.flatMap((region) => region.countries);
  // A country moving to another region is released by its old region first.
  await trx.deleteFrom('region_countries').where('country', 'in', fileCountries).execute();
  for (const [position, region] of catalog.regions.entries()) {
    await trx
      .insertInto('regions')
      .values({ id: region.id, name: region.name, currency: region.currency, position })
      .onConflict((conflict) =>
        conflict.column('id').doUpdateSet({ name: region.name, currency: region.currency, position }),
      )
      .execute();
    await trx.deleteFrom('region_countries').where('region_id', '=', region.id).execute();
    await trx
      .insertInto('region_countries')
      .values(region.countries.map((country) => ({ country, region_id: region.id })))
      .execute();
  }
  const created = catalog.regions.filter((region) => !known.has(region.id)).length;
  return { created, updated: catalog.regions.length - created };
}

async function replaceProductContents(
  trx: Trx,
  products: CatalogFileProduct[],
  productIds: string[],
): Promise<{ report: ImportReport['variants']; otherProductsTouched: Set<string> }> {
  const fileSkus = new Set(products.flatMap((product) => product.variants.map((variant) => variant.sku)));
  const knownVariants = new Map<string, string>();
  const removed: string[] = [];
  for (const ids of chunks(productIds)) {
    const rows = await trx.selectFrom('variants').select(['id', 'sku']).where('product_id', 'in', ids).execute();
    for (const row of rows) {
      if (fileSkus.has(row.sku)) continue;
      removed.push(row.sku);
      await trx.deleteFrom('variants').where('id', '=', row.id).execute();
    }
    await trx.deleteFrom('product_translations').where('product_id', 'in', ids).execute();
    await trx.deleteFrom('product_options').where('product_id', 'in', ids).execute();
  }
  // SKUs are unique across the catalog: a SKU may move here from a product outside the
  // file, which then changes too.
  const inFile = new Set(productIds);
  const otherProductsTouched = new Set<string>();
  for (const skus of chunks([...fileSkus])) {
    const rows = await trx.selectFrom('variants').select(['id', 'sku', 'product_id']).where('sku', 'in', skus).execute();
    for (const row of rows) {
      knownVariants.set(row.sku, row.id);
      if (!inFile.has(row.product_id)) otherProductsTouched.add(row.product_id);
    }
  }
  for (const ids of chunks([...knownVariants.values()])) {
    await trx.deleteFrom('prices').where('variant_id', 'in', ids).execute();
  }

  const rows = buildContentRows(products, productIds, knownVariants);
  for (const batch of chunks(rows.translations)) await trx.insertInto('product_translations').values(batch).execute();
  for (const batch of chunks(rows.options)) await trx.insertInto('product_options').values(batch).execute();
  for (const batch of chunks(rows.variants)) {
    await trx
      .insertInto('variants')
      .values(batch)
      .onConflict((conflict) =>
        conflict.column('sku').doUpdateSet((eb) => ({
          product_id: eb.ref('excluded.product_id'),
          position: eb.ref('excluded.position'),
          manage_inventory: eb.ref('excluded.manage_inventory'),
          inventory_quantity: eb.ref('excluded.inventory_quantity'),
          allow_backorder: eb.ref('excluded.allow_backorder'),
          version: eb('variants.version', '+', 1),
        })),
      )
      .execute();
  }
  for (const batch of chunks(rows.optionValues)) await trx.insertInto('variant_option_values').values(batch).execute();
  for (const batch of chunks(rows.prices)) await trx.insertInto('prices').values(batch).execute();

  const created = rows.variants.length - knownVariants.size;
  return { report: { created, updated: knownVariants.size, removed: removed.sort() }, otherProductsTouched };
}

function buildContentRows(products: CatalogFileProduct[], productIds: string[], knownVariants: Map<string, string>) {
  const translations: Insertable<Database['product_translations']>[] = [];
  const options: Insertable<Database['product_options']>[] = [];
  const variants: Insertable<Database['variants']>[] = [];
  const optionValues: Insertable<Database['variant_option_values']>[] = [];
  const prices: Insertable<Database['prices']>[] = [];

  products.forEach((product, p) => {
    const productId = productIds[p]!;
    for (const [locale, text] of Object.entries(product.translations)) {
      if (text) translations.push({ product_id: productId, locale, title: text.title, description: text.description ?? null });
    }
    const optionIds = product.options.map((option, position) => {
      const id = newId('opt');
      options.push({ id, product_id: productId, name: option.name, position });
      return id;
    });
    product.variants.forEach((variant, position) => {
      const id = knownVariants.get(variant.sku) ?? newId('variant');
      variants.push({
        id,
        product_id: productId,
        sku: variant.sku,
        position,
        manage_inventory: variant.manage_inventory ? 1 : 0,
        inventory_quantity: variant.inventory_quantity,
        allow_backorder: variant.allow_backorder ? 1 : 0,
      });
      variant.options.forEach((value, i) => optionValues.push({ variant_id: id, option_id: optionIds[i]!, value }));
      for (const price of variant.prices) {
        prices.push({ variant_id: id, currency: price.currency, region_id: price.region ?? null, amount: price.amount });
      }
    });
  });
  return { translations, options, variants, optionValues, prices };
}

function* chunks<T>(items: T[]): Generator<T[]> {
  for (let start = 0; start < items.length; start += CHUNK) yield items.slice(start, start + CHUNK);
}
