import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EVENT_TYPES } from '../src/delivery/events.js';
import { deleteRedisKeys, uniqueRedisPrefix } from '../test/support/redis-keys.js';
import { createDatabase } from '../test/support/test-app.js';
import { commandLineOrExit, integerOption, UsageError, type Parsed } from '../src/lib/command-line.js';
import { followStream, startReceiver } from './delivery-clients.js';
import { buildService, startNodeProcess, type RunningProcess } from './service-process.js';

/**
 * The proofs of issue 25 against built servers: two instances (dist/server.js) on one
 * temporary PostgreSQL database and one Redis key prefix, the demo catalog. A receiver on
 * 127.0.0.1, subscribed to every event type through instance A's admin API, answers 500
 * to a share of the requests (--fail-rate) and answers another share (--slow-rate) only
 * after the webhook time-out, verifying every signature (standardwebhooks). An SSE client
 * follows instance B's change stream. The run makes --changes price changes (one EUR
 * price of reg_it each, a distinct amount, so one catalog version and one
 * variant.price_changed event each), one at a time through A and B alternately; about
 * halfway it kills A with SIGKILL and writes through B only (A is started again at three
 * quarters, to take part in delivery). Then it waits until the receiver has every event.
 * Exits 1 when an event is missing, a signature failed, or the stream's p99 lag from a
 * write's answer to its event on B exceeds 1 s. Removes the servers, the database and the
 * Redis keys in every case.
 */
const USAGE = `usage: npm run bench:delivery -- [--changes 2000] [--fail-rate 0.3] [--slow-rate 0.05]

Builds the server and runs two instances on a temporary PostgreSQL database and Redis
prefix; they deliver a webhook per price change to a receiver that fails and stalls on
purpose, while one instance is killed and restarted; exits 1 when an event is missing,
a signature fails, or the change stream's p99 lag passes 1 s.`;
const ARGUMENTS = {
  options: { changes: { type: 'string', default: '2000' }, 'fail-rate': { type: 'string', default: '0.3' }, 'slow-rate': { type: 'string', default: '0.05' } },
} as const;
const POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = 'redis://127.0.0.1:6379';
const WEBHOOK_TIMEOUT_MS = 2000;
/** How much later than the time-out a slow answer comes. */
const SLOW_EXTRA_MS = 500;
/** With a 30% failure rate and a 5% slow rate, 20 attempts leave a delivery given up about once in 10^9. */
const WEBHOOK_MAX_ATTEMPTS = 20;
const DELIVERY_WAIT_MS = 180_000;
const STREAM_WAIT_MS = 10_000;
const STREAM_P99_LIMIT_MS = 1000;
const ADMIN_TOKEN = randomBytes(24).toString('base64url');

interface Options {
  changes: number;
  failRate: number;
  slowRate: number;
}

function deliveryOptions({ values }: Parsed<typeof ARGUMENTS>): Options {
  const changes = integerOption('--changes', values.changes, 2, 100_000);
  const rate = (flag: string, text: string) => {
    const value = /^\d+(\.\d+)?$/.test(text) ? Number(text) : NaN;
    if (!(value >= 0 && value < 1)) throw new UsageError(`${flag} must be a number from 0 to below 1, got "${text}"`);
    return value;
  };
  const options = { changes, failRate: rate('--fail-rate', values['fail-rate']), slowRate: rate('--slow-rate', values['slow-rate']) };
  if (options.failRate + options.slowRate >= 1) throw new UsageError('--fail-rate and --slow-rate together must stay below 1, or nothing is ever delivered');
  return options;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function call(base: string, method: string, route: string, body?: unknown): Promise<any> {
  const response = await fetch(`${base}${route}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** One SKU of every published product of the demo catalog. */
async function skus(base: string): Promise<string[]> {
  const found: string[] = [];
  for (let cursor: string | null = null; ; ) {
    const page: any = await call(base, 'GET', `/public/v1/products?limit=20&country=IT${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    for (const product of page.products) if (product.variants.length > 0) found.push(product.variants[0].sku);
    cursor = page.next_cursor;
    if (!cursor) return found;
  }
}

const percentile = (sorted: number[], p: number) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!);

async function run(options: Options, cleanups: (() => Promise<unknown>)[]): Promise<boolean> {
  await buildService();
  const work = await mkdtemp(path.join(tmpdir(), 'vetrina-delivery-'));
  cleanups.push(() => rm(work, { recursive: true, force: true }));
  const database = await createDatabase(POSTGRES_URL);
  cleanups.push(() => database.drop());
  const redisKeyPrefix = uniqueRedisPrefix();
  cleanups.push(() => deleteRedisKeys(REDIS_URL, redisKeyPrefix));
  const env = (seed: string) => ({
    DATA_DIR: path.join(work, 'data'),
    DATABASE_URL: database.url,
    REDIS_URL,
    REDIS_KEY_PREFIX: redisKeyPrefix,
    CATALOG_SEED: seed,
    ADMIN_TOKENS: `chaos:${ADMIN_TOKEN}`,
    CATALOG_RATE_LIMIT: '0',
    ADMIN_RATE_LIMIT: '0',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOK_TIMEOUT_MS: String(WEBHOOK_TIMEOUT_MS),
    WEBHOOK_RETRY_BASE_MS: '100',
    WEBHOOK_RETRY_MAX_DELAY_MS: '3000',
    WEBHOOK_MAX_ATTEMPTS: String(WEBHOOK_MAX_ATTEMPTS),
    WEBHOOK_POLL_MS: '200',
    LOG_LEVEL: 'warn',
  });
  const servers: RunningProcess[] = [];
  const start = async (seed: string) => {
    const server = await startNodeProcess(['dist/server.js'], env(seed), '/readyz');
    servers.push(server);
    return server;
  };
  cleanups.push(() => Promise.all(servers.map((server) => server.stop())));
  // One after the other: A migrates and imports the demo catalog, B finds both done.
  let a = await start('demo');
  const b = await start('none');

  const receiver = await startReceiver({ ...options, slowAnswerMs: WEBHOOK_TIMEOUT_MS + SLOW_EXTRA_MS });
  cleanups.push(async () => receiver.close());
  const subscribed = await call(a.url, 'POST', '/admin/v1/webhooks', { url: receiver.url, event_types: EVENT_TYPES, description: 'delivery chaos' });
  receiver.secret = subscribed.secret as string;

  const targets = await skus(b.url);
  const feed = await call(b.url, 'GET', '/public/v1/changes?country=IT');
  const firstVersion = feed.catalog_version as number;
  /** When B's stream first delivered each catalog version (performance.now()). */
  const seen = new Map<number, number>();
  const stream = followStream(b.url, 'country=IT', feed.next_cursor as string, (entry: { catalog_version: number }, at) => {
    if (!seen.has(entry.catalog_version)) seen.set(entry.catalog_version, at);
  });
  cleanups.push(async () => stream.close());

  console.log(
    `\nDelivery chaos: ${options.changes} price changes through instances A and B (PostgreSQL + Redis, demo catalog, ${targets.length} products), ` +
      `receiver fails ${options.failRate * 100}% and answers ${options.slowRate * 100}% after the ${WEBHOOK_TIMEOUT_MS} ms time-out, node ${process.version}`,
  );
  /** When each change's write answered, by the catalog version it made: one version per change, since they are made one at a time. */
  const answeredAt = new Map<number, number>();
  const killAt = Math.floor(options.changes / 2);
  const restartAt = Math.floor((options.changes * 3) / 4);
  let aAlive = true;
  const writesStarted = performance.now();
  for (let index = 0; index < options.changes; index++) {
    if (index === killAt) {
      process.kill(a.pid, 'SIGKILL');
      console.log(`change ${index}: instance A killed (${await a.exited}); writing through B only`);
      aAlive = false;
    }
    if (index === restartAt) {
      a = await start('none');
      console.log(`change ${index}: instance A started again (delivery only)`);
    }
    const through = aAlive && index % 2 === 0 ? a : b;
    await call(through.url, 'POST', '/admin/v1/prices', { rows: [{ sku: targets[index % targets.length], currency: 'EUR', region: 'reg_it', amount: 100_000 + index }] });
    answeredAt.set(firstVersion + index + 1, performance.now());
  }
  const writeSeconds = (performance.now() - writesStarted) / 1000;
  const lastVersion = (await call(b.url, 'GET', '/public/v1/changes?country=IT')).catalog_version as number;
  console.log(`${options.changes} changes in ${writeSeconds.toFixed(1)} s; catalog version ${firstVersion} -> ${lastVersion}`);
  const versionsOk = lastVersion === firstVersion + options.changes;

  const expected = [...answeredAt.keys()];
  const receivedVersions = () => new Set([...receiver.received.values()].map(({ event }) => event.catalog_version));
  const deliveryDeadline = performance.now() + DELIVERY_WAIT_MS;
  while (performance.now() < deliveryDeadline && expected.some((version) => !receivedVersions().has(version))) await sleep(500);
  const deliveredAfter = (performance.now() - writesStarted) / 1000;
  const streamDeadline = performance.now() + STREAM_WAIT_MS;
  while (performance.now() < streamDeadline && expected.some((version) => !seen.has(version))) await sleep(100);

  const versions = receivedVersions();
  const missing = expected.filter((version) => !versions.has(version));
  const events = [...receiver.received.values()];
  const duplicates = events.reduce((sum, { count }) => sum + count - 1, 0);
  const unexpected = events.filter(({ event }) => !answeredAt.has(event.catalog_version) || event.type !== 'variant.price_changed').length;
  console.log('\nWebhooks (receiver on 127.0.0.1, subscribed through A):');
  console.log(`  changes made ${options.changes}, events expected ${expected.length}, distinct event ids received ${receiver.received.size} (${unexpected} not one of the changes' price events)`);
  console.log(`  duplicates received ${duplicates} (at least once), missing ${missing.length}, signature failures ${receiver.signatureFailures}`);
  console.log(`  requests ${receiver.requests}: answered 500 ${receiver.refused}, answered after the time-out ${receiver.slow}; ${missing.length === 0 ? 'every event received' : 'stopped waiting'} ${deliveredAfter.toFixed(1)} s after the first write`);
  if (missing.length > 0) console.log(`  missing catalog versions (first 10): ${missing.slice(0, 10).join(', ')}`);

  const lags = expected.filter((version) => seen.has(version)).map((version) => Math.max(0, seen.get(version)! - answeredAt.get(version)!));
  lags.sort((x, y) => x - y);
  const p99 = percentile(lags, 99);
  console.log(`\nSSE stream on B: saw ${lags.length} of ${expected.length} changes, reconnects ${stream.reconnects}`);
  console.log(`  lag from the write's answer to the event: p50 ${percentile(lags, 50).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${(lags.at(-1) ?? NaN).toFixed(1)} ms (goal p99 <= ${STREAM_P99_LIMIT_MS} ms)`);

  const problems = [
    !versionsOk && `the catalog version moved by ${lastVersion - firstVersion}, not ${options.changes}`,
    missing.length > 0 && `${missing.length} events missing`,
    receiver.signatureFailures > 0 && `${receiver.signatureFailures} signature failures`,
    !(p99 <= STREAM_P99_LIMIT_MS) && `stream p99 ${p99.toFixed(1)} ms`,
  ].filter(Boolean);
  console.log(problems.length === 0 ? '\nPASS' : `\nFAIL: ${problems.join('; ')}`);
  return problems.length === 0;
}

const options = commandLineOrExit(USAGE, ARGUMENTS, deliveryOptions);
const cleanups: (() => Promise<unknown>)[] = [];
try {
  process.exitCode = (await run(options, cleanups)) ? 0 : 1;
} finally {
  for (const cleanup of cleanups.reverse()) await cleanup().catch((error: unknown) => console.error(`cleanup: ${(error as Error).message}`));
}
