import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createHistogram, type RecordableHistogram } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { loadConfig } from '../src/config.js';
import { commandLineOrExit, integerOption, positiveNumberOption } from '../src/lib/command-line.js';
import { MAX_GENERATED_PRODUCTS } from '../tools/catalog-generator/catalog.js';
import { buildService, generateCatalog, percentileMs, pinToSeparateCpus, startNodeProcess, type RunningProcess } from './service-process.js';

/**
 * The JSON-RPC batch attack of issue 23 against a separate Vetrina process (built dist/,
 * the default catalog limit): a victim on 127.0.0.2 reads /healthz and a cached catalog
 * page, once alone and once while an attacker on 127.0.0.1 posts batches of
 * `--batch` search_catalog calls (sorted by title, a random price_max) to /mcp as fast
 * as its window allows (after a 429, again when Retry-After says). Reports the attacker's answers by status and when its first 429
 * came, and the victim's latencies in both runs. Exits 1 when the victim's /healthz p99
 * reaches 50 ms or its catalog p50 grows past 1.5 times the run without the attacker.
 * Usage: npm run bench:attack -- [--products 10000] [--seconds 20] [--batch N] [--attackers 4]
 * `--batch` defaults to the largest batch the server serves (MCP_BATCH_MAX_MESSAGES), so the
 * calls run; a larger one shows the refusal path.
 */
const USAGE = `usage: npm run bench:attack -- [--products 10000] [--seconds 20] [--batch N] [--attackers 4]

Builds the server and runs it on a generated catalog of --products; a victim reads
/healthz and a catalog page, alone and then while --attackers connections post JSON-RPC
batches of --batch search_catalog calls to /mcp for --seconds (--batch defaults to the
largest batch served, MCP_BATCH_MAX_MESSAGES). Exits 1 when the victim's /healthz p99
reaches 50 ms or its catalog p50 grows past 1.5 times the run without the attacker.`;
const [products, seconds, batchSize, attackers] = commandLineOrExit(
  USAGE,
  {
    options: {
      products: { type: 'string', default: '10000' },
      seconds: { type: 'string', default: '20' },
      batch: { type: 'string', default: String(loadConfig({}).mcpBatch.maxMessages) },
      attackers: { type: 'string', default: '4' },
    },
  },
  ({ values }) => [
    integerOption('--products', values.products, 1, MAX_GENERATED_PRODUCTS),
    positiveNumberOption('--seconds', values.seconds, 3600),
    integerOption('--batch', values.batch, 1, 10_000),
    integerOption('--attackers', values.attackers, 1, 1024),
  ],
) as [number, number, number, number];
/** The victim's pace: /healthz is not rate limited; its catalog reads stay within its own window (120 a minute by default). */
const HEALTH_EVERY_MS = 50;
const CATALOG_EVERY_MS = 600;
const HEALTH_P99_LIMIT_MS = 50;
const CATALOG_SLOWDOWN_LIMIT = 1.5;
const VICTIM_ADDRESS = '127.0.0.2';
/** Requests of the freshly started server before anything is measured. */
const WARM_UP_MS = 3000;

const victimAgent = new Agent({ localAddress: VICTIM_ADDRESS });
let vetrina: RunningProcess | undefined;
const work = await mkdtemp(path.join(tmpdir(), 'vetrina-bench-attack-'));

interface VictimRun {
  health: RecordableHistogram;
  catalog: RecordableHistogram;
  failures: number;
}

/** Requests `url` every `everyMs` until `until`, recording each answer's latency in microseconds. */
async function paced(url: string, everyMs: number, until: number, latency: RecordableHistogram): Promise<number> {
  let failures = 0;
  while (performance.now() < until) {
    const started = performance.now();
    const response = await request(url, { dispatcher: victimAgent });
    await response.body.arrayBuffer();
    if (response.statusCode === 200) latency.record(Math.max(1, Math.round((performance.now() - started) * 1000)));
    else failures++;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, everyMs - (performance.now() - started))));
  }
  return failures;
}

async function victim(base: string, until: number): Promise<VictimRun> {
  const run = { health: createHistogram(), catalog: createHistogram(), failures: 0 };
  const failures = await Promise.all([
    paced(`${base}/healthz`, HEALTH_EVERY_MS, until, run.health),
    paced(`${base}/public/v1/products?limit=20`, CATALOG_EVERY_MS, until, run.catalog),
  ]);
  return { ...run, failures: failures[0]! + failures[1]! };
}

function attackBatch(): object[] {
  return Array.from({ length: batchSize }, (_, index) => ({
    jsonrpc: '2.0',
    id: index + 1,
    method: 'tools/call',
    params: { name: 'search_catalog', arguments: { sort: 'title', limit: 20, price_max: 1 + Math.floor(Math.random() * 500) } },
  }));
}

/** One attacker connection: posts batches back to back until `until`, after a 429 as soon as Retry-After allows, counting answers by status. */
async function attacker(base: string, until: number, statuses: Map<number, number>, startedAt: number, first429: { ms?: number }): Promise<void> {
  while (performance.now() < until) {
    const response = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-03-26' },
      body: JSON.stringify(attackBatch()),
    });
    await response.arrayBuffer();
    statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    if (response.status === 429) {
      first429.ms ??= performance.now() - startedAt;
      const wait = Math.min(Number(response.headers.get('retry-after')) * 1000, until - performance.now());
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, wait)));
    }
  }
}

const ms = (histogram: RecordableHistogram, percentile: number) => percentileMs(histogram, percentile).toFixed(2);

const placement = pinToSeparateCpus();
try {
  const catalogFile = path.join(work, 'catalog.json');
  await generateCatalog(products, catalogFile);
  await buildService();
  vetrina = await startNodeProcess(['dist/server.js'], { DATA_DIR: path.join(work, 'data'), CATALOG_SEED: catalogFile, LOG_LEVEL: 'warn' }, '/readyz');
  const base = vetrina.url;

  await victim(base, performance.now() + WARM_UP_MS);
  const alone = await victim(base, performance.now() + seconds * 1000);
  // A new minute for the victim's own window.
  await new Promise((resolve) => setTimeout(resolve, 61_000));
  const startedAt = performance.now();
  const until = startedAt + seconds * 1000;
  const statuses = new Map<number, number>();
  const first429: { ms?: number } = {};
  const [attacked] = await Promise.all([
    victim(base, until),
    ...Array.from({ length: attackers }, () => attacker(base, until, statuses, startedAt, first429)),
  ]);

  const slowdown = percentileMs(attacked.catalog, 50) / percentileMs(alone.catalog, 50);
  console.log(`\nMCP batch attack: ${products} products, ${seconds} s per run, ${attackers} attacker connections posting batches of ${batchSize} search_catalog calls, node ${process.version}, ${placement}\n`);
  console.log('| victim on 127.0.0.2 | /healthz p50 / p99 / max ms | catalog read p50 / p99 / max ms | failures |');
  console.log('|---|---:|---:|---:|');
  for (const [name, run] of [['alone', alone], ['under attack', attacked]] as const) {
    console.log(`| ${name} | ${ms(run.health, 50)} / ${ms(run.health, 99)} / ${ms(run.health, 100)} | ${ms(run.catalog, 50)} / ${ms(run.catalog, 99)} / ${ms(run.catalog, 100)} | ${run.failures} |`);
  }
  const answers = [...statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${count} x ${status}`).join(', ');
  console.log(`\nAttacker on 127.0.0.1: ${answers}; first 429 after ${first429.ms === undefined ? 'never' : `${(first429.ms / 1000).toFixed(2)} s`}`);
  const healthOk = percentileMs(attacked.health, 99) < HEALTH_P99_LIMIT_MS;
  const catalogOk = slowdown <= CATALOG_SLOWDOWN_LIMIT;
  console.log(`Victim /healthz p99 under attack < ${HEALTH_P99_LIMIT_MS} ms: ${healthOk ? 'yes' : 'NO'}; catalog p50 under attack / alone = ${slowdown.toFixed(2)} (limit ${CATALOG_SLOWDOWN_LIMIT}): ${catalogOk ? 'yes' : 'NO'}`);
  process.exitCode = healthOk && catalogOk && first429.ms !== undefined && attacked.failures === 0 ? 0 : 1;
} finally {
  await vetrina?.stop();
  await victimAgent.close();
  await rm(work, { recursive: true, force: true });
}
