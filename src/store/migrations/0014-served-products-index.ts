import type { Kysely } from 'kysely';

/**
 * The served products (published, not weighted) in id order, as a full build of the read
 * model pages through them (src/catalog/read-model/load-products.ts). Without it SQLite's
 * planner, having no statistics, took `products_weighted_idx` (migration 0011) for the
 * filter and sorted every served product again for each page of 1,000: a start at
 * 100,000 products spent 36 of its 42 s loading in those sorts, and the work grew with the
 * square of the catalog. It also counts the served products from the index alone.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('products_served_idx').on('products').columns(['status', 'weighted', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('products_served_idx').execute();
}
