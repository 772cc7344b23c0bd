import { readFile } from 'node:fs/promises';
import type { CatalogFile } from '../../src/catalog/file/catalog-file-schema.js';
import { DEMO_CATALOG_PATH } from '../../src/catalog/store/seed.js';
import type { Db } from '../../src/store/database.js';

const CATALOG_TABLES = [
  'regions',
  'region_countries',
  'products',
  'product_translations',
  'product_options',
  'variants',
  'variant_option_values',
  'prices',
  'categories',
  'collections',
  'catalog_state',
] as const;

/**
 * Every row of every catalog table, each table sorted by its whole row, so two dumps
 * are equal exactly when the stored catalog is the same.
 */
export async function dumpCatalog(db: Db): Promise<Record<string, string[]>> {
  const dump: Record<string, string[]> = {};
  for (const table of CATALOG_TABLES) {
    const rows = await db.selectFrom(table).selectAll().execute();
    dump[table] = rows.map((row) => JSON.stringify(row, Object.keys(row).sort())).sort();
  }
  return dump;
}

/** The demo catalog as its file says, for tests that check what the demo seed serves. */
export async function readDemoCatalog(): Promise<CatalogFile> {
  return JSON.parse(await readFile(DEMO_CATALOG_PATH, 'utf8')) as CatalogFile;
}

/** The handles the demo catalog serves, newest first (docs/decisions.md, Ordering). */
export function servedHandles(file: CatalogFile): string[] {
  return file.products
    .filter((product) => product.status === 'published' && !product.weighted)
    .sort((a, b) => Date.parse(b.created_at!) - Date.parse(a.created_at!))
    .map((product) => product.handle);
}
