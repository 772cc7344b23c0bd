import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import { writeServedDocuments, type ServedDocument } from './served-document.js';

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
/** Pruning runs with one change in this many, so it costs the writers nothing measurable. */
const PRUNE_EVERY = 100;

/**
 * The first statement of every transaction that changes the catalog: it locks the
 * version row until commit, so catalog writers take turns. Writers that lock products,
 * variants and regions in different orders (a product replaced, stock set by SKU, an
 * import batch) then never deadlock, and each sees every change committed before it,
 * which the served documents it rewrites depend on. On SQLite, where one connection
 * writes at a time anyway, it makes the transaction a write transaction from the start.
 */
export async function lockCatalogForWriting(trx: Kysely<Database>): Promise<void> {
  await trx
    .insertInto('catalog_state')
    .values({ id: 1, version: 0, changed_at: new Date(0).toISOString() })
    .onConflict((conflict) => conflict.column('id').doUpdateSet((eb) => ({ version: eb.ref('catalog_state.version') })))
    .execute();
}

/**
 * Records a catalog change inside the transaction that makes it (which began with
 * `lockCatalogForWriting`), as the last thing that transaction does: it takes the next
 * sequence, rewrites the served documents of the products the change touched, and logs
 * the change. The sequence is the new catalog version: the version row is locked until
 * the transaction commits, so writers get consecutive sequences and commit in sequence
 * order, and an instance that has seen change N has seen every change before it.
 */
export async function recordCatalogChange(trx: Kysely<Database>, change: CatalogChange, now: Date): Promise<number> {
  const at = now.toISOString();
  const productIds = [...new Set(change.productIds)];
  const seq = await bumpCatalogVersion(trx, at);
  await writeServedDocuments(trx, productIds, change.servedDocuments);
  await trx
    .insertInto('catalog_changes')
    .values({ seq, product_ids: JSON.stringify(productIds), regions_changed: change.regions ? 1 : 0, changed_at: at })
    .execute();
  if (seq % PRUNE_EVERY === 0) {
    const cutoff = new Date(now.getTime() - CHANGE_LOG_RETENTION_MS).toISOString();
    await trx.deleteFrom('catalog_changes').where('changed_at', '<', cutoff).execute();
  }
  return seq;
}

async function bumpCatalogVersion(db: Kysely<Database>, now: string): Promise<number> {
  const row = await db
    .insertInto('catalog_state')
    .values({ id: 1, version: 1, changed_at: now })
    .onConflict((conflict) =>
      conflict.column('id').doUpdateSet((eb) => ({ version: eb('catalog_state.version', '+', 1), changed_at: now })),
    )
    .returning('version')
    .executeTakeFirstOrThrow();
  return Number(row.version);
}

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
