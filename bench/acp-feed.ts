import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, open, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import http from 'node:http';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pick from 'stream-json/filters/pick.js';
import parserStream from 'stream-json/index.js';
import streamArray from 'stream-json/streamers/stream-array.js';
import { commandLineOrExit, integerOption } from '../src/lib/command-line.js';
import { MAX_GENERATED_PRODUCTS } from '../tools/catalog-generator/catalog.js';
import { acpValidator } from '../test/support/acp-validator.js';
import { copyOfCachedStore } from './catalog-cache.js';
import { buildService, rssMb, startNodeProcess } from './service-process.js';

/*
 * The ACP product feed at scale (issue 27, "the feed document validating against
 * schema.feed.json at 100,000 products, with its size and how long it takes to produce"):
 * starts the built service as a process of its own on a copy of the benchmark's cached
 * catalog (bench/catalog-cache.ts), downloads a market's products.json to a file, once as
 * it is and once gzip-compressed, printing for each the size, the time to the first byte
 * and the total, and the server's RSS before, at its highest while the feed streams
 * (sampled every 100 ms) and after; then validates the document against the release's
 * schema.feed.json: each product of `products` as a `Product`, read back from the file
 * one at a time, and the envelope around them as `ProductsResponse` wants it.
 *
 *   npm run bench:feed -- [--products 100000] [--country IT] [--locale en] [--cache-dir DIR]
 */

const USAGE = `usage: npm run bench:feed -- [--products 100000] [--country IT] [--locale en] [--cache-dir DIR]

Builds the server and runs it on a copy of the benchmark's cached catalog of --products
(generated and imported into --cache-dir once), downloads the ACP product feed of
--country in --locale as it is and gzipped (size, time to first byte, total, server RSS),
then validates it product by product against the release's schema.feed.json.`;
const { values, products } = commandLineOrExit(
  USAGE,
  {
    options: {
      products: { type: 'string', default: '100000' },
      country: { type: 'string', default: 'IT' },
      locale: { type: 'string', default: 'en' },
      'cache-dir': { type: 'string', default: path.join(tmpdir(), 'vetrina-bench-cache') },
    },
  },
  (parsed) => ({ ...parsed, products: integerOption('--products', parsed.values.products, 1, MAX_GENERATED_PRODUCTS) }),
);

const RSS_SAMPLE_MS = 100;
/** What the served document starts and ends with: `{"products":[` ... `]}`, nothing else around the products. */
const ENVELOPE = { head: '{"products":[', tail: ']}' };

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
/** The release's schemas, when ../shared is beside the clone. */
const release = acpValidator();

await buildService();
const store = await copyOfCachedStore(path.resolve(values['cache-dir']!), products, 'vetrina-feed-');
const work = await mkdtemp(path.join(tmpdir(), 'vetrina-feed-download-'));
const service = await startNodeProcess(['dist/server.js'], { DATA_DIR: store, CATALOG_SEED: 'none', LOG_LEVEL: 'warn', CATALOG_RATE_LIMIT: '0' }, '/readyz');
try {
  const feedUrl = `${service.url}/acp/feed/${values.country}/products.json?locale=${values.locale}`;
  const served = (await (await fetch(`${service.url}/public/v1/products?country=${values.country}&limit=1`)).json()) as { count: number };
  console.log(`catalog: ${served.count} published products; the feed of ${values.country} (${values.locale}); server RSS ${await rssMb(service)} MB before`);

  const file = path.join(work, 'products.json');
  for (const coding of ['identity', 'gzip'] as const) {
    const download = await downloadTo(feedUrl, coding, coding === 'identity' ? file : path.join(work, 'products.json.gz'));
    console.log(
      `${coding === 'identity' ? 'products.json' : 'products.json, gzip'}: ${mb(download.bytes)}, first byte after ${download.firstByteMs.toFixed(0)} ms, whole after ${(download.totalMs / 1000).toFixed(2)} s; server RSS at most ${download.peakRssMb} MB while it streamed, ${await rssMb(service)} MB after`,
    );
  }
  await validate(file);
  const metadata = await (await fetch(`${service.url}/acp/feed/${values.country}/metadata.json?locale=${values.locale}`)).json();
  if (release.validator) {
    const errors = release.validator.errors('schema.feed.json', 'FeedMetadata', metadata);
    console.log(`metadata.json: ${JSON.stringify(metadata)}: ${errors.length === 0 ? 'valid FeedMetadata' : `INVALID: ${errors.join('; ')}`}`);
    if (errors.length > 0) process.exitCode = 1;
  }
} finally {
  await service.stop();
  await rm(store, { recursive: true, force: true });
  await rm(work, { recursive: true, force: true });
}

interface Download {
  bytes: number;
  firstByteMs: number;
  totalMs: number;
  peakRssMb: number;
}

/** Downloads `url` as it is sent (`coding` asked for and kept, not decoded) into `file`, sampling the server's RSS meanwhile. */
async function downloadTo(url: string, coding: 'identity' | 'gzip', file: string): Promise<Download> {
  let peakRssMb = await rssMb(service);
  const sampler = setInterval(() => void rssMb(service).then((rss) => (peakRssMb = Math.max(peakRssMb, rss))), RSS_SAMPLE_MS);
  try {
    const started = performance.now();
    const [response] = (await once(http.get(url, { headers: { 'accept-encoding': coding } }), 'response')) as [http.IncomingMessage];
    if (response.statusCode !== 200) throw new Error(`${url} answered ${response.statusCode}`);
    if ((response.headers['content-encoding'] ?? 'identity') !== coding) throw new Error(`asked for ${coding}, got ${response.headers['content-encoding']}`);
    let firstByteMs: number | undefined;
    let bytes = 0;
    const count = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        firstByteMs ??= performance.now() - started;
        bytes += chunk.length;
        done(null, chunk);
      },
    });
    await pipeline(response, count, createWriteStream(file));
    return { bytes, firstByteMs: firstByteMs ?? 0, totalMs: performance.now() - started, peakRssMb };
  } finally {
    clearInterval(sampler);
  }
}

/** Validates the downloaded document against the release, a product at a time: it is too large to parse whole. */
async function validate(file: string): Promise<void> {
  if (!release.validator) {
    console.log(`not validated: ${release.skip}`);
    process.exitCode = 1;
    return;
  }
  const { size } = await stat(file);
  const handle = await open(file);
  const head = Buffer.alloc(ENVELOPE.head.length);
  const tail = Buffer.alloc(ENVELOPE.tail.length);
  await handle.read(head, 0, head.length, 0);
  await handle.read(tail, 0, tail.length, size - tail.length);
  await handle.close();
  const envelope = head.toString() === ENVELOPE.head && tail.toString() === ENVELOPE.tail;

  const started = performance.now();
  let products = 0;
  let invalid = 0;
  const items = createReadStream(file).pipe(parserStream()).pipe(pick.asStream({ filter: 'products' })).pipe(streamArray.asStream());
  for await (const { value } of items as AsyncIterable<{ value: unknown }>) {
    products++;
    const errors = release.validator.errors('schema.feed.json', 'Product', value);
    if (errors.length > 0 && invalid++ < 5) console.log(`product ${products - 1} is not a valid Product: ${errors.join('; ')}`);
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const valid = envelope && invalid === 0 && products > 0;
  console.log(
    `schema.feed.json: ${products} products checked as Product in ${seconds} s, ${invalid} invalid; the envelope is ${envelope ? '' : 'NOT '}{"products":[...]}: ${valid ? 'a valid ProductsResponse' : 'INVALID'}`,
  );
  if (!valid) process.exitCode = 1;
}
