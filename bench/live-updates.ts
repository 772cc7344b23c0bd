import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { commandLineOrExit, integerOption, positiveNumberOption, UsageError } from '../src/lib/command-line.js';
import { MAX_GENERATED_PRODUCTS } from '../tools/catalog-generator/catalog.js';
import { copyOfCachedStore } from './catalog-cache.js';
import { followStream, startReceiver } from './delivery-clients.js';
import { changePrices, getJson, priceTargets, probeHealthz, PROBE_INTERVAL_MS, summary, timed } from './price-changes.js';
import { buildService, measure, readMemory, rssMb, startNodeProcess, type Measurement, type Memory } from './service-process.js';

/**
 * Live updates at scale, against a store that already holds a catalog (import one first
 * with `npm run catalog:import`): starts the built service on it as a process of its own
 * and reports
 * - the time from spawning the process to its first catalog answer, and its RSS;
 * - the latency of searches nobody made before (nothing cached);
 * - UPDATES admin price changes sent evenly over SECONDS while GET /healthz is probed
 *   every 20 ms: the slowest /healthz, and for each update the time until a public read
 *   serves the new price (the admin answer comes after the change is applied).
 *
 * With --rows-per-request N above 1 the changes go N at a time through POST
 * /admin/v1/prices, as a system pushing its deltas in small batches would send them.
 * With --listeners, 50 clients follow the change stream and 2 webhook receivers are
 * subscribed to price events meanwhile: it reports, per update, the time from its admin
 * answer until each stream and each receiver has it, and RSS from when they attach to the
 * end. With --read-seconds S as well, the listeners attach S seconds into the updates:
 * catalog reads (autocannon, 10 connections, a list and a search page in turn) are
 * measured for S seconds before they attach, and again for S seconds halfway through the
 * rest, so read throughput with the listeners is a ratio to the same run without them.
 *
 * With --products N instead of a store, the benchmark catalog of N products (bench/
 * catalog-cache.ts, generated and imported once) is copied to a temporary store, so the
 * updates leave the cached one as it was.
 *
 *   npm run bench:live -- --data-dir DIR | --database-url URL [--redis-url URL] | --products N [--updates 1000] [--seconds 10] [--rows-per-request 1] [--listeners [--read-seconds S]]
 *
 * The ten-minute run of issue 25 (README, "Live updates at scale"): --products 100000 --updates 10000 --seconds 600 --listeners --read-seconds 30
 */
const USAGE = `usage: npm run bench:live -- (--data-dir DIR | --database-url URL [--redis-url URL] | --products N [--cache-dir DIR]) [--updates 1000] [--seconds 10] [--rows-per-request 1] [--listeners [--read-seconds S]] [--node-options="FLAGS"] [--service-output FILE]

Builds the server and runs it on a store that holds a catalog (a SQLite --data-dir, a
PostgreSQL --database-url, or a copy of the benchmark's cached catalog of --products):
its start, new searches, then --updates admin price changes over --seconds (in requests
of --rows-per-request rows) while /healthz is probed, with the time until each new price
is served. --listeners adds 50 change streams and 2 webhook receivers; --read-seconds S
measures catalog reads for S seconds without and with them. --node-options="FLAGS" runs
the server with these Node.js and V8 flags (--max-semi-space-size=64, say), to compare
how its heap behaves under them; --service-output FILE copies all the server prints to
FILE (what --trace-gc reports, say).`;
const STREAM_LISTENERS = 50;
const WEBHOOK_LISTENERS = 2;
/** How long after the last update the listeners may take to have it. */
const LISTENER_WAIT_MS = 30_000;
const NEW_QUERIES = ['olive', 'pecorino', 'linen', 'truffle oil', 'caff', 'sicilian honey', 'wool'];
const ADMIN_TOKEN = randomBytes(24).toString('base64url');

const READ_CONNECTIONS = 10;
/**
 * How often the service's memory is sampled during the updates, and over how long the
 * samples are summed up: one sample falls anywhere between two full collections, so each
 * minute is reported by its least and its most.
 */
const MEMORY_SAMPLE_MS = 5_000;
const MEMORY_REPORT_MS = 60_000;

const { values, products, readSeconds, updates, seconds, rowsPerRequest } = commandLineOrExit(
  USAGE,
  {
    options: {
      'data-dir': { type: 'string' },
      'database-url': { type: 'string' },
      'redis-url': { type: 'string' },
      products: { type: 'string' },
      'cache-dir': { type: 'string', default: path.join(tmpdir(), 'vetrina-bench-cache') },
      updates: { type: 'string', default: '1000' },
      seconds: { type: 'string', default: '10' },
      'rows-per-request': { type: 'string', default: '1' },
      listeners: { type: 'boolean', default: false },
      'read-seconds': { type: 'string', default: '0' },
      'node-options': { type: 'string', default: '' },
      'service-output': { type: 'string' },
    },
  },
  ({ values }) => {
    const stores = [values['data-dir'], values['database-url'], values.products].filter((value) => value !== undefined);
    if (stores.length !== 1) throw new UsageError('give one store: --data-dir, --database-url or --products');
    const products = values.products === undefined ? undefined : integerOption('--products', values.products, 1, MAX_GENERATED_PRODUCTS);
    const readSeconds = integerOption('--read-seconds', values['read-seconds'], 0, 3600);
    if (readSeconds > 0 && !values.listeners) throw new UsageError('--read-seconds needs --listeners');
    const seconds = positiveNumberOption('--seconds', values.seconds, 86_400);
    if (readSeconds * 3 > seconds) {
      throw new UsageError(`--read-seconds ${readSeconds} leaves too little of --seconds ${seconds}: the second read window lies halfway through what follows the first`);
    }
    const updates = integerOption('--updates', values.updates, 1, 10_000_000);
    // Checked here, before a store is copied or a service started for a file that cannot be made.
    const outputDirectory = values['service-output'] === undefined ? undefined : path.dirname(path.resolve(values['service-output']));
    if (outputDirectory !== undefined && !existsSync(outputDirectory)) throw new UsageError(`--service-output: ${outputDirectory} is not a directory`);
    return { values, products, readSeconds, updates, seconds, rowsPerRequest: integerOption('--rows-per-request', values['rows-per-request'], 1, 10_000) };
  },
);

await buildService();
const copiedStore = products === undefined ? undefined : await copyOfCachedStore(path.resolve(values['cache-dir']!), products, 'vetrina-live-');
const spawned = performance.now();
const service = await startNodeProcess(
  [...values['node-options']!.split(' ').filter(Boolean), 'dist/server.js'],
  {
    ...(values['database-url'] ? { DATABASE_URL: values['database-url'] } : { DATA_DIR: copiedStore ?? values['data-dir']! }),
    ...(values['redis-url'] && { REDIS_URL: values['redis-url'] }),
    CATALOG_SEED: 'none',
    LOG_LEVEL: 'warn',
    CATALOG_RATE_LIMIT: '0',
    ADMIN_TOKENS: `bench:${ADMIN_TOKEN}`,
    ADMIN_RATE_LIMIT: '0',
    ...(values.listeners && { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', CHANGE_STREAM_MAX_PER_CLIENT: String(STREAM_LISTENERS) }),
  },
  '/public/v1/products?limit=1',
  { outputFile: values['service-output'] },
);
try {
  const firstAnswerMs = performance.now() - spawned;
  const get = (path: string) => getJson(service.url, path);
  const count = (await get('/public/v1/products?limit=1')).count as number;
  console.log(`${count} products served; first answer ${(firstAnswerMs / 1000).toFixed(1)} s after spawning the process; RSS ${await rssMb(service)} MB`);

  // One search first, so the measured ones pay for their own work, not for compiling the search path.
  await get('/public/v1/products?q=warm');
  for (const q of NEW_QUERIES) {
    const [page, ms] = await timed(() => get(`/public/v1/products?q=${encodeURIComponent(q)}`));
    console.log(`first search "${q}": ${ms.toFixed(1)} ms (${page.count} matches)`);
  }

  const targets = await priceTargets(service.url, updates);

  /** When each update's admin answer came, by `variant:amount` (minor units), and when each listener had it. */
  const answeredAt = new Map<string, number>();
  const arrivals: { stream: [string, number][]; webhook: [string, number][] } = { stream: [], webhook: [] };
  // Without read windows the listeners attach before the first update.
  let listeners = values.listeners && readSeconds === 0 ? await startListeners(arrivals) : undefined;
  let attachedAt = performance.now();
  let rssBefore = await rssMb(service);
  const reads: { without?: Measurement; with?: Measurement } = {};

  /** Each sample with when it was asked for: one that fails is missing from its own minute only, and one that answers late still counts in it. */
  const memory: { askedAt: number; sample: Memory }[] = [];
  const samplingFrom = performance.now();
  const sampling = setInterval(() => {
    const askedAt = performance.now() - samplingFrom;
    void readMemory(service.url).then((sample) => sample && memory.push({ askedAt, sample }));
  }, MEMORY_SAMPLE_MS);
  const probes = probeHealthz(service.url);
  const started = performance.now();
  const readWindows = (async () => {
    if (readSeconds === 0) return;
    reads.without = await measureReads();
    listeners = await startListeners(arrivals);
    attachedAt = performance.now();
    rssBefore = await rssMb(service);
    const halfway = attachedAt + (started + seconds * 1000 - attachedAt - readSeconds * 1000) / 2;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, halfway - performance.now())));
    reads.with = await measureReads();
  })();
  const { answered, served, refused, elapsedSeconds } = await changePrices(service.url, ADMIN_TOKEN, targets, { updates, seconds, rowsPerRequest }, (key, at) => answeredAt.set(key, at));
  await readWindows;
  clearInterval(sampling);
  const healthz = await probes.stop();
  console.log(`${answered.length} price updates (${rowsPerRequest} per request) in ${elapsedSeconds.toFixed(1)} s; RSS ${await rssMb(service)} MB`);
  if (refused.size > 0) console.log(`refused: ${[...refused].map(([status, count]) => `${count} × ${status}`).join(', ')}`);
  console.log(summary('admin answer', answered));
  console.log(summary('until a public read serves it', served));
  console.log(summary(`GET /healthz every ${PROBE_INTERVAL_MS} ms`, healthz));
  if (memory.length > 0) {
    memory.sort((a, b) => a.askedAt - b.askedAt);
    const reports: Memory[][] = [];
    for (const { askedAt, sample } of memory) (reports[Math.floor(askedAt / MEMORY_REPORT_MS)] ??= []).push(sample);
    const rounded = (samples: Memory[], of: (sample: Memory) => number) => samples.map((sample) => Math.round(of(sample)));
    const range = (samples: Memory[], of: (sample: Memory) => number) => `${Math.min(...rounded(samples, of))}–${Math.max(...rounded(samples, of))}`;
    const report = (samples: Memory[]) =>
      [range(samples, (sample) => sample.rssMib), Math.min(...rounded(samples, (sample) => sample.heapMib)), range(samples, (sample) => sample.heapTotalMib), Math.round(samples.at(-1)!.externalMib)].join(' / ');
    console.log(
      `each ${MEMORY_REPORT_MS / 1000} s of samples every ${MEMORY_SAMPLE_MS / 1000} s, RSS least–most / heap in use least / heap reserved least–most / outside the heap at the last (MiB): ${Array.from(reports, (samples) => (samples ? report(samples) : 'no sample')).join(', ')}`,
    );
    const spaces = (sample: Memory) => Object.entries(sample.heapSpacesMib).map(([space, mib]) => `${space} ${Math.round(mib)}`).join(', ');
    console.log(`heap reserved by space (MiB), first sample: ${spaces(memory[0]!.sample)}; last: ${spaces(memory.at(-1)!.sample)}`);
  }
  if (reads.without && reads.with) {
    const line = (label: string, reads: Measurement) => `${label}: ${Math.round(reads.requestsPerSecond)} requests/s, p50 ${reads.p50.toFixed(1)} ms, p99 ${reads.p99.toFixed(1)} ms, ${reads.errors} errors`;
    console.log(line(`catalog reads without listeners (${readSeconds} s, ${READ_CONNECTIONS} connections)`, reads.without));
    console.log(line(`catalog reads with ${STREAM_LISTENERS} streams and ${WEBHOOK_LISTENERS} receivers`, reads.with));
    console.log(`read throughput with the listeners: ${(reads.with.requestsPerSecond / reads.without.requestsPerSecond).toFixed(2)} × without`);
  }
  if (listeners) await reportListeners(listeners, new Map([...answeredAt].filter(([, at]) => at >= attachedAt)), arrivals, rssBefore);
} catch (error) {
  // What the service printed last says whether it failed, not only that a request did.
  console.error(`the service's last output (${service.pid}):\n${service.outputTail()}`);
  throw error;
} finally {
  await service.stop();
  if (copiedStore) await rm(copiedStore, { recursive: true, force: true });
}

/** Catalog reads for --read-seconds: the Italian market's first list page and a search, in turn. */
function measureReads(): Promise<Measurement> {
  return measure({
    url: service.url,
    connections: READ_CONNECTIONS,
    duration: readSeconds,
    requests: [{ path: '/public/v1/products?country=IT&limit=20' }, { path: '/public/v1/products?country=IT&q=olive&limit=20' }],
  });
}

/** 50 stream clients and 2 subscribed receivers; each arrival is recorded as `variant:amount` and when it came. */
async function startListeners(arrivals: { stream: [string, number][]; webhook: [string, number][] }) {
  const streams = Array.from({ length: STREAM_LISTENERS }, () =>
    followStream(service.url, 'country=IT', undefined, (entry, at) => {
      for (const variant of entry.product?.variants ?? []) arrivals.stream.push([`${variant.id}:${Math.round(variant.price.amount * 100)}`, at]);
    }),
  );
  const receivers = await Promise.all(Array.from({ length: WEBHOOK_LISTENERS }, () => startReceiver({ failRate: 0, slowRate: 0, slowAnswerMs: 0 })));
  for (const receiver of receivers) {
    const response = await fetch(`${service.url}/admin/v1/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiver.url, event_types: ['variant.price_changed'], description: 'bench:live' }),
    });
    if (!response.ok) throw new Error(`subscribing a receiver: ${response.status} ${await response.text()}`);
    receiver.secret = ((await response.json()) as { secret: string }).secret;
  }
  return { streams, receivers, webhookArrivals: () => receivers.flatMap((receiver) => [...receiver.received.values()].map(({ event, at }) => [`${event.data.variant_id}:${event.data.new}`, at] as [string, number])) };
}

/** Waits until every listener has every update (at most LISTENER_WAIT_MS), then prints the lags from the admin answers. */
async function reportListeners(listeners: Awaited<ReturnType<typeof startListeners>>, answeredAt: Map<string, number>, arrivals: { stream: [string, number][] }, rssBefore: number) {
  const lags = (found: [string, number][]) => found.filter(([key]) => answeredAt.has(key)).map(([key, at]) => Math.max(0, at - answeredAt.get(key)!));
  const deadline = performance.now() + LISTENER_WAIT_MS;
  const complete = () => lags(arrivals.stream).length >= answeredAt.size * STREAM_LISTENERS && lags(listeners.webhookArrivals()).length >= answeredAt.size * WEBHOOK_LISTENERS;
  while (!complete() && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
  const [streamLags, webhookLags] = [lags(arrivals.stream), lags(listeners.webhookArrivals())];
  console.log(`listeners: ${STREAM_LISTENERS} change streams had ${streamLags.length} of ${answeredAt.size * STREAM_LISTENERS} updates, ${WEBHOOK_LISTENERS} webhook receivers ${webhookLags.length} of ${answeredAt.size * WEBHOOK_LISTENERS}; stream reconnects ${listeners.streams.reduce((sum, stream) => sum + stream.reconnects, 0)}, signature failures ${listeners.receivers.reduce((sum, receiver) => sum + receiver.signatureFailures, 0)}`);
  if (streamLags.length > 0) console.log(summary('admin answer to a change stream event', streamLags));
  if (webhookLags.length > 0) console.log(summary('admin answer to a webhook received', webhookLags));
  console.log(`RSS with the listeners: ${rssBefore} MB before the updates, ${await rssMb(service)} MB after`);
  for (const stream of listeners.streams) stream.close();
  for (const receiver of listeners.receivers) receiver.close();
}
