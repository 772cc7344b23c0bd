import { readFile } from 'node:fs/promises';
import type { Db } from '../../store/database.js';
import { importCatalog, type ImportOptions, type ImportReport } from '../file/import-catalog.js';
import { validateCatalogFile, type CatalogFileProblem } from '../file/validate-catalog-file.js';

/** A catalog file that was not imported: every problem with its JSON path. */
export class InvalidCatalogFile extends Error {
  constructor(readonly problems: CatalogFileProblem[]) {
    super(`The catalog file is invalid (${problems.length} problems).`);
    this.name = 'InvalidCatalogFile';
  }
}

/**
 * Validates the catalog file at `path` completely, then imports it: the CLI's path for a
 * file that arrived over HTTP. Throws {@link InvalidCatalogFile} (and writes nothing)
 * when it is not a valid catalog file.
 */
export async function importCatalogFile(db: Db, path: string, options: ImportOptions = {}): Promise<ImportReport> {
  let input: unknown;
  try {
    input = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new InvalidCatalogFile([{ path: '$', message: `is not JSON (${(error as Error).message})` }]);
  }
  const check = validateCatalogFile(input);
  if (!check.ok) throw new InvalidCatalogFile(check.problems);
  return importCatalog(db, check.catalog, options);
}
