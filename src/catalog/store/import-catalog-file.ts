import type { CatalogWriter } from './catalog-writer.js';
import type { CatalogFileCategory, CatalogFileCollection, CatalogFileProduct, CatalogFileRegion } from '../file/catalog-file-schema.js';
import { CatalogFileStream, CatalogFileSyntaxError } from '../file/catalog-file-stream.js';
import { IMPORT_BATCH_SIZE, writeCatalog, type CatalogWritePlan, type ImportOptions, type ImportReport } from './import-catalog.js';
import { ProgressMeter, type ProgressOptions } from './import-progress.js';
import { CatalogFileChecker, isWellFormedProduct, MAX_PROBLEMS, type CatalogFileProblem } from '../file/validate-catalog-file.js';

/** The file breaks the format: nothing was written. `problems` lists up to `MAX_PROBLEMS` of them. */
export class CatalogFileInvalid extends Error {
  constructor(
    readonly file: string,
    readonly problems: CatalogFileProblem[],
    /** More problems may follow the ones listed: checking stopped at `MAX_PROBLEMS`. */
    readonly truncated: boolean,
  ) {
    const count = truncated ? `the first ${MAX_PROBLEMS} problems; checking stopped there` : `${problems.length} problems`;
    const lines = problems.map((problem) => `  ${problem.path}: ${problem.message}`);
    super(`Catalog file ${file} is invalid (${count}):\n${lines.join('\n')}`);
  }
}

/** A catalog file that passed every check, without its products. */
export interface CheckedCatalogFile extends CatalogWritePlan {
  regions: CatalogFileRegion[];
}

/**
 * Checks a catalog file as it streams by, product by product, with the same rules and
 * JSON paths as `validateCatalogFile`; throws `CatalogFileInvalid` when it breaks any.
 * Holds one product at a time, plus the file's handles and SKUs (for the uniqueness
 * rules, and for the writer).
 */
export async function checkCatalogFile(path: string, options: ProgressOptions = {}): Promise<CheckedCatalogFile> {
  const stream = await CatalogFileStream.open(path);
  const checker = new CatalogFileChecker();
  const meter = new ProgressMeter('validating', options, undefined, stream.size);
  const regionsOf = (header: unknown) => (header as { regions?: unknown } | undefined)?.regions;
  try {
    // Prices refer to regions, so products are checked once the regions are known: in a
    // file that lists them after its products (unusual, JSON objects have no order),
    // the products are checked in a second reading.
    let regionsLate = false;
    for await (const { index, value } of stream.products()) {
      if (index === 0) {
        regionsLate = regionsOf(stream.header) === undefined;
        if (!regionsLate) checker.useRegions(regionsOf(stream.header));
      }
      if (regionsLate) continue;
      checker.checkProduct(value, index);
      meter.update(checker.productCount, stream.bytesRead);
      if (checker.full) break;
    }
    const header = stream.header;
    if (regionsLate) {
      checker.useRegions(regionsOf(header));
      for await (const { index, value } of stream.products()) {
        checker.checkProduct(value, index);
        meter.update(checker.productCount, stream.bytesRead);
        if (checker.full) break;
      }
    }
    if (!checker.full) checker.checkHeader(header);
  } catch (error) {
    if (!(error instanceof CatalogFileSyntaxError)) throw error;
    checker.problems.push({ path: error.path, message: error.message });
  }
  meter.finish(checker.productCount, stream.bytesRead);
  if (checker.problems.length > 0) throw new CatalogFileInvalid(path, checker.problems, checker.full);
  const header = stream.header as { regions: CatalogFileRegion[]; categories?: CatalogFileCategory[]; collections?: CatalogFileCollection[] };
  return {
    regions: header.regions,
    categories: header.categories ?? [],
    collections: header.collections ?? [],
    handles: checker.handles,
    skus: { has: (sku) => checker.hasSku(sku) },
    productCount: checker.productCount,
  };
}

export interface ImportFileOptions extends ImportOptions {
  /** Runs once the file is checked, before anything is written; what it throws refuses the import (a catalog the instance's heap cannot hold). */
  beforeWrite?(plan: CatalogWritePlan): void;
}

/**
 * Imports a catalog file without holding it in memory: the whole file is checked first
 * (`checkCatalogFile`; an invalid file throws `CatalogFileInvalid` and changes nothing),
 * then read again and written in batches of products, each its own transaction and
 * catalog change (see `writeCatalog`); `beforeWrite` may refuse it in between.
 * `onProgress` hears of both phases.
 */
export async function importCatalogFile(writer: CatalogWriter, path: string, options: ImportFileOptions = {}): Promise<ImportReport> {
  const plan = await checkCatalogFile(path, options);
  options.beforeWrite?.(plan);
  return writeCatalog(writer, plan, checkedBatches(path, plan, options.batchSize ?? IMPORT_BATCH_SIZE), options);
}

/**
 * The file's products again, in batches. Each passes the product schema once more, which
 * fills in its defaults and catches a file changed since it was checked (then the
 * import stops where it is, like a crash, and says why).
 */
async function* checkedBatches(path: string, plan: CatalogWritePlan, size: number): AsyncGenerator<CatalogFileProduct[]> {
  const stream = await CatalogFileStream.open(path);
  let batch: CatalogFileProduct[] = [];
  for await (const { index, value } of stream.products()) {
    if (!isWellFormedProduct(value) || !plan.handles.has(value.handle)) {
      throw new Error(`Catalog file ${path} changed while it was imported (at $.products[${index}]); import it again`);
    }
    batch.push(value);
    if (batch.length === size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}
