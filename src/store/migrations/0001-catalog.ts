import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('regions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('region_countries')
    .addColumn('country', 'text', (c) => c.primaryKey())
    .addColumn('region_id', 'text', (c) => c.notNull().references('regions.id').onDelete('cascade'))
    .execute();
  await db.schema
    .createTable('products')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('handle', 'text', (c) => c.notNull().unique())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('weighted', 'integer', (c) => c.notNull())
    .addColumn('thumbnail', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('product_translations')
    .addColumn('product_id', 'text', (c) => c.notNull().references('products.id').onDelete('cascade'))
    .addColumn('locale', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addPrimaryKeyConstraint('product_translations_pk', ['product_id', 'locale'])
    .execute();
  await db.schema
    .createTable('product_options')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('product_id', 'text', (c) => c.notNull().references('products.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('variants')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('product_id', 'text', (c) => c.notNull().references('products.id').onDelete('cascade'))
    .addColumn('sku', 'text', (c) => c.notNull().unique())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('manage_inventory', 'integer', (c) => c.notNull())
    .addColumn('inventory_quantity', 'integer', (c) => c.notNull())
    .addColumn('allow_backorder', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('variant_option_values')
    .addColumn('variant_id', 'text', (c) => c.notNull().references('variants.id').onDelete('cascade'))
    .addColumn('option_id', 'text', (c) => c.notNull().references('product_options.id').onDelete('cascade'))
    .addColumn('value', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('variant_option_values_pk', ['variant_id', 'option_id'])
    .execute();
  await db.schema
    .createTable('prices')
    .addColumn('variant_id', 'text', (c) => c.notNull().references('variants.id').onDelete('cascade'))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('region_id', 'text', (c) => c.references('regions.id').onDelete('cascade'))
    .addColumn('amount', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('prices_variant_idx').on('prices').column('variant_id').execute();
  await db.schema
    .createTable('catalog_state')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('changed_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'catalog_state',
    'prices',
    'variant_option_values',
    'variants',
    'product_options',
    'product_translations',
    'products',
    'region_countries',
    'regions',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
