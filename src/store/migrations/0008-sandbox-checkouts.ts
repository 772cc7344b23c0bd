import type { Kysely } from 'kysely';

/**
 * The sandbox's checkout sessions and the simulated orders their completion creates
 * (src/sandbox/checkout). Both belong to a sandbox key, expire with it and are purged
 * after it; like the carts they refer to no catalog table, and an order keeps the
 * prices it was bought at in its own snapshot.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sandbox_checkouts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('key_id', 'text', (c) => c.notNull().references('sandbox_keys.id').onDelete('cascade'))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('revision', 'integer', (c) => c.notNull())
    // Set while a session made from a cart is open: the unique key keeps one open session per cart.
    .addColumn('active_cart_id', 'text', (c) => c.unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sandbox_checkouts_key_idx').on('sandbox_checkouts').column('key_id').execute();
  await db.schema.createIndex('sandbox_checkouts_expires_idx').on('sandbox_checkouts').column('expires_at').execute();

  // The unique checkout id is what makes a session's completion create one order, however many race.
  await db.schema
    .createTable('sandbox_orders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('key_id', 'text', (c) => c.notNull().references('sandbox_keys.id').onDelete('cascade'))
    .addColumn('checkout_id', 'text', (c) => c.notNull().unique().references('sandbox_checkouts.id').onDelete('cascade'))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('snapshot', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sandbox_orders_key_idx').on('sandbox_orders').column('key_id').execute();
  await db.schema.createIndex('sandbox_orders_expires_idx').on('sandbox_orders').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['sandbox_orders', 'sandbox_checkouts']) {
    await db.schema.dropTable(table).execute();
  }
}
