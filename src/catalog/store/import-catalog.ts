import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { PostgresAdapter, sql, type Insertable } from 'kysely';
import { newOrderedId } from '../../lib/new-id.js';
import { chunks } from '../../store/chunks.js';
import type { Database } from '../../store/schema.js';
import type { AuditEntry, CatalogWriter } from './catalog-writer.js';
import type { LockedCatalog } from './locked-catalog.js';
import { servedDocumentsFromRows, taxonomyColumns, type ServedDocument } from './served-document.js';
import { fileUnderCategories } from './write/product-categories.js';
import { checkCurrencyChanges } from './write/regions.js';
import { importRegions, type RegionsImported } from './import-regions.js';
import { readCatalogVersion } from './change-log.js';
import { checkCategoryTree, type CategorySource } from './write/taxonomy.js';
import type { CatalogFile, CatalogFileCategory, CatalogFileCollection, CatalogFileProduct, CatalogFileRegion } from '../file/catalog-file-schema.js';
import { ProgressMeter, type ProgressOptions } from './import-progress.js';

export interface ImportOptions extends ProgressOptions {
  /** Set products that are in the store but not in the file to draft. Default: leave them as they are. */
  unpublishMissing?: boolean;
  /** Products written per transaction. Default `IMPORT_BATCH_SIZE`. */
  batchSize?: number;
  /** Who imports, as the audit trail names it: an admin token's name, `catalog:import` for the command, `seed`. */
  actor?: string;
  /** The import job (src/admin/import-jobs.ts) whose import this is: each step's audit entry names it (`changes.job`). */
  job?: string;
  /**
   * The report to fill in as each step commits (default: a new one): a caller whose
   * import stops half-way (cancelled, failed) still has what was written.
   */
  report?: ImportReport;
  /** Runs before each step's transaction (the regions', each batch's); what it throws stops the import there (a cancelled job). */
  beforeStep?(): Promise<void>;
}

/** The audit trail's actor of an import that names none. */
export const IMPORT_ACTOR = 'catalog:import';

export interface ImportReport {
  regions: RegionsImported;
  products: { created: number; updated: number };
  variants: { created: number; updated: number; removed: string[] };
  /** Handles in the store but not in the file: kept as they were, unless unpublished. */
  missing: string[];
  unpublished: string[];
  /** The batches of products committed, each a catalog version: the file's products `from` to `to` (1-based). */
  batches: { from: number; to: number; catalog_version: number }[];
  /** The catalog version before the import's first change, and after its last. */
  catalogVersionBefore: number;
  catalogVersion: number;
}

/** The report of an import that has written nothing yet. */
export function emptyImportReport(): ImportReport {
  return {
    regions: { created: 0, updated: 0, unchanged: 0, changes: [], conflicts: [] },
    products: { created: 0, updated: 0 },
    variants: { created: 0, updated: 0, removed: [] },
    missing: [],
    unpublished: [],
    batches: [],
    catalogVersionBefore: 0,
    catalogVersion: 0,
  };
}

/** What the writer needs to know about the whole file before it writes a part of it. */
export interface CatalogWritePlan {
  regions: CatalogFileRegion[];
  categories: CatalogFileCategory[];
  collections: CatalogFileCollection[];
  /** Every handle and every SKU of the file's products. */
  handles: { has(handle: string): boolean } & Iterable<string>;
  skus: { has(sku: string): boolean };
  productCount: number;
}

type Trx = LockedCatalog;

/** Rows per statement that takes its rows as one JSON text (`insertFromJson`): a batch's prices fit in one or two. */
const JSON_CHUNK = 10_000;

/**
 * Products per transaction: in a generated catalog about 20,000 rows of variants, prices,
 * option values and texts, written in a third of a second on SQLite and two thirds on
 * PostgreSQL (docs/catalog-format.md), during which other writers (on SQLite, every
 * writer of the process) wait; each batch is one catalog change that running servers
 * apply on their own.
 */
export const IMPORT_BATCH_SIZE = 500;

/**
 * After writing this many products, PostgreSQL's planner statistics are renewed at once:
 * until its autovacuum gets to them, a store just filled with 100,000 products was planned
 * as if nearly empty, and every admin write took about 400 ms instead of 14.
 */
const ANALYZE_AFTER_PRODUCTS = 1000;

/**
 * Writes a validated catalog, already in memory (tests, small files); `importCatalogFile`
 * streams a file through the same writer.
 */
export async function importCatalog(writer: CatalogWriter, catalog: CatalogFile, options: ImportOptions = {}): Promise<ImportReport> {
  const plan: CatalogWritePlan = {
    regions: catalog.regions,
    categories: catalog.categories ?? [],
    collections: catalog.collections ?? [],
    handles: new Set(catalog.products.map((product) => product.handle)),
    skus: new Set(catalog.products.flatMap((product) => product.variants.map((variant) => variant.sku))),
    productCount: catalog.products.length,
  };
  return writeCatalog(writer, plan, chunks(catalog.products, options.batchSize ?? IMPORT_BATCH_SIZE), options);
}

/**
 * Writes a validated catalog in batches of products, each a catalog change of its own
 * (`CatalogWriter`), so running servers take the import in as it goes and no
 * transaction holds the store for long. Regions come first, in their own change; the
 * last one lists the products missing from the file (and unpublishes them with
 * `unpublishMissing`). Every change is audited as a step of the import, so an import
 * that stops half-way leaves an audit trail of what it wrote.
 *
 * Regions are upserted by id, products by handle and variants by SKU, so ids (and the
 * carts that refer to them) survive re-imports. A product in the file is replaced as a
 * whole: its texts, options, variants and prices become exactly those of the file, and
 * variants it no longer lists are removed and reported. Products missing from the file
 * are never removed.
 *
 * An import that stops half-way (a crash, a lost connection) leaves the batches written
 * so far; running it again converges, since everything is upserted.
 */
export async function writeCatalog(
  writer: CatalogWriter,
  plan: CatalogWritePlan,
  batches: AsyncIterable<CatalogFileProduct[]> | Iterable<CatalogFileProduct[]>,
  options: ImportOptions,
): Promise<ImportReport> {
  const actor = options.actor ?? IMPORT_ACTOR;
  const unpublishMissing = options.unpublishMissing ?? false;
  const report = options.report ?? emptyImportReport();
  // Every step's entry names the catalog version the import began from; its own version is its version_after.
  const step = (changes: object): AuditEntry => ({
    action: 'import',
    targetType: 'catalog',
    targetId: 'catalog',
    versionBefore: report.catalogVersionBefore,
    versionAfter: null,
    changes: { unpublish_missing: unpublishMissing, ...(options.job !== undefined && { job: options.job }), ...changes },
  });
  // Every import rewrites the regions, categories and collections it lists.
  await options.beforeStep?.();
  report.catalogVersion = (
    await writer.write(actor, async (catalog) => {
      report.catalogVersionBefore = await readCatalogVersion(catalog);
      // Refused here, the import writes nothing: the file has passed its own checks, these need the store.
      await checkCurrencyChanges(catalog, plan.regions);
      await checkCategoryTree(catalog, plan.categories, FILE_CATEGORIES);
      const regions = await importRegions(catalog, plan.regions);
      report.regions = regions.report;
      await upsertTaxonomy(catalog, plan);
      return { result: null, regions: true, audit: [step({ step: 'regions', regions: report.regions }), ...regions.audit] };
    })
  ).version;

  const meter = new ProgressMeter('writing', options, plan.productCount);
  let written = 0;
  for await (const batch of batches) {
    await options.beforeStep?.();
    const products = { from: written + 1, to: written + batch.length };
    const version = (
      await writer.write(actor, async (catalog, now) => {
        const { touched, documents, counts } = await writeProducts(catalog, batch, plan, now, report);
        return { result: null, productIds: touched, servedDocuments: documents, audit: [step({ step: 'products', products, ...counts })] };
      })
    ).version;
    report.catalogVersion = version;
    report.batches.push({ ...products, catalog_version: version });
    written += batch.length;
    meter.update(written);
    // Lets a server that imports (over HTTP) answer its other requests between batches.
    await yieldToEventLoop();
  }

  report.variants.removed.sort();
  report.catalogVersion = (
    await writer.write(actor, async (catalog, now) => {
      const unpublishedIds = await listMissing(catalog, plan, unpublishMissing, now, report);
      const summary = { products: report.products, variants: { ...report.variants, removed: report.variants.removed.length } };
      return { result: null, productIds: unpublishedIds, audit: [step({ step: 'done', ...summary })] };
    })
  ).version;
  const { db } = writer;
  if (written >= ANALYZE_AFTER_PRODUCTS && db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`analyze products, product_translations, product_options, variants, variant_option_values, prices`.execute(db);
  }
  meter.finish(written);
  return report;
}

/**
 * Writes one batch of products; returns the ids of every product it touched, the
 * served documents of the batch's products, built from the rows it wrote, and what the
 * batch created, updated and removed (added to `report` as well).
 */
async function writeProducts(
  trx: Trx,
  products: CatalogFileProduct[],
  plan: CatalogWritePlan,
  at: Date,
  report: ImportReport,
): Promise<{ touched: string[]; documents: Map<string, ServedDocument>; counts: BatchCounts }> {
  const batchReport = emptyImportReport();
  const written = await writeProductRows(trx, products, plan, at, batchReport);
  report.products.created += batchReport.products.created;
  report.products.updated += batchReport.products.updated;
  report.variants.created += batchReport.variants.created;
  report.variants.updated += batchReport.variants.updated;
  report.variants.removed.push(...batchReport.variants.removed);
  return { ...written, counts: { products_created: batchReport.products.created, products_updated: batchReport.products.updated, variants: batchReport.variants } };
}

/** What one batch did, as its audit entry records it: enough to tell what an import that stopped after it had written. */
export interface BatchCounts {
  products_created: number;
  products_updated: number;
  variants: ImportReport['variants'];
}

async function writeProductRows(
  trx: Trx,
  products: CatalogFileProduct[],
  plan: CatalogWritePlan,
  at: Date,
  report: ImportReport,
): Promise<{ touched: string[]; documents: Map<string, ServedDocument> }> {
  const now = at.toISOString();
  const byHandle = new Map<string, { id: string; created_at: string }>();
  for (const handles of chunks(products.map((product) => product.handle))) {
    const rows = await trx.selectFrom('products').select(['id', 'handle', 'created_at']).where('handle', 'in', handles).execute();
    for (const row of rows) byHandle.set(row.handle, row);
  }
  const generatedIds = new Set<string>();
  const productRows = products.map((product) => {
    const known = byHandle.get(product.handle);
    const id = known?.id ?? newOrderedId('prod');
    if (!known) generatedIds.add(id);
    return {
      id,
      handle: product.handle,
      status: product.status,
      weighted: product.weighted ? 1 : 0,
      thumbnail: product.thumbnail ?? null,
      ...taxonomyColumns(product),
      created_at: product.created_at ? new Date(product.created_at).toISOString() : (known?.created_at ?? now),
      updated_at: now,
    };
  });
  // The ids come back from the upsert: a product another import inserted since the
  // select above (two instances seeding one empty database) keeps that import's id, and
  // its contents are replaced like those of any stored product.
  const idByHandle = new Map<string, string>();
  for (const rows of chunks(productRows)) {
    const upserted = await trx
      .insertInto('products')
      .values(rows)
      .onConflict((conflict) =>
        conflict.column('handle').doUpdateSet((eb) => ({
          status: eb.ref('excluded.status'),
          weighted: eb.ref('excluded.weighted'),
          thumbnail: eb.ref('excluded.thumbnail'),
          category_handles: eb.ref('excluded.category_handles'),
          collection_handle: eb.ref('excluded.collection_handle'),
          tags: eb.ref('excluded.tags'),
          images: eb.ref('excluded.images'),
          created_at: eb.ref('excluded.created_at'),
          updated_at: eb.ref('excluded.updated_at'),
          version: eb('products.version', '+', 1),
        })),
      )
      .returning(['id', 'handle'])
      .execute();
    for (const row of upserted) idByHandle.set(row.handle, row.id);
  }
  const productIds = products.map((product) => idByHandle.get(product.handle)!);
  await fileUnderCategories(trx, products.map((product, p) => ({ id: productIds[p]!, categories: product.categories ?? [] })));
  const storedIds = productIds.filter((id) => !generatedIds.has(id));
  report.products.created += products.length - storedIds.length;
  report.products.updated += storedIds.length;
  const { otherProductsTouched, rows } = await replaceProductContents(trx, products, productIds, storedIds, plan, report);
  // A product another import inserted meanwhile keeps that import's id (see the upsert above).
  const storedRows = productRows.map((row, p) => ({ ...row, id: productIds[p]! }));
  return { touched: [...productIds, ...otherProductsTouched], documents: servedDocumentsFromRows(productIds, { ...rows, products: storedRows }) };
}

/**
 * Fills in the handles in the store that the file does not list, and unpublishes the
 * published ones among them when asked; returns the ids it unpublished.
 */
async function listMissing(trx: Trx, plan: CatalogWritePlan, unpublish: boolean, at: Date, report: ImportReport): Promise<string[]> {
  const missing: { id: string; handle: string; status: string }[] = [];
  // A page at a time by id, so the rows of every stored product are never in memory at once.
  for (let after = ''; ; ) {
    const page = await trx.selectFrom('products').select(['id', 'handle', 'status']).where('id', '>', after).orderBy('id').limit(STORED_PRODUCTS_PAGE).execute();
    for (const row of page) if (!plan.handles.has(row.handle)) missing.push(row);
    if (page.length < STORED_PRODUCTS_PAGE) break;
    after = page.at(-1)!.id;
  }
  report.missing = missing.map((row) => row.handle).sort();
  if (!unpublish) return [];
  const published = missing.filter((row) => row.status === 'published');
  report.unpublished = published.map((row) => row.handle).sort();
  const ids = published.map((row) => row.id);
  for (const batch of chunks(ids)) {
    await trx
      .updateTable('products')
      .set((eb) => ({ status: 'draft', updated_at: at.toISOString(), version: eb('version', '+', 1) }))
      .where('id', 'in', batch)
      .execute();
  }
  return ids;
}

/** Stored products read per query when the import looks for those its file lacks. */
const STORED_PRODUCTS_PAGE = 10_000;

/** Tree problems name the file's categories by their place in it. */
const FILE_CATEGORIES: CategorySource = { path: (c) => `$.categories[${c}].parent`, name: 'the file', subject: "The file's categories do not fit" };

/**
 * Upserts the file's categories and collections by handle, in the file's order; those the
 * file does not list are kept, like products (a product of an earlier import may still
 * name them).
 */
async function upsertTaxonomy(trx: Trx, plan: CatalogWritePlan): Promise<void> {
  for (const [position, category] of plan.categories.entries()) {
    const row = { parent_handle: category.parent ?? null, position, titles: JSON.stringify(category.titles) };
    await trx
      .insertInto('categories')
      .values({ handle: category.handle, ...row })
      .onConflict((conflict) => conflict.column('handle').doUpdateSet(row))
      .execute();
  }
  for (const [position, collection] of plan.collections.entries()) {
    const row = { position, titles: JSON.stringify(collection.titles) };
    await trx
      .insertInto('collections')
      .values({ handle: collection.handle, ...row })
      .onConflict((conflict) => conflict.column('handle').doUpdateSet(row))
      .execute();
  }
}

/**
 * Replaces the texts, options, variants and prices of a batch's products (`storedIds`:
 * those already in the store, which have contents to clear) with the file's; returns
 * the rows it wrote, and the ids of the products outside the batch that lost a SKU to it.
 */
async function replaceProductContents(
  trx: Trx,
  products: CatalogFileProduct[],
  productIds: string[],
  storedIds: string[],
  plan: CatalogWritePlan,
  report: ImportReport,
): Promise<{ otherProductsTouched: Set<string>; rows: ContentRows }> {
  const batchSkus = products.flatMap((product) => product.variants.map((variant) => variant.sku));
  const knownVariants = new Map<string, string>();
  for (const ids of chunks(storedIds)) {
    const rows = await trx.selectFrom('variants').select(['id', 'sku']).where('product_id', 'in', ids).execute();
    // A SKU the file lists elsewhere moves to its product (in this batch or another) and
    // keeps its id; only the SKUs the file no longer lists at all are removed.
    const removed = rows.filter((row) => !plan.skus.has(row.sku));
    report.variants.removed.push(...removed.map((row) => row.sku));
    for (const batch of chunks(removed.map((row) => row.id))) await trx.deleteFrom('variants').where('id', 'in', batch).execute();
    await trx.deleteFrom('product_translations').where('product_id', 'in', ids).execute();
    await trx.deleteFrom('product_options').where('product_id', 'in', ids).execute();
  }
  // SKUs are unique across the catalog: a SKU may move here from a product outside the
  // batch, which then changes too.
  const inBatch = new Set(productIds);
  const otherProductsTouched = new Set<string>();
  for (const skus of chunks(batchSkus)) {
    const rows = await trx.selectFrom('variants').select(['id', 'sku', 'product_id']).where('sku', 'in', skus).execute();
    for (const row of rows) {
      knownVariants.set(row.sku, row.id);
      if (!inBatch.has(row.product_id)) otherProductsTouched.add(row.product_id);
    }
  }
  for (const ids of chunks([...knownVariants.values()])) {
    await trx.deleteFrom('prices').where('variant_id', 'in', ids).execute();
  }

  const rows = buildContentRows(products, productIds, knownVariants);
  for (const batch of chunks(rows.translations, JSON_CHUNK)) await insertFromJson(trx, 'product_translations', batch).execute();
  for (const batch of chunks(rows.options, JSON_CHUNK)) await insertFromJson(trx, 'product_options', batch).execute();
  for (const batch of chunks(rows.variants, JSON_CHUNK)) {
    await insertFromJson(trx, 'variants', batch)
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
  for (const batch of chunks(rows.optionValues, JSON_CHUNK)) await insertFromJson(trx, 'variant_option_values', batch).execute();
  for (const batch of chunks(rows.prices, JSON_CHUNK)) await insertFromJson(trx, 'prices', batch).execute();

  report.variants.created += rows.variants.length - knownVariants.size;
  report.variants.updated += knownVariants.size;
  return { otherProductsTouched, rows };
}

type ContentRows = ReturnType<typeof buildContentRows>;

/**
 * The rows of a batch's products, in the order the served documents list them
 * (`servedDocumentsFromRows`). New rows get ordered ids (`newOrderedId`): each batch
 * appends to the indexes on ids instead of rewriting pages all over them, which kept an
 * import's rate falling as the store grew.
 */
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
      const id = newOrderedId('opt');
      options.push({ id, product_id: productId, name: option.name, position });
      return id;
    });
    product.variants.forEach((variant, position) => {
      const id = knownVariants.get(variant.sku) ?? newOrderedId('variant');
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

/**
 * An insert of `rows` (all with the same columns, at least one) that passes them as one
 * JSON text the database unpacks: SQLite's `json_each`, PostgreSQL's
 * `json_populate_recordset` (which also gives each value its column's type). Building
 * and preparing multi-row statements with a parameter per value took as long as running
 * them: a batch's thousands of prices, variants and option values cost a few statements.
 */
function insertFromJson<T extends 'product_translations' | 'product_options' | 'variants' | 'variant_option_values' | 'prices'>(
  trx: Trx,
  table: T,
  rows: Insertable<Database[T]>[],
) {
  const columns = Object.keys(rows[0]!) as (keyof Database[T] & string)[];
  const json = JSON.stringify(rows);
  const values =
    trx.getExecutor().adapter instanceof PostgresAdapter
      ? sql`select ${sql.join(columns.map((column) => sql.ref(column)))} from json_populate_recordset(null::${sql.table(table)}, ${json}::json)`
      : // `where true`: without a where clause SQLite would read an upsert's `on conflict` as a join constraint.
        sql`select ${sql.join(columns.map((column) => sql`value ->> ${column}`))} from json_each(${json}) where true`;
  return trx.insertInto(table).columns(columns).expression(values);
}

