import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deleteRedisKeys, uniqueRedisPrefix } from '../test/support/redis-keys.js';
import { createDatabase } from '../test/support/test-app.js';
import { commandLineOrExit } from '../src/lib/command-line.js';
import { SOAK_ARGUMENTS, SOAK_USAGE, soakOptions, type SoakOptions } from './soak-options.js';
import { buildService, generateCatalog, readMemory, startNodeProcess, type Memory, type RunningProcess } from './service-process.js';
import { FLOW_KINDS, KINDS, LoadStats, runWorkload, sampleCatalog, type Tally, type Window } from './soak-workload.js';

/**
 * Endurance run: a separate Vetrina process (built dist/, its own temporary store, rate
 * limits off so the service is measured and not its limiter) under a realistic mix of
 * catalog reads, sandbox flows and MCP calls for a fixed time. Every 10 s one line:
 * throughput, p99, failures, the server's RSS and heap; then a summary. Exits 1 when
 * any request failed (5xx, unexpected answer, transport error) or the server died.
 */
const REPORT_INTERVAL_MS = 10_000;
const MIN_REPORTED_WINDOW_S = 1;

/**
 * The service's store for this run only: a SQLite file under `work`, or a new database
 * on the given PostgreSQL server; with Redis, a key prefix of its own. Removed afterwards.
 */
async function temporaryStore(options: SoakOptions, work: string): Promise<{ env: Record<string, string>; remove(): Promise<void> }> {
  const database = options.databaseUrl ? await createDatabase(options.databaseUrl) : undefined;
  const redisKeyPrefix = options.redisUrl ? uniqueRedisPrefix() : undefined;
  return {
    env: {
      DATA_DIR: path.join(work, 'data'),
      ...(database && { DATABASE_URL: database.url }),
      ...(options.redisUrl && redisKeyPrefix && { REDIS_URL: options.redisUrl, REDIS_KEY_PREFIX: redisKeyPrefix }),
    },
    remove: async () => {
      await database?.drop();
      if (options.redisUrl && redisKeyPrefix) await deleteRedisKeys(options.redisUrl, redisKeyPrefix);
    },
  };
}

const round = (value: number) => value.toFixed(value < 10 ? 1 : 0);
const perSecond = (tally: Tally, window: Window) => tally.requests / window.seconds;

function formatMemory(memory: Memory | undefined): string {
  return memory ? `RSS ${round(memory.rssMib)} MiB, heap ${round(memory.heapMib)} MiB` : 'memory n/a (no answer from /metrics)';
}

function formatFailures(tally: Tally): string {
  return `5xx ${tally.serverErrors}, unexpected ${tally.unexpected}, transport errors ${tally.transportErrors}`;
}

function reportLine(elapsedSeconds: number, window: Window, memory: Memory | undefined): string {
  const kinds = KINDS.map((kind) => `${kind} ${round(perSecond(window.byKind[kind], window))}/s p99 ${round(window.byKind[kind].percentileMs(99))} ms`);
  return [
    `[${String(Math.round(elapsedSeconds)).padStart(5)} s] ${round(perSecond(window.all, window))} req/s, p99 ${round(window.all.percentileMs(99))} ms`,
    kinds.join(', '),
    formatFailures(window.all),
    formatMemory(memory),
  ].join(' | ');
}

function printSummary(stats: LoadStats, idle: Memory | undefined, samples: Memory[], serverExit: string | undefined): void {
  const { total } = stats;
  console.log(`\nSummary after ${round(total.seconds)} s (${serverExit ?? 'server alive'}):`);
  console.log('| kind | requests | req/s | p50 ms | p99 ms | max ms | 5xx | unexpected | transport errors | flows to checkout |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const [name, tally] of [...KINDS.map((kind) => [kind, total.byKind[kind]] as const), ['all', total.all] as const]) {
    const flows = FLOW_KINDS.some((kind) => kind === name) ? String(tally.flows) : '';
    console.log(
      `| ${name} | ${tally.requests} | ${round(perSecond(tally, total))} | ${round(tally.percentileMs(50))} | ${round(tally.percentileMs(99))} | ${round(tally.percentileMs(100))} | ${tally.serverErrors} | ${tally.unexpected} | ${tally.transportErrors} | ${flows} |`,
    );
  }
  if (samples.length > 0) {
    const rss = samples.map((memory) => memory.rssMib);
    console.log(
      `RSS MiB: idle ${idle ? round(idle.rssMib) : 'n/a'}, first report ${round(rss[0]!)}, last ${round(rss.at(-1)!)}, max ${round(Math.max(...rss))}; ` +
        `heap MiB: idle ${idle ? round(idle.heapMib) : 'n/a'}, first report ${round(samples[0]!.heapMib)}, last ${round(samples.at(-1)!.heapMib)}`,
    );
  }
  for (const failure of stats.failureSamples) console.log(`failure: ${failure}`);
}

async function soak(options: SoakOptions, work: string, cleanups: (() => Promise<unknown>)[]): Promise<boolean> {
  let catalogSeed = 'demo';
  if (options.products !== undefined) {
    catalogSeed = path.join(work, 'catalog.json');
    await generateCatalog(options.products, catalogSeed);
  }
  await buildService();
  const store = await temporaryStore(options, work);
  cleanups.push(() => store.remove());
  const service: RunningProcess = await startNodeProcess(
    ['dist/server.js'],
    {
      ...store.env,
      CATALOG_SEED: catalogSeed,
      CATALOG_RATE_LIMIT: '0',
      SANDBOX_KEY_RATE_LIMIT: '0',
      SANDBOX_CART_RATE_LIMIT: '0',
      LOG_LEVEL: 'warn',
    },
    '/readyz',
  );
  cleanups.push(() => service.stop());
  let serverExit: string | undefined;
  void service.exited.then((how) => (serverExit = `the server ended during the run (${how})`));

  const sample = await sampleCatalog(service.url);
  const idle = await readMemory(service.url);
  const profile = `${options.databaseUrl ? 'PostgreSQL' : 'SQLite'}${options.redisUrl ? ' + Redis' : ''}`;
  const catalog = options.products === undefined ? 'demo catalog' : `${options.products} generated products`;
  console.log(`\nSoak: ${options.minutes} min, ${options.connections} connections, ${catalog}, ${profile}, node ${process.version}, server pid ${service.pid}`);
  console.log(`idle server: ${formatMemory(idle)}`);

  const stats = new LoadStats();
  const samples: Memory[] = [];
  const deadline = performance.now() + options.minutes * 60_000;
  const running = () => performance.now() < deadline && serverExit === undefined;
  const report = async (window: Window) => {
    const elapsed = stats.total.seconds;
    const memory = await readMemory(service.url);
    if (memory) samples.push(memory);
    // The last window can be a moment long, and rates over a moment mean nothing.
    if (window.seconds >= MIN_REPORTED_WINDOW_S) console.log(reportLine(elapsed, window, memory));
  };
  const reporter = setInterval(() => void report(stats.takeWindow()), REPORT_INTERVAL_MS);
  await runWorkload({ baseUrl: service.url, connections: options.connections, sample, stats, running });
  clearInterval(reporter);
  await report(stats.finish());

  printSummary(stats, idle, samples, serverExit);
  if (serverExit === undefined && options.idleSeconds > 0) {
    console.log(`idling ${options.idleSeconds} s with no traffic`);
    await Promise.race([service.exited, new Promise((resolve) => setTimeout(resolve, options.idleSeconds * 1000))]);
    console.log(serverExit ?? `after ${options.idleSeconds} s idle: ${formatMemory(await readMemory(service.url))}`);
  }
  // Read before the stop below, which ends the server too.
  const died = serverExit;
  // A graceful stop that exits 0 is part of a passing run.
  let stopped: string | undefined;
  if (died === undefined) {
    stopped = await service.stop();
    console.log(`SIGTERM: the server ended with ${stopped}`);
  }
  if (died && service.outputTail()) console.log(`server output, last lines:\n${service.outputTail()}`);
  const passed = stats.total.all.failures === 0 && died === undefined && stopped === 'exit code 0' && stats.total.all.requests > 0;
  const problems = [formatFailures(stats.total.all), died, stopped !== undefined && stopped !== 'exit code 0' && `stopped with ${stopped}`];
  console.log(passed ? 'PASS: no failed request, clean stop' : `FAIL: ${problems.filter(Boolean).join('; ')}`);
  return passed;
}

const options: SoakOptions = commandLineOrExit(SOAK_USAGE, SOAK_ARGUMENTS, soakOptions);
const work = await mkdtemp(path.join(tmpdir(), 'vetrina-soak-'));
const cleanups: (() => Promise<unknown>)[] = [];
try {
  process.exitCode = (await soak(options, work, cleanups)) ? 0 : 1;
} finally {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await rm(work, { recursive: true, force: true });
}
