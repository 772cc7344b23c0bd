import type { Kysely } from 'kysely';

/**
 * The live catalog: a version on every product and variant (optimistic concurrency for
 * the admin API), each product's served document (catalog/store/served-document.ts), the
 * change log instances follow to update their read models product by product, and the
 * admin audit trail. Plus the indexes that reading and replacing
 * a few products at a time needs: without them each such read scanned every variant,
 * and each deleted option scanned every option value (its cascade), so re-importing
 * 10,000 products took six minutes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('products').addColumn('version', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  await db.schema.alterTable('variants').addColumn('version', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  // Filled at the first start after this migration, and by every change after that.
  await db.schema.alterTable('products').addColumn('served', 'text').execute();
  await db.schema
    .createTable('catalog_changes')
    .addColumn('seq', 'integer', (c) => c.primaryKey())
    .addColumn('product_ids', 'text', (c) => c.notNull())
    .addColumn('regions_changed', 'integer', (c) => c.notNull())
    .addColumn('changed_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('admin_audit')
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text', (c) => c.notNull())
    .addColumn('version_before', 'integer')
    .addColumn('version_after', 'integer')
    .addColumn('changes', 'text', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('admin_audit_pk', ['seq', 'position'])
    .execute();
  for (const [name, table, column] of INDEXES) await db.schema.createIndex(name).on(table).column(column).execute();
  // The audit trail's filters, each newest first.
  await db.schema.createIndex('admin_audit_target_idx').on('admin_audit').columns(['target_type', 'target_id', 'seq']).execute();
  await db.schema.createIndex('admin_audit_actor_idx').on('admin_audit').columns(['actor', 'seq']).execute();
}

const INDEXES = [
  ['variants_product_idx', 'variants', 'product_id'],
  ['product_options_product_idx', 'product_options', 'product_id'],
  ['variant_option_values_option_idx', 'variant_option_values', 'option_id'],
  ['prices_region_idx', 'prices', 'region_id'],
  ['region_countries_region_idx', 'region_countries', 'region_id'],
  // Pruning deletes the changes older than the log's retention.
  ['catalog_changes_changed_at_idx', 'catalog_changes', 'changed_at'],
] as const;

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [name] of INDEXES) await db.schema.dropIndex(name).execute();
  await db.schema.dropIndex('admin_audit_actor_idx').execute();
  await db.schema.dropIndex('admin_audit_target_idx').execute();
  await db.schema.dropTable('admin_audit').execute();
  await db.schema.dropTable('catalog_changes').execute();
  await db.schema.alterTable('variants').dropColumn('version').execute();
  await db.schema.alterTable('products').dropColumn('served').execute();
  await db.schema.alterTable('products').dropColumn('version').execute();
}
