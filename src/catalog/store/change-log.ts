import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.js';
import type { ServedDocument } from './served-document.js';

/** What one committed catalog change touched. */
export interface CatalogChange {
  /** Products whose rows (or variants, prices, texts) changed, including removed ones. */
  productIds: Iterable<string>;
  /** Regions or their countries changed. */
  regions: boolean;
  /**
   * Served documents of some of these products, built by the writer from the rows it
   * wrote in this transaction (`servedDocumentsFromRows`); the others are rebuilt from
   * the store.
   */
  servedDocuments?: ReadonlyMap<string, ServedDocument>;
}

export interface LoggedChange {
  seq: number;
  productIds: string[];
  regions: boolean;
}

/**
 * How long the change log keeps a change. An instance further behind than this (down,
 * or cut off from the store) cannot catch up change by change and rebuilds its read
 * model instead.
 */
export const CHANGE_LOG_RETENTION_MS = 60 * 60 * 1000;

/** The version of the newest committed change; 0 for a store that never had a catalog. */
export async function readCatalogVersion(db: Kysely<Database>): Promise<number> {
  const row = await db.selectFrom('catalog_state').select('version').where('id', '=', 1).executeTakeFirst();
  return row ? Number(row.version) : 0;
}

/**
 * The changes after `seq`, oldest first, at most `limit` of them; undefined when the log
 * no longer holds the one right after `seq` (pruned), so the caller must rebuild.
 */
export async function changesAfter(db: Kysely<Database>, seq: number, limit: number): Promise<LoggedChange[] | undefined> {
  const rows = await db
    .selectFrom('catalog_changes')
    .select(['seq', 'product_ids', 'regions_changed'])
    .where('seq', '>', seq)
    .orderBy('seq')
    .limit(limit)
    .execute();
  if (rows.length > 0 && Number(rows[0]!.seq) !== seq + 1) return undefined;
  return rows.map((row) => ({
    seq: Number(row.seq),
    productIds: JSON.parse(row.product_ids) as string[],
    regions: row.regions_changed === 1,
  }));
}
