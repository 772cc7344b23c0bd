import { SqliteAdapter, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { Database } from '../../store/schema.js';

/**
 * The rows a write reads and then changes, locked on PostgreSQL until it commits. Every
 * writer locks variants in SKU order (and products before their variants, regions last
 * before the catalog version), so concurrent writers queue instead of deadlocking.
 * SQLite has no row locks and needs none: its transactions run one at a time.
 */
export function forUpdate<DB, TB extends keyof DB, O>(trx: Kysely<Database>, query: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O> {
  return isSqlite(trx) ? query : query.forUpdate();
}

/** Rows a write only relies on (a region's currency): others may read them, not change them, until it commits. */
export function forShare<DB, TB extends keyof DB, O>(trx: Kysely<Database>, query: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O> {
  return isSqlite(trx) ? query : query.forShare();
}

function isSqlite(db: Kysely<Database>): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}

/** Rows per statement: well under SQLite's and PostgreSQL's bound-parameter limits. */
export const CHUNK = 400;

export function* chunks<T>(items: readonly T[], size = CHUNK): Generator<T[]> {
  for (let start = 0; start < items.length; start += size) yield items.slice(start, start + size);
}
