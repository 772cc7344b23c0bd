import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../store/database.js';
import { importCatalog } from './file/import-catalog.js';
import { validateCatalogFile } from './file/validate-catalog-file.js';

export const DEMO_CATALOG_PATH = fileURLToPath(new URL('../../catalog/demo.json', import.meta.url));

/** Reads and validates a catalog file; the error lists every problem with its JSON path. */
export async function readCatalogFile(path: string) {
  let input: unknown;
  try {
    input = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new Error(`Cannot read catalog file ${path}: ${(error as Error).message}`);
  }
  const check = validateCatalogFile(input);
  if (!check.ok) {
    const lines = check.problems.map((problem) => `  ${problem.path}: ${problem.message}`);
    throw new Error(`Catalog file ${path} is invalid (${check.problems.length} problems):\n${lines.join('\n')}`);
  }
  return check.catalog;
}

/**
 * Loads the configured seed (`demo`, or a catalog file path) into an empty store, so a
 * fresh install serves a catalog at once. A store with products is never touched.
 */
export async function seedEmptyStore(db: Db, seed: string, log: FastifyBaseLogger): Promise<void> {
  if (seed === 'none') return;
  const existing = await db.selectFrom('products').select('id').limit(1).executeTakeFirst();
  if (existing) return;
  const path = seed === 'demo' ? DEMO_CATALOG_PATH : seed;
  const report = await importCatalog(db, await readCatalogFile(path));
  log.info({ path, products: report.products.created }, 'empty store seeded with a catalog');
}
