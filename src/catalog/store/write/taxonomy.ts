import type { Kysely } from 'kysely';
import type { Database } from '../../../store/schema.js';
import type { CatalogFileCategory, CatalogFileCollection } from '../../file/catalog-file-schema.js';
import { MAX_CATEGORY_DEPTH, misplacement, type Titles } from '../../model/taxonomy.js';
import type { LockedCatalog } from '../locked-catalog.js';
import { CatalogWriteError, type WriteProblem } from './write-errors.js';

export type StoredCategory = Required<Pick<CatalogFileCategory, 'handle' | 'titles'>> & { parent: string | null };

/** The stored categories in their order (the order the catalog serves siblings in). */
export async function storedCategories(db: Kysely<Database>): Promise<StoredCategory[]> {
  const rows = await db.selectFrom('categories').selectAll().orderBy('position').orderBy('handle').execute();
  return rows.map((row) => ({ handle: row.handle, parent: row.parent_handle, titles: JSON.parse(row.titles) as StoredCategory['titles'] }));
}

export async function storedCollections(db: Kysely<Database>): Promise<CatalogFileCollection[]> {
  const rows = await db.selectFrom('collections').selectAll().orderBy('position').orderBy('handle').execute();
  return rows.map((row) => ({ handle: row.handle, titles: JSON.parse(row.titles) as CatalogFileCollection['titles'] }));
}

/**
 * Creates or replaces a category (its titles and parent), with the tree rules an import
 * enforces: the parent exists, no cycle, at most MAX_CATEGORY_DEPTH levels, the stored
 * categories below it included. A new one comes after the others.
 */
export async function putCategory(trx: LockedCatalog, category: StoredCategory): Promise<{ created: boolean }> {
  if (category.parent !== null) {
    const parent = await trx.selectFrom('categories').select('handle').where('handle', '=', category.parent).executeTakeFirst();
    if (!parent) throw invalid('body.parent', `unknown parent category "${category.parent}"`);
  }
  await checkCategoryTree(trx, [category], ONE_CATEGORY);
  const titles = JSON.stringify(category.titles);
  const updated = await trx.updateTable('categories').set({ parent_handle: category.parent, titles }).where('handle', '=', category.handle).executeTakeFirst();
  if (Number(updated.numUpdatedRows) > 0) return { created: false };
  await trx.insertInto('categories').values({ handle: category.handle, parent_handle: category.parent, titles, position: await nextPosition(trx, 'categories') }).execute();
  return { created: true };
}

export async function putCollection(trx: LockedCatalog, collection: { handle: string; titles: Titles }): Promise<{ created: boolean }> {
  const titles = JSON.stringify(collection.titles);
  const updated = await trx.updateTable('collections').set({ titles }).where('handle', '=', collection.handle).executeTakeFirst();
  if (Number(updated.numUpdatedRows) > 0) return { created: false };
  await trx.insertInto('collections').values({ handle: collection.handle, titles, position: await nextPosition(trx, 'collections') }).execute();
  return { created: true };
}

/**
 * Deletes a category no product is filed in and no category is below: products would
 * name a category the catalog no longer has, and its children would move to the top.
 */
export async function deleteCategory(trx: LockedCatalog, handle: string): Promise<void> {
  await existing(trx, 'categories', handle, 'category');
  const child = await trx.selectFrom('categories').select('handle').where('parent_handle', '=', handle).orderBy('handle').limit(1).executeTakeFirst();
  if (child) throw inUse(`Category ${handle} has categories below it ("${child.handle}"); re-parent or delete them first.`);
  const filed = await trx.selectFrom('product_categories').select('product_id').where('category_handle', '=', handle).limit(1).executeTakeFirst();
  if (filed) throw inUse(`Products are filed in category ${handle}; take them out of it first (GET /admin/v1/products?category=${handle} lists them).`);
  await trx.deleteFrom('categories').where('handle', '=', handle).execute();
}

/** Deletes a collection no product is in. */
export async function deleteCollection(trx: LockedCatalog, handle: string): Promise<void> {
  await existing(trx, 'collections', handle, 'collection');
  const member = await trx.selectFrom('products').select('id').where('collection_handle', '=', handle).limit(1).executeTakeFirst();
  if (member) throw inUse(`Products are in collection ${handle}; take them out of it first (GET /admin/v1/products?collection=${handle} lists them).`);
  await trx.deleteFrom('collections').where('handle', '=', handle).execute();
}

async function existing(trx: LockedCatalog, table: 'categories' | 'collections', handle: string, noun: string): Promise<void> {
  const row = await trx.selectFrom(table).select('handle').where('handle', '=', handle).executeTakeFirst();
  if (!row) throw new CatalogWriteError(`No ${noun} has the handle ${handle}.`, { kind: 'not_found' });
}

async function nextPosition(trx: LockedCatalog, table: 'categories' | 'collections'): Promise<number> {
  const row = await trx.selectFrom(table).select((eb) => eb.fn.max('position').as('last')).executeTakeFirst();
  return row?.last === null || row?.last === undefined ? 0 : Number(row.last) + 1;
}

/** Tree problems of one category the admin API writes name its body's parent. */
const ONE_CATEGORY: CategorySource = { path: () => 'body.parent', name: 'the request', subject: 'The category does not fit' };

const invalid = (path: string, message: string) => new CatalogWriteError(`The category is invalid: ${path} ${message}.`, { kind: 'invalid', problems: [{ path, message }] });
const inUse = (message: string) => new CatalogWriteError(message, { kind: 'conflict' });

/** Where categories being written come from, for the problems: a file's list, or one category of a request. */
export interface CategorySource {
  path(index: number): string;
  /** `the file`: "category x (in the file)". */
  name: string;
  /** Begins the message: "The file's categories do not fit" (the stored category tree). */
  subject: string;
}

/**
 * Refuses categories being written (a file's, or one of the admin API) when, over the
 * stored tree (the written categories
 * replacing the stored ones of their handles), a category would be in a cycle or deeper
 * than the limit: a file is checked on its own, and re-parenting a stored category can
 * push the stored categories below it down. Each problem is reported at the written
 * category nearest above the misplaced one.
 */
export async function checkCategoryTree(trx: LockedCatalog, categories: readonly Pick<CatalogFileCategory, 'handle' | 'parent'>[], source: CategorySource): Promise<void> {
  if (categories.length === 0) return;
  const stored = await trx.selectFrom('categories').select(['handle', 'parent_handle']).orderBy('handle').execute();
  const parentOf = new Map(stored.map((row) => [row.handle, row.parent_handle]));
  const indexOf = new Map<string, number>();
  categories.forEach((category, c) => {
    parentOf.set(category.handle, category.parent ?? null);
    indexOf.set(category.handle, c);
  });
  const problems = new Map<number, WriteProblem>();
  for (const handle of parentOf.keys()) {
    const misplaced = misplacement(handle, parentOf);
    // None of the written categories above: a stored tree written before the limit held across imports.
    const below = misplaced?.chain.find((above) => indexOf.has(above));
    if (!misplaced || below === undefined) continue;
    const c = indexOf.get(below)!;
    const where = `category "${handle}" (${below === handle ? `in ${source.name}` : `stored, below "${below}"`})`;
    const message =
      misplaced.kind === 'cycle'
        ? `${where} would be in a cycle of parents (through "${misplaced.through}")`
        : `${where} would be more than ${MAX_CATEGORY_DEPTH} levels below the top`;
    if (!problems.has(c)) problems.set(c, { path: source.path(c), message });
  }
  if (problems.size === 0) return;
  const listed = [...problems.values()];
  throw new CatalogWriteError(`${source.subject} the stored category tree: ${listed.map((problem) => `${problem.path} ${problem.message}`).join('; ')}.`, {
    kind: 'invalid',
    problems: listed,
  });
}
