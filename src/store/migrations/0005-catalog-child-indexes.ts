import type { Kysely } from 'kysely';

/**
 * Indexes on the product-side foreign keys. Replacing a product's contents deletes its
 * variants and options by `product_id`, and every deleted option makes the store look for
 * its `variant_option_values` by `option_id` (the cascade). Without these indexes each
 * of those is a scan of the whole table: a re-import, or an import in batches into a
 * filled store, slowed down with the square of the catalog's size.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('variants_product_idx').on('variants').column('product_id').execute();
  await db.schema.createIndex('product_options_product_idx').on('product_options').column('product_id').execute();
  await db.schema.createIndex('variant_option_values_option_idx').on('variant_option_values').column('option_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('variant_option_values_option_idx').execute();
  await db.schema.dropIndex('product_options_product_idx').execute();
  await db.schema.dropIndex('variants_product_idx').execute();
}
