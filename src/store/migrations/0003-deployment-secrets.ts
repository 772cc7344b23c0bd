import type { Kysely } from 'kysely';

/**
 * Secrets of the deployment as a whole (not of one instance), made on first start and
 * read by every instance from here, so what one instance signs the others accept.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('deployment_secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('deployment_secrets').execute();
}
