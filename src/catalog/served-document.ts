import { sql, type Kysely } from 'kysely';
import type { Database } from '../store/schema.js';

/**
 * Each product's served form, kept beside its rows as one JSON text (`products.served`)
 * and rewritten in the transaction of every change that touches the product (see
 * `recordCatalogChange`). Read models load these documents instead of joining the
 * variant, price and option tables: at 100,000 products that is 100,000 rows to read
 * instead of about 4.5 million, which is what makes a start take seconds, not a minute,
 * and a change to a few products cost a few milliseconds.
 */
export interface ServedDocument {
  /** Title and description per locale, as stored. */
  texts: Record<string, [title: string, description: string | null]>;
  /** Option names in position order. */
  options: string[];
  /** In position order. */
  variants: ServedVariant[];
}

/** `prices` holds flat pairs: a region id (a region's price) or a currency code (that currency's price), then minor units. */
export type ServedVariant = [
  id: string,
  sku: string,
  optionValues: string[],
  manageInventory: 0 | 1,
  inventoryQuantity: number,
  allowBackorder: 0 | 1,
  prices: (string | number)[],
];

/** Products rewritten per statement: two parameters each, well under every bound-parameter limit. */
const PRODUCTS_PER_STATEMENT = 250;

/** Rewrites the served documents of these products from their rows (ids of removed products are skipped). */
export async function writeServedDocuments(db: Kysely<Database>, productIds: readonly string[]): Promise<void> {
  for (let start = 0; start < productIds.length; start += PRODUCTS_PER_STATEMENT) {
    await storeDocuments(db, await buildServedDocuments(db, productIds.slice(start, start + PRODUCTS_PER_STATEMENT)), 'always');
  }
}

/**
 * Writes the documents of products stored before documents existed, once, at the first
 * start after the upgrade. Only documents still missing are written, so a change
 * committed meanwhile (which writes its own) is never overwritten with older rows.
 */
export async function writeMissingServedDocuments(db: Kysely<Database>): Promise<number> {
  let written = 0;
  for (;;) {
    const missing = await db.selectFrom('products').select('id').where('served', 'is', null).limit(PRODUCTS_PER_STATEMENT).execute();
    if (missing.length === 0) return written;
    await storeDocuments(db, await buildServedDocuments(db, missing.map((row) => row.id)), 'if-missing');
    written += missing.length;
  }
}

/** One statement for the whole set (a CTE of values, which SQLite and PostgreSQL both take). */
async function storeDocuments(db: Kysely<Database>, documents: Map<string, ServedDocument>, when: 'always' | 'if-missing'): Promise<void> {
  if (documents.size === 0) return;
  const values = [...documents].map(([id, document]) => sql`(${id}, ${JSON.stringify(document)})`);
  const onlyMissing = when === 'if-missing' ? sql` and products.served is null` : sql``;
  await sql`with written (id, served) as (values ${sql.join(values)})
    update products set served = written.served from written where products.id = written.id${onlyMissing}`.execute(db);
}

/** One query per table for the whole set; no per-product round trips. */
async function buildServedDocuments(db: Kysely<Database>, ids: string[]): Promise<Map<string, ServedDocument>> {
  const [productRows, textRows, optionRows, variantRows, valueRows, priceRows] = await Promise.all([
    db.selectFrom('products').select('id').where('id', 'in', ids).execute(),
    db.selectFrom('product_translations').selectAll().where('product_id', 'in', ids).execute(),
    db.selectFrom('product_options').select(['product_id', 'name']).where('product_id', 'in', ids).orderBy('product_id').orderBy('position').execute(),
    db.selectFrom('variants').selectAll().where('product_id', 'in', ids).orderBy('product_id').orderBy('position').execute(),
    db
      .selectFrom('variant_option_values as value')
      .innerJoin('product_options as option', 'option.id', 'value.option_id')
      .select(['value.variant_id', 'value.value', 'option.position'])
      .where('option.product_id', 'in', ids)
      .orderBy('option.position')
      .execute(),
    db
      .selectFrom('prices as price')
      .innerJoin('variants as variant', 'variant.id', 'price.variant_id')
      .select(['price.variant_id', 'price.currency', 'price.region_id', 'price.amount'])
      .where('variant.product_id', 'in', ids)
      .execute(),
  ]);
  const texts = groupBy(textRows, (row) => row.product_id);
  const options = groupBy(optionRows, (row) => row.product_id);
  const variants = groupBy(variantRows, (row) => row.product_id);
  const values = groupBy(valueRows, (row) => row.variant_id);
  const prices = groupBy(priceRows, (row) => row.variant_id);
  return new Map(
    productRows.map(({ id }) => [
      id,
      {
        texts: Object.fromEntries((texts.get(id) ?? []).map((text) => [text.locale, [text.title, text.description]])),
        options: (options.get(id) ?? []).map((option) => option.name),
        variants: (variants.get(id) ?? []).map((variant): ServedVariant => [
          variant.id,
          variant.sku,
          (values.get(variant.id) ?? []).map((value) => value.value),
          variant.manage_inventory ? 1 : 0,
          Number(variant.inventory_quantity),
          variant.allow_backorder ? 1 : 0,
          (prices.get(variant.id) ?? []).flatMap((price) => [price.region_id ?? price.currency, Number(price.amount)]),
        ]),
      },
    ]),
  );
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
