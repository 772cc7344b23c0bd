import type { Kysely } from 'kysely';

/**
 * The sandbox's own tables. Nothing here refers to the catalog tables: the sandbox
 * reads prices from the in-memory catalog and never writes outside these three.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sandbox_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sandbox_keys_expires_idx').on('sandbox_keys').column('expires_at').execute();

  await db.schema
    .createTable('sandbox_carts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('key_id', 'text', (c) => c.notNull().references('sandbox_keys.id').onDelete('cascade'))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sandbox_carts_key_idx').on('sandbox_carts').column('key_id').execute();
  await db.schema.createIndex('sandbox_carts_expires_idx').on('sandbox_carts').column('expires_at').execute();

  // The primary key is what makes concurrent duplicates safe: only one INSERT can claim it.
  await db.schema
    .createTable('sandbox_idempotency')
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('claim_id', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('response_headers', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('sandbox_idempotency_pk', ['key_id', 'idempotency_key', 'method', 'path'])
    .execute();
  await db.schema.createIndex('sandbox_idempotency_expires_idx').on('sandbox_idempotency').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['sandbox_idempotency', 'sandbox_carts', 'sandbox_keys']) {
    await db.schema.dropTable(table).execute();
  }
}
