import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildService, generateCatalog, measure as measureLoad, rssMb, startNodeProcess, type RunningProcess } from './service-process.js';

/**
 * Catalog read benchmark: autocannon against a separate Vetrina process serving a
 * generated catalog and, per scenario, against a bare-Fastify baseline process sending
 * the same response bytes, in the same run. Reports requests/s and latency, and the
 * ratio of Vetrina's throughput to the baseline's; then Vetrina's own throughput for
 * clients that ask for Brotli (the baseline has no compressed bytes to send).
 * Usage: npm run bench -- [--products 10000] [--seconds 5] [--connections 50]
 */
const { values } = parseArgs({
  options: {
    products: { type: 'string', default: '10000' },
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '50' },
  },
});
const products = Number(values.products);
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const work = await mkdtemp(path.join(tmpdir(), 'vetrina-bench-'));
const catalogFile = path.join(work, 'catalog.json');
const processes: RunningProcess[] = [];

try {
  await generateCatalog(products, catalogFile);
  await buildService();

  const startedAt = performance.now();
  const vetrina = await startNodeProcess(
    ['dist/server.js'],
    { DATA_DIR: path.join(work, 'data'), CATALOG_SEED: catalogFile, CATALOG_RATE_LIMIT: '0', LOG_LEVEL: 'warn' },
    '/readyz',
  );
  processes.push(vetrina);
  const firstStartMs = performance.now() - startedAt;
  const loadedRss = await rssMb(vetrina);

  const scenarios: [string, string][] = [
    ['list, first page', '/public/v1/products'],
    ['list, limit 20, country DE', '/public/v1/products?limit=20&country=DE'],
    ['list, offset 1000', '/public/v1/products?offset=1000'],
    ['search q=olive', '/public/v1/products?q=olive'],
    ['search q=pasta, locale it', '/public/v1/products?q=pasta&locale=it'],
    ['detail', `/public/v1/products/${await firstHandle(vetrina.url)}`],
  ];
  const bodies = await Promise.all(scenarios.map(async ([, url]) => (await fetch(`${vetrina.url}${url}`)).text()));
  const bodiesFile = path.join(work, 'bodies.json');
  await writeFile(bodiesFile, JSON.stringify(bodies));
  const baseline = await startNodeProcess(['--import', 'tsx', 'bench/baseline-server.ts'], { BASELINE_BODIES: bodiesFile }, '/baseline/0');
  processes.push(baseline);

  const rows = [];
  for (const [index, [name, url]] of scenarios.entries()) {
    const vetrinaResult = await measure(`${vetrina.url}${url}`);
    const baselineResult = await measure(`${baseline.url}/baseline/${index}`);
    const brotliResult = await measure(`${vetrina.url}${url}`, { 'accept-encoding': 'br' });
    rows.push({ name, bytes: bodies[index]!.length, vetrina: vetrinaResult, baseline: baselineResult, brotli: brotliResult });
  }

  console.log(`\nVetrina catalog benchmark: ${products} products, ${connections} connections, ${seconds} s per measurement, node ${process.version}`);
  console.log(`first start (migrate + import + load): ${Math.round(firstStartMs)} ms; RSS after load: ${loadedRss} MiB\n`);
  console.log('| scenario | body bytes | Vetrina req/s | baseline req/s | ratio | Vetrina p50 / p99 ms | baseline p50 / p99 ms | Vetrina req/s, br | errors |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const { name, bytes, vetrina: v, baseline: b, brotli: br } of rows) {
    console.log(
      `| ${name} | ${bytes} | ${Math.round(v.requestsPerSecond)} | ${Math.round(b.requestsPerSecond)} | ${(v.requestsPerSecond / b.requestsPerSecond).toFixed(2)} | ${v.p50} / ${v.p99} | ${b.p50} / ${b.p99} | ${Math.round(br.requestsPerSecond)} | ${v.errors + b.errors + br.errors} |`,
    );
  }
  console.log(`\nVetrina RSS after the run: ${await rssMb(vetrina)} MiB`);
} finally {
  await Promise.all(processes.map((running) => running.stop()));
  await rm(work, { recursive: true, force: true });
}

async function measure(url: string, headers: Record<string, string> = {}) {
  return measureLoad({ url, connections, duration: seconds, headers });
}

async function firstHandle(base: string): Promise<string> {
  const response = await fetch(`${base}/public/v1/products?limit=1`);
  const body = (await response.json()) as { products: { handle: string }[] };
  return body.products[0]!.handle;
}
