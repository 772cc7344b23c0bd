import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { Db } from './database.js';
import * as catalog from './migrations/0001-catalog.js';

/** Migrations live in code so the same list runs from `src` (tsx) and from `dist`. */
const migrations: Record<string, Migration> = {
  '0001-catalog': catalog,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/**
 * Brings the schema up to date. On PostgreSQL Kysely holds an advisory lock for the
 * whole run, so instances starting together migrate once and the others wait.
 */
export async function migrateToLatest(db: Db): Promise<void> {
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? 'unknown error');
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${reason}`);
  }
}
