import { sql, type Kysely } from 'kysely';

/**
 * Webhook subscriptions of more than one kind (src/delivery/kinds.ts): `catalog`, the
 * admin API's subscriptions to catalog events (every one before this migration), and
 * `ucp_order`, a UCP platform's order webhook, made on its first order event. A
 * platform's webhook URL has one subscription: the partial unique index holds for every
 * kind but `catalog`, whose URLs operators may subscribe more than once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('webhook_subscriptions')
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('catalog'))
    .execute();
  await db.schema
    .createIndex('webhook_subscriptions_target_uq')
    .on('webhook_subscriptions')
    .columns(['kind', 'url'])
    .unique()
    .where(sql.ref('kind'), '<>', sql.lit('catalog'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('webhook_subscriptions_target_uq').execute();
  await db.schema.alterTable('webhook_subscriptions').dropColumn('kind').execute();
}
