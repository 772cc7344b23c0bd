import type { CatalogFileProduct, CatalogFileRegion } from '../../src/catalog/file/catalog-file-schema.js';
import { importCatalog } from '../../src/catalog/file/import-catalog.js';
import { loadSnapshot } from '../../src/catalog/read-model/load-snapshot.js';
import type { CatalogSnapshot } from '../../src/catalog/read-model/snapshot.js';
import { loadConfig } from '../../src/config.js';
import { openStore } from '../../src/store/database.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { catalog, REGIONS } from './catalog-builder.js';

/**
 * The read model's snapshot of exactly these products, built as the app builds it (the
 * catalog file imported into a store, then loaded), on an in-memory SQLite store of its
 * own whatever the profile: for unit tests of the pure modules, without starting the app.
 */
export async function catalogSnapshot(products: CatalogFileProduct[], regions: CatalogFileRegion[] = REGIONS): Promise<CatalogSnapshot> {
  const store = openStore({ ...loadConfig({}), sqlitePath: ':memory:' });
  try {
    await migrateToLatest(store.db);
    await importCatalog(store.db, catalog(products, regions));
    return await loadSnapshot(store.db);
  } finally {
    await store.close();
  }
}
