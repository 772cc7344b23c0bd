import type { Kysely } from 'kysely';
import { chunks } from '../chunks.js';

/**
 * What the admin API's product list reads by index rather than by scanning every
 * product: each product's categories as rows (`product_categories`, kept beside the
 * JSON column the read models load, src/catalog/store/write/product-categories.ts), and
 * products by status, collection and time of change, each in handle order, the list's
 * page order. Products not served (drafts, weighted ones) are found by status and
 * `weighted`, so a text search of them reads only them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // The tables as they are at this migration: products' categories are a JSON column.
  const store = db as unknown as Kysely<{ products: { id: string; category_handles: string }; product_categories: { category_handle: string; product_id: string } }>;
  await db.schema
    .createTable('product_categories')
    .addColumn('category_handle', 'text', (c) => c.notNull())
    .addColumn('product_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('product_categories_pk', ['category_handle', 'product_id'])
    .execute();
  await db.schema.createIndex('product_categories_product_idx').on('product_categories').column('product_id').execute();
  for (let after = ''; ; ) {
    const page = await store
      .selectFrom('products')
      .select(['id', 'category_handles'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(PAGE)
      .execute();
    const rows = page.flatMap((product) => [...new Set(JSON.parse(product.category_handles) as string[])].map((category_handle) => ({ category_handle, product_id: product.id })));
    for (const batch of chunks(rows)) await store.insertInto('product_categories').values(batch).execute();
    if (page.length < PAGE) break;
    after = page.at(-1)!.id;
  }
  for (const [name, columns] of INDEXES) await db.schema.createIndex(name).on('products').columns([...columns]).execute();
}

/** Products read per statement. */
const PAGE = 1000;

const INDEXES = [
  ['products_status_idx', ['status', 'handle']],
  ['products_weighted_idx', ['weighted', 'handle']],
  ['products_collection_idx', ['collection_handle', 'handle']],
  ['products_updated_idx', ['updated_at']],
] as const;

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [name] of INDEXES) await db.schema.dropIndex(name).execute();
  await db.schema.dropTable('product_categories').execute();
}
