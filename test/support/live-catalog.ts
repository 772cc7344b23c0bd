import Fastify from 'fastify';
import type { CatalogFileProduct, CatalogFileRegion } from '../../src/catalog/file/catalog-file-schema.js';
import { importCatalog } from '../../src/catalog/store/import-catalog.js';
import type { LiveCatalog } from '../../src/catalog/read-model/live-catalog.js';
import { CatalogReadModel } from '../../src/catalog/read-model/read-model.js';
import { loadConfig } from '../../src/config.js';
import { openStore } from '../../src/store/database.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { catalog, REGIONS } from './catalog-builder.js';
import { CatalogWriter } from '../../src/catalog/store/catalog-writer.js';

/**
 * The read model's catalog of exactly these products, built as the app builds it (the
 * catalog file imported into a store, then loaded), on an in-memory SQLite store of its
 * own whatever the profile: for unit tests of the pure modules, without starting the app.
 */
export async function liveCatalog(products: CatalogFileProduct[], regions: CatalogFileRegion[] = REGIONS): Promise<LiveCatalog> {
  const store = openStore({ ...loadConfig({}), sqlitePath: ':memory:' });
  try {
    await migrateToLatest(store.db);
    await importCatalog(new CatalogWriter(store.db), catalog(products, regions));
    const readModel = new CatalogReadModel(store.db, Fastify({ logger: false }).log);
    await readModel.load();
    await readModel.whenSearchable();
    return readModel.catalog;
  } finally {
    await store.close();
  }
}
