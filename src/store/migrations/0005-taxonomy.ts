import type { Kysely } from 'kysely';

/**
 * The catalog's taxonomy: the category tree and the collections, each with a title per
 * locale (a JSON object, as the served documents hold them), and on each product the
 * handles of its categories and collection, its tags and its images. Products refer to
 * categories and collections by handle, as the catalog file does: the read model
 * resolves them, and nothing is joined to serve them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('categories')
    .addColumn('handle', 'text', (c) => c.primaryKey())
    .addColumn('parent_handle', 'text')
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('titles', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('collections')
    .addColumn('handle', 'text', (c) => c.primaryKey())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('titles', 'text', (c) => c.notNull())
    .execute();
  for (const column of LIST_COLUMNS) {
    await db.schema.alterTable('products').addColumn(column, 'text', (c) => c.notNull().defaultTo('[]')).execute();
  }
  await db.schema.alterTable('products').addColumn('collection_handle', 'text').execute();
}

/** JSON arrays on each product, empty by default. */
const LIST_COLUMNS = ['category_handles', 'tags', 'images'] as const;

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('products').dropColumn('collection_handle').execute();
  for (const column of LIST_COLUMNS) await db.schema.alterTable('products').dropColumn(column).execute();
  await db.schema.dropTable('collections').execute();
  await db.schema.dropTable('categories').execute();
}
