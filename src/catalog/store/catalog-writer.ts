import type { Transaction } from 'kysely';
import { changeLogFloor } from '../../store/change-log-readers.js';
import { chunks } from '../../store/chunks.js';
import type { Db } from '../../store/database.js';
import type { Database } from '../../store/schema.js';
import { changeDetails, documentsBefore } from './change-details.js';
import { readCatalogVersion, type CatalogChange } from './change-log.js';
import type { LockedCatalog } from './locked-catalog.js';
import { writeServedDocuments } from './served-document.js';

/** What one catalog write did: its result, the change it makes, and what the audit trail records of it. */
export interface CatalogWritten<T> extends Partial<CatalogChange> {
  result: T;
  audit: readonly AuditEntry[];
}

export interface CatalogWriterOptions {
  /**
   * Runs after each commit with the new catalog version: a server makes the change
   * visible (its own read model at once, other instances through Redis); the import
   * command tells running servers through Redis. It never fails the write.
   */
  announce?(version: number): Promise<void>;
  clock?(): Date;
  /**
   * How long the change log keeps a change (CHANGE_FEED_RETENTION_HOURS): older ones are
   * pruned as changes are recorded. Without it this writer prunes nothing (the seed of
   * an empty store, tests); the servers and the import command give it.
   */
  changeLogRetentionHours?: number;
}

/**
 * The one way to change the catalog. Each write is one transaction that:
 * 1. takes the catalog's write lock (its first statement), so writers take turns;
 * 2. runs the caller's writes;
 * 3. records the change: the next catalog version, the served documents of the products
 *    it touched, and the change log entry that every instance follows;
 * 4. records the audit entries under the change's version and the actor;
 * then, once committed, announces the new version. A write is all or nothing, audited
 * exactly when it happens, and followed by every instance.
 */
export class CatalogWriter {
  readonly #announce: (version: number) => Promise<void>;
  readonly #clock: () => Date;
  readonly #retentionMs: number | undefined;

  constructor(
    readonly db: Db,
    options: CatalogWriterOptions = {},
  ) {
    this.#announce = options.announce ?? (async () => {});
    this.#clock = options.clock ?? (() => new Date());
    this.#retentionMs = options.changeLogRetentionHours === undefined ? undefined : options.changeLogRetentionHours * MS_PER_HOUR;
  }

  /**
   * Runs `work` as one catalog change made by `actor` (an admin token's name, or the
   * name of the command or process that writes). A write that touched nothing and
   * audits nothing records no change: its version is the catalog's current one.
   */
  async write<T>(actor: string, work: (catalog: LockedCatalog, now: Date) => Promise<CatalogWritten<T>>): Promise<{ result: T; version: number }> {
    const now = this.#clock();
    const done = await this.db.transaction().execute(async (trx) => {
      const catalog = await lockCatalogForWriting(trx);
      const written = await work(catalog, now);
      const productIds = [...(written.productIds ?? [])];
      const regions = written.regions ?? false;
      if (productIds.length === 0 && !regions && written.audit.length === 0) {
        return { result: written.result, version: await readCatalogVersion(catalog), recorded: false };
      }
      const version = await recordCatalogChange(catalog, { productIds, regions, servedDocuments: written.servedDocuments }, now, this.#retentionMs);
      await recordAudit(catalog, version, actor, written.audit, now);
      return { result: written.result, version, recorded: true };
    });
    if (done.recorded) await this.#announce(done.version);
    return { result: done.result, version: done.version };
  }
}

/**
 * The first statement of every transaction that changes the catalog: it locks the
 * version row until commit, so catalog writers take turns. Writers that lock products,
 * variants and regions in different orders (a product replaced, stock set by SKU, an
 * import batch) then never deadlock, and each sees every change committed before it,
 * which the served documents it rewrites depend on. On SQLite, where one connection
 * writes at a time anyway, it makes the transaction a write transaction from the start.
 */
async function lockCatalogForWriting(trx: Transaction<Database>): Promise<LockedCatalog> {
  await trx
    .insertInto('catalog_state')
    .values({ id: 1, version: 0, changed_at: new Date(0).toISOString() })
    .onConflict((conflict) => conflict.column('id').doUpdateSet((eb) => ({ version: eb.ref('catalog_state.version') })))
    .execute();
  return trx as LockedCatalog;
}

const MS_PER_HOUR = 3_600_000;

/** Pruning runs with one change in this many, so it costs the writers nothing measurable. */
const PRUNE_EVERY = 100;

/**
 * Records a catalog change inside the transaction that makes it (which began with
 * `lockCatalogForWriting`), as the last thing that transaction does: it takes the next
 * sequence, rewrites the served documents of the products the change touched, and logs
 * the change with what it did to each product (its details: the documents before and
 * after compared). The sequence is the new catalog version: the version row is locked
 * until the transaction commits, so writers get consecutive sequences and commit in
 * sequence order, and an instance that has seen change N has seen every change before it.
 */
async function recordCatalogChange(trx: LockedCatalog, change: CatalogChange, now: Date, retentionMs: number | undefined): Promise<number> {
  const at = now.toISOString();
  const productIds = [...new Set(change.productIds)];
  const seq = await bumpCatalogVersion(trx, at);
  const before = await documentsBefore(trx, productIds);
  const after = await writeServedDocuments(trx, productIds, change.servedDocuments);
  await trx
    .insertInto('catalog_changes')
    .values({
      seq,
      product_ids: JSON.stringify(productIds),
      regions_changed: change.regions ? 1 : 0,
      changed_at: at,
      details: JSON.stringify(changeDetails(productIds, before, after)),
    })
    .execute();
  if (retentionMs !== undefined && seq % PRUNE_EVERY === 0) {
    const cutoff = new Date(now.getTime() - retentionMs).toISOString();
    // Changes a durable reader (webhooks) has not consumed yet are kept, however old.
    const floor = await changeLogFloor(trx);
    let prune = trx.deleteFrom('catalog_changes').where('changed_at', '<', cutoff);
    if (floor !== undefined) prune = prune.where('seq', '<=', floor);
    await prune.execute();
  }
  return seq;
}

async function bumpCatalogVersion(db: LockedCatalog, now: string): Promise<number> {
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

/**
 * One thing a write changed, as the audit trail records it. For the catalog itself (an
 * import's steps) the version after is the change's own, the catalog version.
 */
export interface AuditEntry {
  action: string;
  targetType: 'product' | 'variant' | 'region' | 'category' | 'collection' | 'catalog';
  targetId: string;
  versionBefore: number | null;
  versionAfter: number | null;
  /** The fields the write set for this target. */
  changes: unknown;
}

/** Records the entries of the catalog change `seq`, in their order, under `actor`. */
async function recordAudit(trx: LockedCatalog, seq: number, actor: string, entries: readonly AuditEntry[], now: Date): Promise<void> {
  const at = now.toISOString();
  const rows = entries.map((entry, position) => ({
    seq,
    position,
    actor,
    action: entry.action,
    target_type: entry.targetType,
    target_id: entry.targetId,
    version_before: entry.versionBefore,
    version_after: entry.targetType === 'catalog' ? seq : entry.versionAfter,
    changes: JSON.stringify(entry.changes),
    at,
  }));
  for (const batch of chunks(rows)) await trx.insertInto('admin_audit').values(batch).execute();
}
