import type { Kysely } from 'kysely';

/**
 * What each catalog change did to each product it touched (a JSON array of
 * `ProductChangeDetail`, src/catalog/store/change-log.ts), computed by the write
 * protocol in the change's own transaction: the public change feed and the webhooks
 * read it. Changes logged before this migration have none (`[]`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('catalog_changes').addColumn('details', 'text', (c) => c.notNull().defaultTo('[]')).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('catalog_changes').dropColumn('details').execute();
}
