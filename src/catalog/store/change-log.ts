import { sql, type Kysely } from 'kysely';
import type { Database } from '../../store/schema.js';
import type { AvailabilityStatus } from '../model/availability.js';
import type { ServedDocument } from './served-document.js';

/** What one committed catalog change touched. */
export interface CatalogChange {
  /** Products whose rows (or variants, prices, texts) changed, including removed ones. */
  productIds: Iterable<string>;
  /** Regions, their countries, or the categories and collections changed: each instance re-reads them all (src/catalog/read-model/read-model.ts). */
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

/** What a change did to a product (docs/decisions.md, The change feed: Change details). */
export type ProductChangeKind = 'created' | 'content' | 'price' | 'availability' | 'published' | 'withdrawn' | 'deleted';

/** A variant's availability as the public API renders it (catalog/model/availability.ts). */
export interface VariantAvailability {
  purchasable: boolean;
  status: AvailabilityStatus;
}

/**
 * What one catalog change did to one product, computed in the change's transaction by
 * comparing the product's served document before and after (change-details.ts). A
 * product the change touched without changing anything it serves has no detail.
 */
export interface ProductChangeDetail {
  product_id: string;
  handle: string;
  /** In the order of ProductChangeKind; never empty. */
  kinds: ProductChangeKind[];
  /** Whether the catalog serves the product after the change (published and not weighted). */
  served: boolean;
  /** Each price that changed: `key` is a region id or a currency code, as served documents key prices; null where there was or is none. Empty for a product created or deleted. */
  prices: { variant_id: string; sku: string; key: string; old: number | null; new: number | null }[];
  /** Each variant whose availability changed; null for a variant that did not exist before, or no longer exists. Empty for a product created or deleted. */
  availability: { variant_id: string; sku: string; old: VariantAvailability | null; new: VariantAvailability | null }[];
}

/** One logged change with its details. */
export interface ChangeDetails {
  seq: number;
  changedAt: string;
  details: ProductChangeDetail[];
}

/** The version of the newest committed change; 0 for a store that never had a catalog. */
export async function readCatalogVersion(db: Kysely<Database>): Promise<number> {
  const row = await db.selectFrom('catalog_state').select('version').where('id', '=', 1).executeTakeFirst();
  return row ? Number(row.version) : 0;
}

/** When change `seq` was committed (ISO 8601); undefined once the log no longer holds it (CHANGE_FEED_RETENTION_HOURS). */
export async function readChangeTime(db: Kysely<Database>, seq: number): Promise<string | undefined> {
  const row = await db.selectFrom('catalog_changes').select('changed_at').where('seq', '=', seq).executeTakeFirst();
  return row?.changed_at;
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

/**
 * The details read at a time, in bytes of their JSON. A change made by an import's batch
 * holds every product's details (a few kilobytes each, with their prices), and a hundred
 * such changes read at once took over a gigabyte of heap once parsed and turned into
 * webhook events: an instance started after two large imports died of it.
 */
export const DETAILS_BYTES_PER_READ = 2 * 2 ** 20;

/**
 * The changes after `seq` with their details, oldest first: at most `limit` of them, none
 * after `upTo` when given (the version the reader serves), and no more than `maxBytes` of
 * details, though always the first (however large). Fewer than `limit` therefore does not
 * mean the log holds no more. Undefined when the log no longer holds the one right after
 * `seq` (pruned, CHANGE_FEED_RETENTION_HOURS). Without `upTo`, a log pruned of everything
 * after `seq` reads as no change yet: a reader that must tell the two apart passes the
 * version it knows of (`readCatalogVersion`).
 */
export async function changeDetailsAfter(db: Kysely<Database>, seq: number, limit: number, upTo?: number, maxBytes = DETAILS_BYTES_PER_READ): Promise<ChangeDetails[] | undefined> {
  const sizes = await db
    .selectFrom('catalog_changes')
    .select(['seq', sql<number | string>`octet_length(details)`.as('bytes')])
    .where('seq', '>', seq)
    .$if(upTo !== undefined, (query) => query.where('seq', '<=', upTo!))
    .orderBy('seq')
    .limit(limit)
    .execute();
  if (sizes.length > 0 && Number(sizes[0]!.seq) !== seq + 1) return undefined;
  // Every version up to `upTo` was logged when it was made: none of them left means they were pruned.
  if (sizes.length === 0 && upTo !== undefined && seq < upTo) return undefined;
  if (sizes.length === 0) return [];
  let bytes = Number(sizes[0]!.bytes);
  let count = 1;
  while (count < sizes.length && bytes + Number(sizes[count]!.bytes) <= maxBytes) bytes += Number(sizes[count++]!.bytes);
  const rows = await db
    .selectFrom('catalog_changes')
    .select(['seq', 'changed_at', 'details'])
    .where('seq', '>', seq)
    .where('seq', '<=', Number(sizes[count - 1]!.seq))
    .orderBy('seq')
    .execute();
  // Pruned between the two reads.
  if (rows.length === 0 || Number(rows[0]!.seq) !== seq + 1) return undefined;
  return rows.map((row) => ({ seq: Number(row.seq), changedAt: row.changed_at, details: JSON.parse(row.details) as ProductChangeDetail[] }));
}
