import { constants } from 'node:fs';
import { access, readFile, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../store/database.js';
import { CatalogWriter } from './catalog-writer.js';
import { CatalogFileInvalid, importCatalogFile } from './import-catalog-file.js';
import { validateCatalogFile } from '../file/validate-catalog-file.js';

export const DEMO_CATALOG_PATH = fileURLToPath(new URL('../../../catalog/demo.json', import.meta.url));

/**
 * Reads a small catalog file (the demo) whole and validates it; throws
 * `CatalogFileInvalid` listing every problem with its JSON path. Imports stream the file
 * instead (`importCatalogFile`).
 */
export async function readCatalogFile(path: string) {
  let input: unknown;
  try {
    input = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new Error(`Cannot read catalog file ${path}: ${(error as Error).message}`);
  }
  const check = validateCatalogFile(input);
  if (!check.ok) throw new CatalogFileInvalid(path, check.problems, check.truncated);
  return check.catalog;
}

/**
 * Why the configured seed cannot be read, in words naming CATALOG_SEED and the fix, or
 * undefined when it can. The server checks it before it creates a new SQLite file, so a
 * wrong path creates no database; the file's contents are checked when an empty store is
 * seeded.
 */
export async function seedProblem(seed: string): Promise<string | undefined> {
  if (seed === 'demo' || seed === 'none') return undefined;
  const fix = 'set CATALOG_SEED to the path of a catalog file (docs/catalog-format.md), to demo for the demo catalog, or to none for an empty store';
  try {
    if (!(await stat(seed)).isFile()) return `CATALOG_SEED=${seed} is not a file; ${fix}`;
    await access(seed, constants.R_OK);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return `CATALOG_SEED=${seed}: ${code === 'ENOENT' ? 'no such file' : `cannot read the file (${code ?? (error as Error).message})`}; ${fix}`;
  }
}

/**
 * Loads the configured seed (`demo`, or a catalog file path) into an empty store, so a
 * fresh install serves a catalog at once. A store with products is never touched.
 */
export async function seedEmptyStore(db: Db, seed: string, log: FastifyBaseLogger): Promise<void> {
  if (seed === 'none') return;
  const existing = await db.selectFrom('products').select('id').limit(1).executeTakeFirst();
  if (existing) return;
  const problem = await seedProblem(seed);
  if (problem) throw new Error(problem);
  const path = seed === 'demo' ? DEMO_CATALOG_PATH : seed;
  // Before the read model exists: there is nobody to tell.
  const report = await importCatalogFile(new CatalogWriter(db), path, {
    actor: 'seed',
    // A large seed takes a while: say how far it has come (its end is the line below).
    onProgress: (progress) => {
      if (!progress.done) log.info({ path, progress }, 'seeding the empty store');
    },
  }).catch((error: unknown) => {
    if (!(error instanceof CatalogFileInvalid)) throw error;
    throw new Error(`CATALOG_SEED=${seed}: ${error.message}\nCorrect the file (docs/catalog-format.md), or set CATALOG_SEED to demo or none.`);
  });
  log.info({ path, products: report.products.created }, 'empty store seeded with a catalog');
}
