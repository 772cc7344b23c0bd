import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { commandLineOrExit, integerOption, UsageError } from '../src/lib/command-line.js';
import { GENERATED_CATEGORIES, GENERATED_COLLECTIONS, GENERATED_REGIONS, MAX_GENERATED_PRODUCTS, generateProducts } from './catalog-generator/catalog.js';

const USAGE = `usage: npm run catalog:generate -- --products N --out FILE [--seed S]

Writes a generated catalog file of N products (1 to ${MAX_GENERATED_PRODUCTS}) to FILE, for imports
and benchmarks: the same seed (default 1) always makes the same file.`;
// Big enough that a million products means a few thousand writes, not millions.
const CHUNK_CHARS = 1 << 20;

interface CliOptions {
  products: number;
  out: string;
  seed: number;
}

const cliOptions = (): CliOptions =>
  commandLineOrExit(USAGE, { options: { products: { type: 'string' }, out: { type: 'string' }, seed: { type: 'string', default: '1' } } }, ({ values }) => {
    if (values.products === undefined) throw new UsageError('--products is required');
    if (values.out === undefined || values.out === '') throw new UsageError('--out is required');
    return { products: integerOption('--products', values.products, 1, MAX_GENERATED_PRODUCTS), out: values.out, seed: integerOption('--seed', values.seed, 0, 0xffffffff) };
  });

interface WriteStats {
  variants: number;
  bytes: number;
}

/**
 * One product per line, written in ~1 MB chunks: a single JSON.stringify of a million
 * products would exceed V8's maximum string length, and per-product writes are slow.
 */
async function* catalogChunks(options: CliOptions, stats: WriteStats): AsyncGenerator<string> {
  // The header's members before the products, so that the importer checks each product as it streams by.
  const header = JSON.stringify({ version: 1, regions: GENERATED_REGIONS, categories: GENERATED_CATEGORIES, collections: GENERATED_COLLECTIONS });
  let chunk = `${header.slice(0, -'}'.length)},"products":[\n`;
  let first = true;
  for (const product of generateProducts(options)) {
    chunk += (first ? '' : ',\n') + JSON.stringify(product);
    first = false;
    stats.variants += product.variants.length;
    if (chunk.length >= CHUNK_CHARS) {
      stats.bytes += Buffer.byteLength(chunk);
      yield chunk;
      chunk = '';
    }
  }
  chunk += '\n]}\n';
  stats.bytes += Buffer.byteLength(chunk);
  yield chunk;
}

async function main(): Promise<void> {
  const options = cliOptions();
  const started = performance.now();
  const stats: WriteStats = { variants: 0, bytes: 0 };
  await pipeline(Readable.from(catalogChunks(options, stats)), createWriteStream(options.out));
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const megabytes = (stats.bytes / 1e6).toFixed(1);
  console.log(
    `wrote ${options.products} products (${stats.variants} variants, ${megabytes} MB) to ${options.out} with seed ${options.seed} in ${seconds} s`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
