import type { Kysely } from 'kysely';

/**
 * The live catalog: a version on every product and variant (optimistic concurrency for
 * the admin API), the change log instances follow to update their read models product
 * by product, and the admin audit trail.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('products').addColumn('version', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  await db.schema.alterTable('variants').addColumn('version', 'integer', (c) => c.notNull().defaultTo(1)).execute();
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
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('admin_audit').execute();
  await db.schema.dropTable('catalog_changes').execute();
  await db.schema.alterTable('variants').dropColumn('version').execute();
  await db.schema.alterTable('products').dropColumn('version').execute();
}
