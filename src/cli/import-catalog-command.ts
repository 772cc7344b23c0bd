import { loadConfig } from '../config.js';
import { printAnswer, readCommandLine, UsageError } from '../lib/command-line.js';
import { announceCatalogChange } from '../catalog/read-model/change-follower.js';
import { CatalogWriter } from '../catalog/store/catalog-writer.js';
import { openStore } from '../store/database.js';
import { migrateToLatest } from '../store/migrate.js';
import { checkCatalogFile, importCatalogFile } from '../catalog/store/import-catalog-file.js';
import { IMPORT_BATCH_SIZE, type ImportReport } from '../catalog/store/import-catalog.js';
import type { ImportProgress, ProgressOptions } from '../catalog/store/import-progress.js';
import { MAX_PROBLEMS } from '../catalog/file/validate-catalog-file.js';

const USAGE = `Usage: npm run catalog:import -- FILE [--unpublish-missing] [--dry-run]
       (in the image: node dist/cli/import-catalog.js FILE ...)

Reads FILE as a stream and validates it completely (the first ${MAX_PROBLEMS} problems are
listed); an invalid file changes nothing. Then reads it again and upserts its regions
(by id), products (by handle) and variants (by SKU) into the configured store
(DATABASE_URL, or the SQLite file under DATA_DIR): the regions first, then the products
in batches of ${IMPORT_BATCH_SIZE}, each batch one transaction. Running servers take each batch in
as it commits. A run that stops half-way (a crash, a lost connection) leaves the
batches written so far; running it again with the same file completes the import.
Each step is recorded in the audit trail (GET /admin/v1/audit, actor catalog:import,
action import, with the catalog versions before and after), as imports over the admin
API are. Countries an admin placed in a region (PUT /admin/v1/regions/{id}) stay
there when the file says otherwise; the report lists each such conflict.
On long runs the progress (products validated and written, rate, time left) goes to
stderr every 2 s; the report goes to stdout.

Products in the store but not in FILE are kept as they are and listed;
--unpublish-missing sets them to draft instead (in the last step). Nothing is ever
deleted, except the variants a product in FILE no longer lists, which are reported.
Running servers pick the change up at once when REDIS_URL is set (they are told
through Redis), and otherwise within CATALOG_POLL_MS (default 1 s).`;

/** Where the command writes: the console, or a test's collector. Progress goes to `error` (stderr). */
export type CommandOutput = Pick<Console, 'log' | 'warn' | 'error'>;
type Env = Parameters<typeof loadConfig>[0];

/**
 * `npm run catalog:import` (src/cli/import-catalog.ts) without the process around it, so
 * tests can run it in theirs: returns the exit code, and reads the configuration from
 * `env` (the process environment by default).
 */
export async function importCatalogCommand(
  argv: string[],
  output: CommandOutput = console,
  env?: Env,
  progress: Pick<ProgressOptions, 'progressIntervalMs'> = {},
): Promise<number> {
  try {
    return await run(argv, output, env, { ...progress, onProgress: (report) => output.error(describeProgress(report)) });
  } catch (error) {
    output.error(error instanceof Error ? error.message : error);
    return 1;
  }
}

async function run(argv: string[], output: CommandOutput, env: Env | undefined, progress: ProgressOptions): Promise<number> {
  const line = readCommandLine(
    USAGE,
    { allowPositionals: true, options: { 'unpublish-missing': { type: 'boolean' }, 'dry-run': { type: 'boolean' } } },
    argv,
    (parsed) => {
      if (parsed.positionals.length !== 1) throw new UsageError('give one catalog FILE');
      return { file: parsed.positionals[0]!, ...parsed.values };
    },
  );
  if (!('run' in line)) return printAnswer(line, output);
  const { file, ...args } = line.run;

  if (args['dry-run']) {
    const checked = await checkCatalogFile(file, progress);
    output.log(`${file} is valid: ${checked.regions.length} regions, ${checked.productCount} products. Nothing written.`);
    return 0;
  }
  const config = loadConfig(env);
  const store = openStore(config);
  try {
    await migrateToLatest(store.db);
    // Running servers are told of each batch through Redis as it commits; after a failure
    // they are left to their poll rather than each batch waiting for a connect time-out.
    let announceFailed: Error | undefined;
    const writer = new CatalogWriter(store.db, {
      changeLogRetentionHours: config.changeFeed.retentionHours,
      announce: async (version) => {
        if (announceFailed) return;
        await announceCatalogChange(config, version).catch((error: Error) => {
          announceFailed = error;
        });
      },
    });
    const report = await importCatalogFile(writer, file, { ...progress, unpublishMissing: args['unpublish-missing'] ?? false });
    // The usage promises the kept products are listed, not only counted.
    const kept = report.missing.filter((handle) => !report.unpublished.includes(handle));
    output.log(
      [
        `Imported ${file} into ${store.dialect} (catalog version ${report.catalogVersionBefore} to ${report.catalogVersion}):`,
        `  regions:  ${report.regions.created} created, ${report.regions.updated} updated, ${report.regions.unchanged} unchanged${regionChanges(report)}`,
        `  products: ${report.products.created} created, ${report.products.updated} updated`,
        `  variants: ${report.variants.created} created, ${report.variants.updated} updated, ${report.variants.removed.length} removed${listed(report.variants.removed)}`,
        `  not in file, kept: ${kept.length}${listed(kept)}; unpublished: ${report.unpublished.length}${listed(report.unpublished)}`,
      ].join('\n'),
    );
    if (announceFailed) output.warn(`Running servers were not told through Redis (${announceFailed.message}); they pick the change up within CATALOG_POLL_MS.`);
    return 0;
  } finally {
    await store.close();
  }
}

const count = new Intl.NumberFormat('en-US');

/** One line of progress, e.g. `writing: 12,000 of 100,000 products (12 %), 2,100 products/s, about 42 s left`. */
export function describeProgress(progress: ImportProgress): string {
  const rate = `${count.format(progress.perSecond)} products/s`;
  if (progress.done) {
    const verb = progress.phase === 'validating' ? 'validated' : 'written';
    return `${progress.phase}: done, ${count.format(progress.products)} products ${verb} in ${(progress.elapsedMs / 1000).toFixed(1)} s (${rate})`;
  }
  const megabytes = (bytes: number) => Math.round(bytes / 1e6);
  const where =
    progress.totalProducts !== undefined
      ? `${count.format(progress.products)} of ${count.format(progress.totalProducts)} products (${percent(progress.products, progress.totalProducts)})`
      : `${count.format(progress.products)} products, ${megabytes(progress.bytesRead ?? 0)} of ${megabytes(progress.totalBytes ?? 0)} MB (${percent(progress.bytesRead ?? 0, progress.totalBytes ?? 0)})`;
  const left = progress.etaSeconds !== undefined ? `, about ${progress.etaSeconds} s left` : '';
  return `${progress.phase}: ${where}, ${rate}${left}`;
}

function percent(part: number, whole: number): string {
  return `${whole > 0 ? Math.floor((part * 100) / whole) : 100} %`;
}

/** The regions that changed, and the countries kept where an admin placed them against the file. */
function regionChanges({ regions }: ImportReport): string {
  const changed = regions.changes.filter((region) => region.change !== 'unchanged').map((region) => `${region.id}: ${region.fields.join(', ')}`);
  const conflicts = regions.conflicts.map((conflict) => `${conflict.country} kept in ${conflict.kept_in} (the file: ${conflict.file_region ?? 'no region'})`);
  return listed(changed) + (conflicts.length > 0 ? `; countries an admin placed, kept: ${conflicts.join(', ')}` : '');
}

function listed(items: string[]): string {
  if (items.length === 0) return '';
  const shown = items.slice(0, 20).join(', ');
  return ` (${shown}${items.length > 20 ? `, and ${items.length - 20} more` : ''})`;
}
