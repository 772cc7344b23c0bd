import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { GENERATED_CATEGORIES, GENERATED_COLLECTIONS, GENERATED_REGIONS, MAX_GENERATED_PRODUCTS, generateProducts } from './catalog-generator/catalog.js';

const USAGE = 'usage: npm run catalog:generate -- --products N --out FILE [--seed S]';
const EXIT_USAGE = 2;
// Big enough that a million products means a few thousand writes, not millions.
const CHUNK_CHARS = 1 << 20;

interface CliOptions {
  products: number;
  out: string;
  seed: number;
}

class UsageError extends Error {}

function parseCli(argv: string[]): CliOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { products: { type: 'string' }, out: { type: 'string' }, seed: { type: 'string', default: '1' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const products = parseInteger('--products', values.products, 1, MAX_GENERATED_PRODUCTS);
  const seed = parseInteger('--seed', values.seed, 0, 0xffffffff);
  if (values.out === undefined || values.out === '') throw new UsageError('--out is required');
  return { products, out: values.out, seed };
}

function parseInteger(flag: string, text: string | undefined, min: number, max: number): number {
  if (text === undefined) throw new UsageError(`${flag} is required`);
  const value = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new UsageError(`${flag} must be an integer from ${min} to ${max}, got "${text}"`);
  }
  return value;
}

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
  const options = parseCli(process.argv.slice(2));
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
  if (error instanceof UsageError) {
    console.error(`${error.message}\n${USAGE}`);
    process.exitCode = EXIT_USAGE;
    return;
  }
  console.error(error);
  process.exitCode = 1;
});
