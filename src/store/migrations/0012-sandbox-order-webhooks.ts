import { sql, type Kysely } from 'kysely';

/**
 * The order webhook a sandbox key registers (ACP's order events, src/acp/order-events/):
 * one per key, expiring with it and purged after it, pointing at the webhook
 * subscription of kind `acp_order` its events are delivered through, which holds the
 * URL and the signing secret. Deleting the subscription (the admin API, the purge)
 * deletes the registration. Two keys may register one URL, each with its own secret,
 * so `acp_order` subscriptions leave the one-subscription-per-URL index of migration
 * 0009, as `catalog` ones do.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sandbox_order_webhooks')
    .addColumn('key_id', 'text', (c) => c.primaryKey().references('sandbox_keys.id').onDelete('cascade'))
    .addColumn('subscription_id', 'text', (c) => c.notNull().unique().references('webhook_subscriptions.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sandbox_order_webhooks_expires_idx').on('sandbox_order_webhooks').column('expires_at').execute();
  await db.schema.dropIndex('webhook_subscriptions_target_uq').execute();
  await targetIndex(db, ['catalog', 'acp_order']);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sandbox_order_webhooks').execute();
  await db.schema.dropIndex('webhook_subscriptions_target_uq').execute();
  await targetIndex(db, ['catalog']);
}

/** One subscription per URL for every kind but `exempt`. */
function targetIndex(db: Kysely<unknown>, exempt: string[]) {
  return db.schema
    .createIndex('webhook_subscriptions_target_uq')
    .on('webhook_subscriptions')
    .columns(['kind', 'url'])
    .unique()
    .where(sql<boolean>`${sql.ref('kind')} not in (${sql.join(exempt.map((kind) => sql.lit(kind)))})`)
    .execute();
}
