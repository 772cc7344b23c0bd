import type { Kysely } from 'kysely';

/**
 * Catalog imports over the admin API run as jobs (src/admin/import-jobs.ts): a row per
 * job that every instance reads, the instance running it writes its progress and
 * heartbeat to, and cancels by. `active` is 1 while a job is queued, running or
 * cancelling and null once it has ended: its unique index admits one active job per
 * store across instances (nulls are distinct on SQLite and PostgreSQL alike).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('import_jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('phase', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.unique())
    .addColumn('unpublish_missing', 'integer', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('progress', 'text', (c) => c.notNull())
    .addColumn('report', 'text')
    .addColumn('version_before', 'integer', (c) => c.notNull())
    .addColumn('version_after', 'integer')
    .addColumn('error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text')
    .addColumn('finished_at', 'text')
    .addColumn('heartbeat_at', 'text', (c) => c.notNull())
    .execute();
  // The list pages newest first.
  await db.schema.createIndex('import_jobs_created_idx').on('import_jobs').columns(['created_at', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('import_jobs').execute();
}
