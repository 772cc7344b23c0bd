import type { LockedCatalog } from '../locked-catalog.js';
import type { Insertable } from 'kysely';
import { newId } from '../../../lib/new-id.js';
import { chunks } from '../../../store/chunks.js';
import type { Database } from '../../../store/schema.js';
import type { CatalogFileProduct } from '../../file/catalog-file-schema.js';
import { validateCatalogFile } from '../../file/validate-catalog-file.js';
import { DEFAULT_LOCALE, type Locale } from '../../model/locales.js';
import { rememberBeforeRemoval } from '../change-details.js';
import { taxonomyColumns, type ProductTaxonomy } from '../served-document.js';
import { fileUnderCategories } from './product-categories.js';
import { storedRegions } from './regions.js';
import { applyStock, bumpVariantVersions } from './variants.js';
import { CatalogWriteError, checkVersion, type VersionCondition } from './write-errors.js';

type Trx = LockedCatalog;

/** What a product write changed; the versions are the product's own (null: it did not exist, or no longer does). */
export interface ProductChange {
  productId: string;
  created: boolean;
  versionBefore: number | null;
  versionAfter: number | null;
}

interface ProductText {
  title: string;
  description?: string | null;
}

export interface ProductPatch extends ProductTaxonomy {
  status?: 'draft' | 'published';
  /** Per locale: the new text, or null to remove the locale's text (never the default locale's). */
  translations?: Partial<Record<Locale, ProductText | null>>;
  thumbnail?: string | null;
}

interface StoredProductRow {
  id: string;
  version: number;
  created_at: string;
}

async function findProduct(trx: Trx, handle: string): Promise<StoredProductRow | undefined> {
  const row = await trx.selectFrom('products').select(['id', 'version', 'created_at']).where('handle', '=', handle).executeTakeFirst();
  return row && { ...row, version: Number(row.version) };
}

async function existingProduct(trx: Trx, handle: string, condition: VersionCondition | undefined): Promise<StoredProductRow> {
  const product = await findProduct(trx, handle);
  if (!product) throw new CatalogWriteError(`No product has the handle ${handle}.`, { kind: 'not_found' });
  checkVersion(`Product ${handle}`, product.version, condition);
  return product;
}

/**
 * Creates or replaces the product `handle` with `product` (the catalog file's shape), as
 * the import does for one product: its texts, options, variants and prices become
 * exactly those given; variants are matched by SKU and keep their ids, and variants it
 * no longer lists are removed. Unlike the import, a SKU of another product is refused
 * rather than moved: one product's write never changes another.
 */
export async function putProduct(
  trx: Trx,
  handle: string,
  product: Omit<CatalogFileProduct, 'handle'>,
  condition: VersionCondition | undefined,
  now: Date,
): Promise<ProductChange> {
  const existing = await findProduct(trx, handle);
  checkVersion(`Product ${handle}`, existing?.version, condition);
  await checkReferences(trx, { ...product, handle });

  const productId = existing?.id ?? newId('prod');
  const skus = product.variants.map((variant) => variant.sku);
  // This product's variants and every SKU it names.
  const variants = await trx
    .selectFrom('variants')
    .innerJoin('products', 'products.id', 'variants.product_id')
    .select(['variants.id', 'variants.sku', 'variants.product_id', 'products.handle'])
    .where((eb) => eb.or([eb('variants.product_id', '=', productId), eb('variants.sku', 'in', skus)]))
    .orderBy('variants.sku')
    .execute();
  const taken = variants.filter((row) => row.product_id !== productId);
  if (taken.length > 0) {
    throw new CatalogWriteError(
      `${taken.map((row) => `SKU ${row.sku} belongs to product ${row.handle}`).join('; ')}. Remove it there first, or use another SKU.`,
      { kind: 'conflict' },
    );
  }

  const at = now.toISOString();
  const fields = {
    status: product.status,
    weighted: product.weighted ? 1 : 0,
    thumbnail: product.thumbnail ?? null,
    ...taxonomyColumns(product),
    updated_at: at,
  };
  const createdAt = product.created_at ? new Date(product.created_at).toISOString() : (existing?.created_at ?? at);
  if (existing) {
    await trx
      .updateTable('products')
      .set((eb) => ({ ...fields, created_at: createdAt, version: eb('version', '+', 1) }))
      .where('id', '=', productId)
      .execute();
  } else {
    await trx.insertInto('products').values({ id: productId, handle, ...fields, created_at: createdAt }).execute();
  }
  await fileUnderCategories(trx, [{ id: productId, categories: product.categories ?? [] }]);

  const kept = new Map(variants.map((row) => [row.sku, row.id]));
  const removed = variants.filter((row) => !skus.includes(row.sku)).map((row) => row.id);
  if (removed.length > 0) await trx.deleteFrom('variants').where('id', 'in', removed).execute();
  await trx.deleteFrom('product_translations').where('product_id', '=', productId).execute();
  // Removing the options removes the variants' option values with them.
  await trx.deleteFrom('product_options').where('product_id', '=', productId).execute();
  const keptIds = skus.flatMap((sku) => kept.get(sku) ?? []);
  if (keptIds.length > 0) await trx.deleteFrom('prices').where('variant_id', 'in', keptIds).execute();

  const translations = Object.entries(product.translations).flatMap(([locale, text]) =>
    text ? [{ product_id: productId, locale, title: text.title, description: text.description ?? null }] : [],
  );
  await trx.insertInto('product_translations').values(translations).execute();
  const optionIds = product.options.map(() => newId('opt'));
  if (optionIds.length > 0) {
    await trx
      .insertInto('product_options')
      .values(product.options.map((option, position) => ({ id: optionIds[position]!, product_id: productId, name: option.name, position })))
      .execute();
  }

  const variantIds = product.variants.map((variant) => kept.get(variant.sku) ?? newId('variant'));
  const rows = product.variants.map((variant, position) => ({
    variantId: variantIds[position]!,
    position,
    manage_inventory: variant.manage_inventory,
    inventory_quantity: variant.inventory_quantity,
    allow_backorder: variant.allow_backorder,
  }));
  const keptRows = rows.filter((row) => keptIds.includes(row.variantId));
  await applyStock(trx, keptRows);
  await bumpVariantVersions(trx, keptIds);
  const newRows = rows.filter((row) => !keptIds.includes(row.variantId));
  for (const batch of chunks(newRows)) {
    await trx
      .insertInto('variants')
      .values(
        batch.map((row) => ({
          id: row.variantId,
          product_id: productId,
          sku: product.variants[row.position]!.sku,
          position: row.position,
          manage_inventory: row.manage_inventory ? 1 : 0,
          inventory_quantity: row.inventory_quantity,
          allow_backorder: row.allow_backorder ? 1 : 0,
        })),
      )
      .execute();
  }
  const optionValues: Insertable<Database['variant_option_values']>[] = product.variants.flatMap((variant, v) =>
    variant.options.map((value, i) => ({ variant_id: variantIds[v]!, option_id: optionIds[i]!, value })),
  );
  const prices: Insertable<Database['prices']>[] = product.variants.flatMap((variant, v) =>
    variant.prices.map((price) => ({ variant_id: variantIds[v]!, currency: price.currency, region_id: price.region ?? null, amount: price.amount })),
  );
  // A product's prices (up to 100 variants × MAX_VARIANT_PRICES) take more bound
  // parameters than one statement may have.
  for (const rows of chunks(optionValues)) await trx.insertInto('variant_option_values').values(rows).execute();
  for (const rows of chunks(prices)) await trx.insertInto('prices').values(rows).execute();

  return { productId, created: !existing, versionBefore: existing?.version ?? null, versionAfter: existing ? existing.version + 1 : 1 };
}

/** The import's rules between values (option combinations, duplicate SKUs and prices, region references), for one product. */
async function checkReferences(trx: Trx, product: CatalogFileProduct): Promise<void> {
  // The categories and collection are checked against the store's taxonomy below, not against a file's.
  const { categories, collection, ...rest } = product;
  const check = validateCatalogFile({ version: 1, regions: await storedRegions(trx), products: [rest] });
  const problems = [
    ...(check.ok ? [] : check.problems.map((problem) => ({ ...problem, path: problem.path.replace(/^\$\.products\[0\]/, '$') }))),
    ...(await taxonomyProblems(trx, { categories, collection })),
  ];
  if (problems.length > 0) throw invalidProduct(problems);
}

/** The categories and collection a product names that the store does not hold. */
async function taxonomyProblems(trx: Trx, { categories, collection }: ProductTaxonomy): Promise<{ path: string; message: string }[]> {
  const problems: { path: string; message: string }[] = [];
  if (categories?.length) {
    const known = new Set((await trx.selectFrom('categories').select('handle').where('handle', 'in', categories).execute()).map((row) => row.handle));
    categories.forEach((handle, c) => {
      if (!known.has(handle)) problems.push({ path: `$.categories[${c}]`, message: `unknown category "${handle}" (import it in a catalog file's categories first)` });
    });
  }
  if (collection && !(await trx.selectFrom('collections').select('handle').where('handle', '=', collection).executeTakeFirst())) {
    problems.push({ path: '$.collection', message: `unknown collection "${collection}" (import it in a catalog file's collections first)` });
  }
  return problems;
}

function invalidProduct(problems: { path: string; message: string }[]): CatalogWriteError {
  return new CatalogWriteError(`The product is invalid: ${problems.map((problem) => `${problem.path} ${problem.message}`).join('; ')}.`, {
    kind: 'invalid',
    problems,
  });
}

/** Changes a product's status, texts, thumbnail or taxonomy (each given field whole); its variants are left as they are. */
export async function patchProduct(trx: Trx, handle: string, patch: ProductPatch, condition: VersionCondition | undefined, now: Date): Promise<ProductChange> {
  const product = await existingProduct(trx, handle, condition);
  const texts = Object.entries(patch.translations ?? {}) as [Locale, ProductText | null][];
  if (texts.some(([locale, text]) => locale === DEFAULT_LOCALE && text === null)) {
    const problem = { path: `$.translations.${DEFAULT_LOCALE}`, message: `the ${DEFAULT_LOCALE} text is required: every other locale falls back to it` };
    throw new CatalogWriteError(`The ${DEFAULT_LOCALE} text cannot be removed.`, { kind: 'invalid', problems: [problem] });
  }
  const problems = await taxonomyProblems(trx, patch);
  if (problems.length > 0) throw invalidProduct(problems);
  const taxonomy = taxonomyColumns(patch);
  await trx
    .updateTable('products')
    .set((eb) => ({
      ...(patch.status !== undefined && { status: patch.status }),
      ...(patch.thumbnail !== undefined && { thumbnail: patch.thumbnail }),
      ...(patch.categories !== undefined && { category_handles: taxonomy.category_handles }),
      ...(patch.collection !== undefined && { collection_handle: taxonomy.collection_handle }),
      ...(patch.tags !== undefined && { tags: taxonomy.tags }),
      ...(patch.images !== undefined && { images: taxonomy.images }),
      updated_at: now.toISOString(),
      version: eb('version', '+', 1),
    }))
    .where('id', '=', product.id)
    .execute();
  if (patch.categories !== undefined) await fileUnderCategories(trx, [{ id: product.id, categories: patch.categories }]);
  if (texts.length > 0) {
    await trx.deleteFrom('product_translations').where('product_id', '=', product.id).where('locale', 'in', texts.map(([locale]) => locale)).execute();
    const rows = texts.flatMap(([locale, text]) => (text ? [{ product_id: product.id, locale, title: text.title, description: text.description ?? null }] : []));
    if (rows.length > 0) await trx.insertInto('product_translations').values(rows).execute();
  }
  return { productId: product.id, created: false, versionBefore: product.version, versionAfter: product.version + 1 };
}

/** Deletes a product with its variants and prices. */
export async function deleteProduct(trx: Trx, handle: string, condition: VersionCondition | undefined): Promise<ProductChange> {
  const product = await existingProduct(trx, handle, condition);
  await rememberBeforeRemoval(trx, [product.id]);
  await fileUnderCategories(trx, [{ id: product.id, categories: [] }]);
  await trx.deleteFrom('products').where('id', '=', product.id).execute();
  return { productId: product.id, created: false, versionBefore: product.version, versionAfter: null };
}
