import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { announceCatalogChange } from '../catalog/catalog-change-feed.js';
import { openStore } from '../store/database.js';
import { migrateToLatest } from '../store/migrate.js';
import { readCatalogFile } from '../catalog/seed.js';
import { importCatalog } from '../catalog/file/import-catalog.js';

const USAGE = `Usage: npm run catalog:import -- FILE [--unpublish-missing] [--dry-run]
       (in the image: node dist/cli/import-catalog.js FILE ...)

Validates FILE completely, then upserts its regions (by id), products (by handle) and
variants (by SKU) in one transaction into the configured store (DATABASE_URL, or the
SQLite file under DATA_DIR). An invalid file changes nothing.

Products in the store but not in FILE are kept as they are and listed;
--unpublish-missing sets them to draft instead. Nothing is ever deleted, except the
variants a product in FILE no longer lists, which are reported.
Running servers pick the change up at once when REDIS_URL is set (they are told
through Redis), and otherwise within CATALOG_POLL_MS (default 1 s).`;

/** Where the command writes: the console, or a test's collector. */
export type CommandOutput = Pick<Console, 'log' | 'warn' | 'error'>;
type Env = Parameters<typeof loadConfig>[0];

/**
 * `npm run catalog:import` (src/cli/import-catalog.ts) without the process around it, so
 * tests can run it in theirs: returns the exit code, and reads the configuration from
 * `env` (the process environment by default).
 */
export async function importCatalogCommand(argv: string[], output: CommandOutput = console, env?: Env): Promise<number> {
  try {
    return await run(argv, output, env);
  } catch (error) {
    output.error(error instanceof Error ? error.message : error);
    return 1;
  }
}

async function run(argv: string[], output: CommandOutput, env: Env | undefined): Promise<number> {
  let args;
  try {
    args = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { 'unpublish-missing': { type: 'boolean' }, 'dry-run': { type: 'boolean' }, help: { type: 'boolean' } },
    });
  } catch (error) {
    output.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (args.values.help) {
    output.log(USAGE);
    return 0;
  }
  const [file, ...extra] = args.positionals;
  if (!file || extra.length > 0) {
    output.error(USAGE);
    return 2;
  }

  const catalog = await readCatalogFile(file);
  if (args.values['dry-run']) {
    output.log(`${file} is valid: ${catalog.regions.length} regions, ${catalog.products.length} products. Nothing written.`);
    return 0;
  }
  const config = loadConfig(env);
  const store = openStore(config);
  try {
    await migrateToLatest(store.db);
    const report = await importCatalog(store.db, catalog, { unpublishMissing: args.values['unpublish-missing'] ?? false });
    // The usage promises the kept products are listed, not only counted.
    const kept = report.missing.filter((handle) => !report.unpublished.includes(handle));
    output.log(
      [
        `Imported ${file} into ${store.dialect} (catalog version ${report.catalogVersion}):`,
        `  regions:  ${report.regions.created} created, ${report.regions.updated} updated`,
        `  products: ${report.products.created} created, ${report.products.updated} updated`,
        `  variants: ${report.variants.created} created, ${report.variants.updated} updated, ${report.variants.removed.length} removed${listed(report.variants.removed)}`,
        `  not in file, kept: ${kept.length}${listed(kept)}; unpublished: ${report.unpublished.length}${listed(report.unpublished)}`,
      ].join('\n'),
    );
    await announceCatalogChange(config, report.catalogVersion).catch((error: unknown) =>
      output.warn(`Running servers were not told through Redis (${(error as Error).message}); they pick the change up within CATALOG_POLL_MS.`),
    );
    return 0;
  } finally {
    await store.close();
  }
}

function listed(items: string[]): string {
  if (items.length === 0) return '';
  const shown = items.slice(0, 20).join(', ');
  return ` (${shown}${items.length > 20 ? `, and ${items.length - 20} more` : ''})`;
}
