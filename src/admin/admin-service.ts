import type { AuditEntry, CatalogWriter, CatalogWritten } from '../catalog/store/catalog-writer.js';
import type { LockedCatalog } from '../catalog/store/locked-catalog.js';
import type { CatalogFileCollection, CatalogFileProduct, CatalogFileRegion } from '../catalog/file/catalog-file-schema.js';
import { setInventory, setPrices, type InventoryRow, type PriceRow, type RowResult } from '../catalog/store/write/bulk.js';
import { deleteProduct, patchProduct, putProduct, type ProductPatch } from '../catalog/store/write/products.js';
import { readProduct, readVariant, type StoredProduct } from '../catalog/store/write/read.js';
import { putRegion, storedRegions, type RegionChange } from '../catalog/store/write/regions.js';
import {
  deleteCategory,
  deleteCollection,
  putCategory,
  putCollection,
  storedCategories,
  storedCollections,
  type StoredCategory,
} from '../catalog/store/write/taxonomy.js';
import { patchVariant, type VariantPatch } from '../catalog/store/write/variants.js';
import type { VersionCondition } from '../catalog/store/write/write-errors.js';
import type { CatalogReadModel } from '../catalog/read-model/read-model.js';
import { listAudit, type AuditQuery } from './audit.js';
import { listProducts, type ProductListQuery } from './product-list.js';
import { AdminProblem } from './errors.js';

/** SQLSTATEs and SQLite codes of a write that lost a race with another (a product created with the same new handle). */
const LOST_RACE = new Set(['23505', '40P01', '40001', 'SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY']);

/**
 * The admin API's operations. Each write is one catalog change (`CatalogWriter`): all or
 * nothing, audited under the token's name exactly when it happens, and followed by every
 * instance. The app's writer announces each change to this instance's read model before
 * the write returns, so the next read here serves it (read-your-writes).
 */
export class AdminService {
  private readonly db;

  constructor(
    private readonly writer: CatalogWriter,
    private readonly readModel: CatalogReadModel,
  ) {
    this.db = writer.db;
  }

  async #write<T>(actor: string, write: (catalog: LockedCatalog, now: Date) => Promise<CatalogWritten<T>>): Promise<T> {
    try {
      return (await this.writer.write(actor, write)).result;
    } catch (error) {
      if (LOST_RACE.has(String((error as { code?: unknown }).code))) {
        throw new AdminProblem('CONFLICT', 'A concurrent request changed the same resource; nothing was written.', 'Read the resource again and retry.');
      }
      throw error;
    }
  }

  listProducts(query: ProductListQuery) {
    return listProducts(this.db, this.readModel, query);
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
  #bulk<R extends { sku: string }>(actor: string, action: string, rows: R[], write: (catalog: LockedCatalog) => Promise<RowResult[]>) {
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
    return { ...change, region: await this.getRegion(region.id) };
  }

  listRegions(): Promise<CatalogFileRegion[]> {
    return storedRegions(this.db);
  }

  async getRegion(id: string): Promise<CatalogFileRegion> {
    const region = (await storedRegions(this.db)).find((candidate) => candidate.id === id);
    if (!region) throw new AdminProblem('NOT_FOUND', `No region has the id ${id}.`, 'GET /admin/v1/regions lists them; PUT /admin/v1/regions/{id} creates one.');
    return region;
  }

  listCategories(): Promise<StoredCategory[]> {
    return storedCategories(this.db);
  }

  async getCategory(handle: string): Promise<StoredCategory> {
    return byHandle(await storedCategories(this.db), handle, 'category', 'categories');
  }

  /**
   * Categories and collections are definitions, like regions: a change makes every
   * instance re-read them, and the public catalog serves the new names and tree.
   */
  async putCategory(actor: string, category: StoredCategory): Promise<{ created: boolean; category: StoredCategory }> {
    const { created } = await this.#write(actor, async (trx) => {
      const written = await putCategory(trx, category);
      const { handle, ...changes } = category;
      return { result: written, regions: true, audit: [taxonomyEntry(written.created ? 'create' : 'replace', 'category', handle, changes)] };
    });
    return { created, category: await this.getCategory(category.handle) };
  }

  async deleteCategory(actor: string, handle: string): Promise<void> {
    await this.#write(actor, async (trx) => {
      await deleteCategory(trx, handle);
      return { result: null, regions: true, audit: [taxonomyEntry('delete', 'category', handle, {})] };
    });
  }

  listCollections(): Promise<CatalogFileCollection[]> {
    return storedCollections(this.db);
  }

  async getCollection(handle: string): Promise<CatalogFileCollection> {
    return byHandle(await storedCollections(this.db), handle, 'collection', 'collections');
  }

  async putCollection(actor: string, collection: CatalogFileCollection): Promise<{ created: boolean; collection: CatalogFileCollection }> {
    const { created } = await this.#write(actor, async (trx) => {
      const written = await putCollection(trx, collection);
      return { result: written, regions: true, audit: [taxonomyEntry(written.created ? 'create' : 'replace', 'collection', collection.handle, { titles: collection.titles })] };
    });
    return { created, collection: await this.getCollection(collection.handle) };
  }

  async deleteCollection(actor: string, handle: string): Promise<void> {
    await this.#write(actor, async (trx) => {
      await deleteCollection(trx, handle);
      return { result: null, regions: true, audit: [taxonomyEntry('delete', 'collection', handle, {})] };
    });
  }

  listAudit(query: AuditQuery) {
    return listAudit(this.db, query);
  }
}

/** The category or collection with `handle`, or 404 saying where they are listed and how one is made. */
function byHandle<T extends { handle: string }>(all: readonly T[], handle: string, noun: string, plural: string): T {
  const found = all.find((candidate) => candidate.handle === handle);
  if (!found) throw new AdminProblem('NOT_FOUND', `No ${noun} has the handle ${handle}.`, `GET /admin/v1/${plural} lists them; PUT /admin/v1/${plural}/{handle} creates one.`);
  return found;
}

function taxonomyEntry(action: string, targetType: 'category' | 'collection', handle: string, changes: unknown): AuditEntry {
  return { action, targetType, targetId: handle, versionBefore: null, versionAfter: null, changes };
}

function productEntry(action: string, handle: string, change: { versionBefore: number | null; versionAfter: number | null }, changes: unknown): AuditEntry {
  return { action, targetType: 'product', targetId: handle, versionBefore: change.versionBefore, versionAfter: change.versionAfter, changes };
}
