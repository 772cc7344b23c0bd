import type { Kysely } from 'kysely';

/**
 * The sandbox's delegated payment tokens (src/sandbox/payment/delegated-payments.ts):
 * each belongs to a sandbox key, expires with it and is purged after it, and carries its
 * allowance (the most it may pay, in which currency, for which session, until when) and
 * the outcome its test card was issued with. No card number is stored.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sandbox_payment_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('key_id', 'text', (c) => c.notNull().references('sandbox_keys.id').onDelete('cascade'))
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('max_amount', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('checkout_id', 'text', (c) => c.notNull())
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('allowance_expires_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sandbox_payment_tokens_key_idx').on('sandbox_payment_tokens').column('key_id').execute();
  await db.schema.createIndex('sandbox_payment_tokens_expires_idx').on('sandbox_payment_tokens').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sandbox_payment_tokens').execute();
}
