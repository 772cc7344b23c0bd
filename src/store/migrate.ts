import { Migrator, PostgresAdapter, sql, type Migration, type MigrationProvider } from 'kysely';
import type { Db } from './database.js';
import * as catalog from './migrations/0001-catalog.js';
import * as sandbox from './migrations/0002-sandbox.js';
import * as deploymentSecrets from './migrations/0003-deployment-secrets.js';
import * as liveCatalog from './migrations/0004-live-catalog.js';
import * as taxonomy from './migrations/0005-taxonomy.js';
import * as changeDetails from './migrations/0006-change-details.js';
import * as webhooks from './migrations/0007-webhooks.js';
import * as sandboxCheckouts from './migrations/0008-sandbox-checkouts.js';
import * as webhookKinds from './migrations/0009-webhook-kinds.js';
import * as sandboxPaymentTokens from './migrations/0010-sandbox-payment-tokens.js';
import * as adminProductList from './migrations/0011-admin-product-list.js';
import * as sandboxOrderWebhooks from './migrations/0012-sandbox-order-webhooks.js';
import * as importJobs from './migrations/0013-import-jobs.js';
import * as servedProductsIndex from './migrations/0014-served-products-index.js';

/** Migrations live in code so the same list runs from `src` (tsx) and from `dist`. */
const migrations: Record<string, Migration> = {
  '0001-catalog': catalog,
  '0002-sandbox': sandbox,
  '0003-deployment-secrets': deploymentSecrets,
  '0004-live-catalog': liveCatalog,
  '0005-taxonomy': taxonomy,
  '0006-change-details': changeDetails,
  '0007-webhooks': webhooks,
  '0008-sandbox-checkouts': sandboxCheckouts,
  '0009-webhook-kinds': webhookKinds,
  '0010-sandbox-payment-tokens': sandboxPaymentTokens,
  '0011-admin-product-list': adminProductList,
  '0012-sandbox-order-webhooks': sandboxOrderWebhooks,
  '0013-import-jobs': importJobs,
  '0014-served-products-index': servedProductsIndex,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/**
 * Brings the schema up to date. On PostgreSQL Kysely holds an advisory lock for the
 * whole run, so instances starting together migrate once and the others wait.
 */
export async function migrateToLatest(db: Db): Promise<void> {
  const migrationTableSchema = await postgresSchemaOf(db);
  const { error, results } = await new Migrator({ db, provider, migrationTableSchema }).migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? 'unknown error');
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${reason}`);
  }
}

/**
 * Kysely looks for its migration tables in every schema unless told which one, so a
 * database holding another Vetrina schema (another deployment, or a parallel test)
 * would make it skip creating its own and fail. The schema `search_path` selects is ours.
 */
async function postgresSchemaOf(db: Db): Promise<string | undefined> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return undefined;
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return rows[0]?.schema;
}
