import { sql, type Kysely } from 'kysely';
import { chunks } from '../../store/chunks.js';
import type { Database } from '../../store/schema.js';
import type { LockedCatalog } from './locked-catalog.js';

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
  /** Category handles; absent in documents written before the taxonomy existed, like the three below. */
  categories?: string[];
  collection?: string | null;
  tags?: string[];
  images?: ServedImage[];
  /**
   * The product's handle, thumbnail and whether it is served (published and not weighted):
   * read models take these from the row, but the change log compares a product's
   * document before and after a change (change-details.ts), and by then the row holds
   * only the new values. Absent in documents written before the change feed existed.
   */
  handle?: string;
  thumbnail?: string | null;
  live?: 0 | 1;
}

export type ServedImage = [url: string, alt: string | null];

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

/**
 * A product's rows as a served document is made of: those read back from the store, or
 * those a writer has just written (the importer builds its documents from the rows it
 * inserts rather than reading them back). Options, variants and option values come in
 * position order; prices in any order (readers look a price up by region or currency).
 */
export interface ServedRows {
  /** The product's own columns that the document carries, as stored (JSON texts). */
  products: readonly ServedProductRow[];
  translations: readonly { product_id: string; locale: string; title: string; description?: string | null }[];
  options: readonly { product_id: string; name: string }[];
  variants: readonly {
    id: string;
    product_id: string;
    sku: string;
    manage_inventory: number;
    inventory_quantity: number | string;
    allow_backorder: number;
  }[];
  optionValues: readonly { variant_id: string; value: string }[];
  prices: readonly { variant_id: string; currency: string; region_id?: string | null; amount: number | string }[];
}

export interface ProductTaxonomyRow {
  id: string;
  category_handles: string;
  collection_handle: string | null;
  tags: string;
  images: string;
}

/** The product's columns a served document carries. */
export interface ServedProductRow extends ProductTaxonomyRow {
  handle: string;
  status: string;
  weighted: number;
  thumbnail: string | null;
}

/** A product's taxonomy as the catalog file and the admin API give it. */
export interface ProductTaxonomy {
  categories?: string[] | undefined;
  collection?: string | null | undefined;
  tags?: string[] | undefined;
  images?: { url: string; alt?: string | null | undefined }[] | undefined;
}

/** The stored columns of a product's taxonomy; what is not given is empty (a write replaces the whole product). */
export function taxonomyColumns(product: ProductTaxonomy): Omit<ProductTaxonomyRow, 'id'> {
  return {
    category_handles: JSON.stringify(product.categories ?? []),
    collection_handle: product.collection ?? null,
    tags: JSON.stringify(product.tags ?? []),
    images: JSON.stringify((product.images ?? []).map((image) => ({ url: image.url, alt: image.alt ?? null }))),
  };
}

/** A product's taxonomy from its stored columns, as the admin API shows it. */
export function taxonomyOf(row: Omit<ProductTaxonomyRow, 'id'>): Required<ProductTaxonomy> {
  return {
    categories: JSON.parse(row.category_handles) as string[],
    collection: row.collection_handle,
    tags: JSON.parse(row.tags) as string[],
    images: JSON.parse(row.images) as { url: string; alt: string | null }[],
  };
}

/** The one place that shapes a served document: the documents of `productIds` from their rows. */
export function servedDocumentsFromRows(productIds: Iterable<string>, rows: ServedRows): Map<string, ServedDocument> {
  const texts = groupBy(rows.translations, (row) => row.product_id);
  const options = groupBy(rows.options, (row) => row.product_id);
  const variants = groupBy(rows.variants, (row) => row.product_id);
  const values = groupBy(rows.optionValues, (row) => row.variant_id);
  const prices = groupBy(rows.prices, (row) => row.variant_id);
  const products = new Map(rows.products.map((row) => [row.id, row]));
  const documents = new Map<string, ServedDocument>();
  for (const id of productIds) {
    const product = products.get(id);
    documents.set(id, {
      texts: Object.fromEntries((texts.get(id) ?? []).map((text) => [text.locale, [text.title, text.description ?? null]])),
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
      ...servedTaxonomy(product),
    });
  }
  return documents;
}

function servedTaxonomy(row: ServedProductRow | undefined): Pick<ServedDocument, 'categories' | 'collection' | 'tags' | 'images' | 'handle' | 'thumbnail' | 'live'> {
  if (!row) return { categories: [], collection: null, tags: [], images: [] };
  const { images, ...rest } = taxonomyOf(row);
  return {
    ...rest,
    images: images.map((image): ServedImage => [image.url, image.alt ?? null]),
    handle: row.handle,
    thumbnail: row.thumbnail,
    live: isLive(row) ? 1 : 0,
  };
}

/** Whether the catalog serves a product with these columns: published and not weighted (as the read model loads them). */
export const isLive = (row: { status: string; weighted: number }): boolean => row.status === 'published' && !row.weighted;

/** Products rewritten per statement: two parameters each, well under every bound-parameter limit. */
const PRODUCTS_PER_STATEMENT = 250;

/**
 * Rewrites the served documents of these products: `built` holds documents a writer has
 * built from the rows it wrote in this transaction; the others are rebuilt from their
 * rows (ids of removed products are skipped). Answers the documents written.
 */
export async function writeServedDocuments(
  db: LockedCatalog,
  productIds: readonly string[],
  built: ReadonlyMap<string, ServedDocument> = new Map(),
): Promise<Map<string, ServedDocument>> {
  const written = new Map<string, ServedDocument>();
  for (const ids of chunks(productIds.filter((id) => built.has(id)), PRODUCTS_PER_STATEMENT)) {
    const documents = new Map(ids.map((id) => [id, built.get(id)!]));
    await storeDocuments(db, documents, 'always');
    for (const [id, document] of documents) written.set(id, document);
  }
  for (const ids of chunks(productIds.filter((id) => !built.has(id)), PRODUCTS_PER_STATEMENT)) {
    const documents = await readServedDocuments(db, ids);
    await storeDocuments(db, documents, 'always');
    for (const [id, document] of documents) written.set(id, document);
  }
  return written;
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
    await storeDocuments(db, await readServedDocuments(db, missing.map((row) => row.id)), 'if-missing');
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

/** The documents of the stored products among `ids`, from their rows: one query per table, no per-product round trips. */
async function readServedDocuments(db: Kysely<Database>, ids: string[]): Promise<Map<string, ServedDocument>> {
  const [productRows, translations, options, variants, optionValues, prices] = await Promise.all([
    db
      .selectFrom('products')
      .select(['id', 'handle', 'status', 'weighted', 'thumbnail', 'category_handles', 'collection_handle', 'tags', 'images'])
      .where('id', 'in', ids)
      .execute(),
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
  return servedDocumentsFromRows(
    productRows.map((row) => row.id),
    { products: productRows, translations, options, variants, optionValues, prices },
  );
}

function groupBy<T>(rows: readonly T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const group = groups.get(key(row));
    if (group) group.push(row);
    else groups.set(key(row), [row]);
  }
  return groups;
}
