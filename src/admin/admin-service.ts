import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { CatalogChangeFeed } from '../catalog/catalog-change-feed.js';
import { lockCatalogForWriting, recordCatalogChange } from '../catalog/change-log.js';
import type { CatalogFileProduct, CatalogFileRegion } from '../catalog/file/catalog-file-schema.js';
import type { ImportReport } from '../catalog/file/import-catalog.js';
import { setInventory, setPrices, type InventoryRow, type PriceRow, type RowResult } from '../catalog/write/bulk.js';
import { importCatalogFile } from '../catalog/file/import-catalog-file.js';
import { deleteProduct, patchProduct, putProduct, type ProductPatch } from '../catalog/write/products.js';
import { readProduct, readVariant, type StoredProduct } from '../catalog/write/read.js';
import { putRegion, storedRegions, type RegionChange } from '../catalog/write/regions.js';
import { patchVariant, type VariantPatch } from '../catalog/write/variants.js';
import type { VersionCondition } from '../catalog/write/write-errors.js';
import type { Db } from '../store/database.js';
import type { Database } from '../store/schema.js';
import { listAudit, recordAudit, type AuditEntry, type AuditQuery } from './audit.js';
import { AdminProblem } from './errors.js';

/** What one admin write did, for the change log and the audit trail. */
interface Written<T> {
  result: T;
  productIds: string[];
  regions?: boolean;
  audit: AuditEntry[];
}

/** SQLSTATEs and SQLite codes of a write that lost a race with another (a product created with the same new handle). */
const LOST_RACE = new Set(['23505', '40P01', '40001', 'SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY']);

/**
 * The admin API's operations. Each write is one transaction: the catalog write, then the
 * catalog change it makes (last but for the audit rows, which are keyed by the change's
 * sequence), so a write is all or nothing, audited exactly when it happens, and followed
 * by every instance. Before a write returns, this instance serves it (read-your-writes).
 */
export class AdminService {
  constructor(
    private readonly db: Db,
    private readonly changes: CatalogChangeFeed,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async #write<T>(actor: string, write: (trx: Kysely<Database>, now: Date) => Promise<Written<T>>): Promise<T> {
    const now = this.clock();
    let done: { result: T; version: number };
    try {
      done = await this.db.transaction().execute(async (trx) => {
        await lockCatalogForWriting(trx);
        const written = await write(trx, now);
        const version = await recordCatalogChange(trx, { productIds: written.productIds, regions: written.regions ?? false }, now);
        await recordAudit(trx, version, actor, written.audit, now);
        return { result: written.result, version };
      });
    } catch (error) {
      if (LOST_RACE.has(String((error as { code?: unknown }).code))) {
        throw new AdminProblem('CONFLICT', 'A concurrent request changed the same resource; nothing was written.', 'Read the resource again and retry.');
      }
      throw error;
    }
    await this.changes.committed(done.version);
    return done.result;
  }

  async getProduct(handle: string): Promise<StoredProduct> {
    const product = await readProduct(this.db, handle);
    if (!product) throw new AdminProblem('NOT_FOUND', `No product has the handle ${handle}.`, 'PUT /admin/v1/products/{handle} creates it.');
    return product;
  }

  async putProduct(actor: string, handle: string, product: Omit<CatalogFileProduct, 'handle'>, condition: VersionCondition | undefined) {
    const change = await this.#write(actor, async (trx, now) => {
      const written = await putProduct(trx, handle, product, condition, now);
      const entry = productEntry(written.created ? 'create' : 'replace', handle, written, product);
      return { result: written, productIds: [written.productId], audit: [entry] };
    });
    return { created: change.created, product: await this.getProduct(handle) };
  }

  async patchProduct(actor: string, handle: string, patch: ProductPatch, condition: VersionCondition | undefined): Promise<StoredProduct> {
    await this.#write(actor, async (trx, now) => {
      const written = await patchProduct(trx, handle, patch, condition, now);
      return { result: written, productIds: [written.productId], audit: [productEntry('update', handle, written, patch)] };
    });
    return this.getProduct(handle);
  }

  async deleteProduct(actor: string, handle: string, condition: VersionCondition | undefined): Promise<void> {
    await this.#write(actor, async (trx) => {
      const written = await deleteProduct(trx, handle, condition);
      return { result: written, productIds: [written.productId], audit: [productEntry('delete', handle, written, {})] };
    });
  }

  async getVariant(id: string) {
    const variant = await readVariant(this.db, id);
    if (!variant) throw new AdminProblem('NOT_FOUND', `No variant has the id ${id}.`, 'Variant ids are in GET /admin/v1/products/{handle}.');
    return variant;
  }

  async patchVariant(actor: string, id: string, patch: VariantPatch, condition: VersionCondition | undefined) {
    await this.#write(actor, async (trx) => {
      const written = await patchVariant(trx, id, patch, condition);
      const entry: AuditEntry = { action: 'update', targetType: 'variant', targetId: id, versionBefore: written.versionBefore, versionAfter: written.versionAfter, changes: patch };
      return { result: written, productIds: [written.productId], audit: [entry] };
    });
    return this.getVariant(id);
  }

  setInventory(actor: string, rows: InventoryRow[]): Promise<RowResult[]> {
    return this.#bulk(actor, 'set_inventory', rows, (trx) => setInventory(trx, rows));
  }

  setPrices(actor: string, rows: PriceRow[]): Promise<RowResult[]> {
    return this.#bulk(actor, 'set_prices', rows, (trx) => setPrices(trx, rows));
  }

  /** A bulk write is audited row by row: each row's variant with its versions and what the row set. */
  #bulk<R extends { sku: string }>(actor: string, action: string, rows: R[], write: (trx: Kysely<Database>) => Promise<RowResult[]>) {
    return this.#write(actor, async (trx) => {
      const results = await write(trx);
      const audit = results.map((result): AuditEntry => {
        const { sku: _sku, ...changes } = rows[result.index]!;
        return { action, targetType: 'variant', targetId: result.variantId, versionBefore: result.versionBefore, versionAfter: result.versionAfter, changes: { sku: result.sku, ...changes } };
      });
      return { result: results, productIds: results.map((result) => result.productId), audit };
    });
  }

  async putRegion(actor: string, region: CatalogFileRegion): Promise<RegionChange & { region: CatalogFileRegion }> {
    const change = await this.#write(actor, async (trx) => {
      const written = await putRegion(trx, region);
      const { id, ...changes } = region;
      const entry: AuditEntry = { action: written.created ? 'create' : 'replace', targetType: 'region', targetId: id, versionBefore: null, versionAfter: null, changes: { ...changes, released: written.released } };
      return { result: written, productIds: [], regions: true, audit: [entry] };
    });
    const stored = (await storedRegions(this.db)).find((candidate) => candidate.id === region.id)!;
    return { ...change, region: stored };
  }

  /**
   * Imports a catalog file the request was spooled to, on the CLI's code path; its audit
   * entry commits with the import's last change.
   */
  async importFile(actor: string, path: string, unpublishMissing: boolean, log: FastifyBaseLogger): Promise<ImportReport> {
    const report = await importCatalogFile(this.db, path, {
      unpublishMissing,
      now: this.clock(),
      onProgress: (progress) => log.info({ progress }, 'catalog import over the admin API'),
      // One entry per transaction, with the counts so far: an import that stops half-way leaves the entries of what it wrote.
      audit: (trx, catalogVersion, imported, complete) =>
        recordAudit(trx, catalogVersion, actor, [
          {
            action: 'import',
            targetType: 'catalog',
            targetId: 'catalog',
            versionBefore: null,
            versionAfter: catalogVersion,
            changes: {
              unpublish_missing: unpublishMissing,
              complete,
              regions: imported.regions,
              products: imported.products,
              variants: { ...imported.variants, removed: imported.variants.removed.length },
            },
          },
        ], this.clock()),
    });
    await this.changes.committed(report.catalogVersion);
    return report;
  }

  listAudit(query: AuditQuery) {
    return listAudit(this.db, query);
  }
}

function productEntry(action: string, handle: string, change: { versionBefore: number | null; versionAfter: number | null }, changes: unknown): AuditEntry {
  return { action, targetType: 'product', targetId: handle, versionBefore: change.versionBefore, versionAfter: change.versionAfter, changes };
}
