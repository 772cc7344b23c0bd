import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createDatabase } from '../test/support/test-app.js';
import { startBaselines } from './baselines.js';
import { BASELINE_PREFIX } from './captured-answers.js';
import { cachedCatalog, type CachedCatalog } from './catalog-cache.js';
import { pickQueryWords, type QueryWords } from './query-words.js';
import { measureSandboxFlows, type FlowMeasurement } from './sandbox-flow.js';
import { readScenarios, type Scenario } from './scenarios.js';
import { buildService, measure, pinToSeparateCpus, rssMb, startNodeProcess, type Measurement, type RunningProcess } from './service-process.js';

/** What one run measures, per catalog size, then the sandbox flows. */
export interface SuiteOptions {
  sizes: number[];
  seconds: number;
  connections: number;
  seed: number;
  quick: boolean;
  cacheDir: string;
  /** The PostgreSQL server the flow gets a database of its own on. */
  databaseUrl: string;
}

export interface ScenarioResult {
  scenario: Scenario;
  bodyBytes: number;
  vetrina: Measurement;
  nodeHttp: Measurement;
  fastify: Measurement;
}

export interface SizeResult {
  products: number;
  /** Seconds the import took in this run; undefined when the cache had the store. */
  importSeconds: number | undefined;
  /** From spawning the service on its store to its first catalog answer. */
  firstAnswerMs: number;
  /** The first answer to a query nobody asked before, per query. */
  newQueries: { query: string; ms: number }[];
  scenarios: ScenarioResult[];
  rssAfterLoadMb: number;
}

export interface FlowResult {
  store: 'SQLite' | 'PostgreSQL';
  products: number;
  measurement?: FlowMeasurement;
  skipped?: string;
}

export interface SuiteResult {
  /** Which CPUs the load generator and the servers ran on. */
  placement: string;
  words: QueryWords;
  sizes: SizeResult[];
  flows: FlowResult[];
}

const PRODUCTS = '/public/v1/products';
/** The service with its limits off, so the benchmark measures the service and not its limiter. */
export const UNLIMITED = { CATALOG_RATE_LIMIT: '0', SANDBOX_KEY_RATE_LIMIT: '0', SANDBOX_CART_RATE_LIMIT: '0', LOG_LEVEL: 'warn' };

/**
 * Each measurement follows an unrecorded second of the same load: a request shape's first
 * second pays for JIT compilation and cache fills, in the service and the baselines alike.
 */
const WARMUP_SECONDS = 1;

const progress = (line: string) => console.log(`[bench] ${line}`);
const fixed = (value: number) => value.toFixed(value < 10 ? 1 : 0);

async function timedFetch(url: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(url);
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
  return performance.now() - started;
}

/** The first answers to queries no one has asked this process, after one other search so that compiling the search path is not counted. */
export async function firstAnswers(baseUrl: string, words: QueryWords): Promise<SizeResult['newQueries']> {
  await timedFetch(`${baseUrl}${PRODUCTS}?q=warm`);
  const answers = [];
  for (const query of [words.unaskedWord, words.unaskedPrefix]) answers.push({ query, ms: await timedFetch(`${baseUrl}${PRODUCTS}?q=${encodeURIComponent(query)}`) });
  return answers;
}

async function measureSize(options: SuiteOptions, products: number, words: QueryWords, work: string): Promise<SizeResult> {
  progress(`${products} products: catalog (cache ${options.cacheDir})`);
  const catalog = await cachedCatalog(options.cacheDir, products, options.seed);
  progress(catalog.importSeconds === undefined ? `${products} products: reusing the cached store` : `${products} products: generated and imported in ${fixed(catalog.importSeconds)} s, cached for later runs`);
  const processes: RunningProcess[] = [];
  try {
    const spawned = performance.now();
    const vetrina = await startNodeProcess(['dist/server.js'], { ...UNLIMITED, DATA_DIR: catalog.dataDir, CATALOG_SEED: 'none' }, `${PRODUCTS}?limit=1`);
    processes.push(vetrina);
    const firstAnswerMs = performance.now() - spawned;
    const newQueries = await firstAnswers(vetrina.url, words);
    const scenarios = await readScenarios(vetrina.url, words, options.quick);
    const baselines = await startBaselines(vetrina.url, scenarios, work);
    processes.push(baselines.nodeHttp, baselines.fastify);

    const results: ScenarioResult[] = [];
    for (const [index, scenario] of scenarios.entries()) {
      const { method, path: requestPath, headers, body } = scenario.request;
      // One at a time, never together: each has both cores to itself (less the load generator's share).
      const load = async (url: string) => {
        const shape = { url, method, headers, body, connections: options.connections };
        await measure({ ...shape, duration: WARMUP_SECONDS });
        return measure({ ...shape, duration: options.seconds });
      };
      const vetrinaResult = await load(`${vetrina.url}${requestPath}`);
      const nodeHttp = await load(`${baselines.nodeHttp.url}${BASELINE_PREFIX}${index}`);
      const fastify = await load(`${baselines.fastify.url}${BASELINE_PREFIX}${index}`);
      results.push({ scenario, bodyBytes: baselines.bodyBytes[index]!, vetrina: vetrinaResult, nodeHttp, fastify });
      progress(`${products} products: ${scenario.name}: ${Math.round(vetrinaResult.requestsPerSecond)} req/s, ${(vetrinaResult.requestsPerSecond / nodeHttp.requestsPerSecond).toFixed(2)}x node:http`);
    }
    return { products, importSeconds: catalog.importSeconds, firstAnswerMs, newQueries, scenarios: results, rssAfterLoadMb: await rssMb(vetrina) };
  } finally {
    await Promise.all(processes.map((running) => running.stop()));
  }
}

/** Flows on a store of their own seeded from `catalog`, so the cached store never holds carts. */
async function measureFlows(options: SuiteOptions, products: number, catalog: CachedCatalog, work: string): Promise<FlowResult[]> {
  const run = async (store: FlowResult['store'], env: Record<string, string>): Promise<FlowResult> => {
    progress(`sandbox flow on ${store}, ${products} products`);
    const vetrina = await startNodeProcess(['dist/server.js'], { ...UNLIMITED, DATA_DIR: path.join(work, `flow-${store}`), CATALOG_SEED: catalog.catalogFile, ...env }, '/readyz');
    try {
      return { store, products, measurement: await measureSandboxFlows(vetrina.url, options.connections, options.seconds) };
    } finally {
      await vetrina.stop();
    }
  };
  const results = [await run('SQLite', {})];
  let database: Awaited<ReturnType<typeof createDatabase>> | undefined;
  try {
    database = await createDatabase(options.databaseUrl);
  } catch (error) {
    const skipped = `PostgreSQL at ${options.databaseUrl} unreachable (${(error as Error).message})`;
    progress(`sandbox flow on PostgreSQL skipped: ${skipped}`);
    return [...results, { store: 'PostgreSQL', products, skipped }];
  }
  try {
    results.push(await run('PostgreSQL', { DATABASE_URL: database.url }));
  } finally {
    await database.drop();
  }
  return results;
}

export async function runSuite(options: SuiteOptions): Promise<SuiteResult> {
  const words = pickQueryWords();
  const placement = pinToSeparateCpus();
  progress(placement);
  await buildService();
  const work = await mkdtemp(path.join(tmpdir(), 'vetrina-bench-'));
  try {
    const sizes: SizeResult[] = [];
    for (const products of options.sizes) sizes.push(await measureSize(options, products, words, work));
    // The smallest catalog: a flow touches a few products, and seeding a fresh PostgreSQL database with it is quick.
    const smallest = Math.min(...options.sizes);
    const flows = options.quick ? [] : await measureFlows(options, smallest, await cachedCatalog(options.cacheDir, smallest, options.seed), work);
    return { placement, words, sizes, flows };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
