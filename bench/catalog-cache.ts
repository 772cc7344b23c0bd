import { createHash } from 'node:crypto';
import { access, cp, mkdir, mkdtemp, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateCatalog, startNodeProcess } from './service-process.js';

/**
 * Generated catalogs and SQLite stores that hold them, kept between runs: importing
 * 100,000 products takes over a minute, and a store made once serves every later run
 * asking for the same catalog. An entry is named by what made it: the size, the seed,
 * a digest of the generator's source and, for a store, its newest migration (a store of
 * another schema is not reused; an older one would be migrated on start, as in
 * production, but not back). A generated file is an entry of its own, shared by the
 * stores made from it and by benchmarks that import it themselves (bench/scale.ts).
 * Entries are built under a temporary name and renamed when complete, so an interrupted
 * run leaves nothing that looks reusable.
 */
export interface CachedCatalog {
  /** The generated catalog file, to seed other stores from (the PostgreSQL flow). */
  catalogFile: string;
  /** A DATA_DIR whose SQLite store holds the catalog. */
  dataDir: string;
  /** How long the import took, when this run made the entry; undefined when reused. */
  importSeconds: number | undefined;
}

const REPO_ROOT = path.resolve(import.meta.dirname, '..');
const GENERATOR_SOURCES = ['tools/generate-catalog.ts', 'tools/catalog-generator'];
const MIGRATIONS = 'src/store/migrations';

async function sourceFiles(relative: string): Promise<string[]> {
  const absolute = path.join(REPO_ROOT, relative);
  if (!(await stat(absolute)).isDirectory()) return [absolute];
  return (await readdir(absolute, { recursive: true })).filter((file) => file.endsWith('.ts')).sort().map((file) => path.join(absolute, file));
}

/** The cache key's part that says what made a catalog: a digest of the generator's source. */
async function generatorVersion(): Promise<string> {
  const hash = createHash('sha256');
  for (const relative of GENERATOR_SOURCES) {
    for (const file of await sourceFiles(relative)) hash.update(await readFile(file));
  }
  return `generator-${hash.digest('hex').slice(0, 12)}`;
}

/** The cache key's part that says what shape a store has: its newest migration. */
async function schemaVersion(): Promise<string> {
  return `schema-${(await readdir(path.join(REPO_ROOT, MIGRATIONS))).sort().at(-1)!.replace(/\.ts$/, '')}`;
}

const exists = (file: string) => access(file).then(() => true, () => false);

/** The cached catalog file of `products` generated products from `seed`, generated when missing. */
export async function cachedCatalogFile(cacheDir: string, products: number, seed: number): Promise<string> {
  const file = path.join(cacheDir, `catalog-${products}-seed-${seed}-${await generatorVersion()}.json`);
  if (await exists(file)) return file;
  const partial = `${file}.partial-${process.pid}`;
  await mkdir(cacheDir, { recursive: true });
  try {
    await generateCatalog(products, partial, seed);
    await rename(partial, file);
    return file;
  } finally {
    await rm(partial, { force: true });
  }
}

/** The cached catalog of `products` products from `seed`, generated and imported (with the built service) when missing. */
export async function cachedCatalog(cacheDir: string, products: number, seed: number): Promise<CachedCatalog> {
  const catalogFile = await cachedCatalogFile(cacheDir, products, seed);
  const entry = path.join(cacheDir, `products-${products}-seed-${seed}-${await generatorVersion()}-${await schemaVersion()}`);
  const dataDir = path.join(entry, 'data');
  if (await exists(entry)) return { catalogFile, dataDir, importSeconds: undefined };

  const partial = `${entry}.partial-${process.pid}`;
  await rm(partial, { recursive: true, force: true });
  await mkdir(partial, { recursive: true });
  try {
    // The service seeds an empty store from CATALOG_SEED before it is ready: that start is the import.
    const started = performance.now();
    const importer = await startNodeProcess(['dist/server.js'], { DATA_DIR: path.join(partial, 'data'), CATALOG_SEED: catalogFile, LOG_LEVEL: 'warn' }, '/readyz');
    const importSeconds = (performance.now() - started) / 1000;
    const stopped = await importer.stop();
    if (stopped !== 'exit code 0') throw new Error(`the importing service stopped with ${stopped}:\n${importer.outputTail()}`);
    await rename(partial, entry);
    return { catalogFile, dataDir, importSeconds };
  } catch (error) {
    await rm(partial, { recursive: true, force: true });
    throw error;
  }
}

/**
 * A copy of the SQLite store of the cached catalog of `products` products from seed 1 (made
 * first when missing), in a temporary directory whose name starts with `prefix`: a run
 * that writes to it leaves the cache as it was. The caller removes it.
 */
export async function copyOfCachedStore(cacheDir: string, products: number, prefix: string): Promise<string> {
  const cached = await cachedCatalog(cacheDir, products, 1);
  const copy = await mkdtemp(path.join(tmpdir(), prefix));
  await cp(cached.dataDir, copy, { recursive: true });
  return copy;
}
