import { execFileSync } from 'node:child_process';
import { cpus, loadavg, platform, release, totalmem } from 'node:os';
import type { ScenarioKind } from './scenarios.js';
import type { ScenarioResult, SizeResult, SuiteOptions, SuiteResult } from './suite.js';

/**
 * docs/benchmarks.md, written whole by the suite: what was measured, how to run it, how
 * to read it, the machine, and every figure, with the goals of issue 12 marked beside
 * them (marked, not enforced: a run never fails for a missed goal).
 */

/** The size the throughput, ratio and p99 goals are set at. */
const GOAL_SIZE = 10_000;
/** The sizes the p50 growth goal compares. */
const GROWTH_FROM = 1_000;
const GROWTH_TO = 100_000;
/** The least throughput as a share of bare node:http's for the same bytes. */
const MIN_RATIO: Record<ScenarioKind, number | undefined> = { list: 0.6, detail: 0.6, search: 0.4, mcp: undefined };
const MAX_P99_MS = 15;
const MAX_P50_GROWTH = 1.5;
const GROWTH_KINDS: readonly ScenarioKind[] = ['list', 'search'];
const MAX_NEW_QUERY_MS = 20;
/** search_catalog over /mcp against the REST search for the same query. */
const MIN_MCP_SHARE = 0.5;

/** The commit checked out, for a report; `unknown` outside a git checkout. */
export function currentCommit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

export interface RunInfo {
  date: Date;
  commit: string;
  command: string;
}

export const mark = (passed: boolean) => (passed ? '✓' : '✗');
export const ms = (value: number) => value.toFixed(value < 10 ? 2 : 1);
const rate = (value: number) => Math.round(value).toLocaleString('en-US');
const ratio = (value: number) => `${value.toFixed(2)}x`;
export const table = (head: string[], align: string[], rows: string[][]) =>
  [`| ${head.join(' | ')} |`, `|${align.join('|')}|`, ...rows.map((row) => `| ${row.join(' | ')} |`)].join('\n');
export const products = (count: number) => count.toLocaleString('en-US');
/** When a run was measured, to the minute: `2026-11-27 12:51 UTC`. */
export const utcMinute = (date: Date) => `${date.toISOString().replace('T', ' ').slice(0, 16)} UTC`;
/** The machine's load averages over 1, 5 and 15 minutes, as a run's report gives them. */
export const loadAverages = () => loadavg().map((average) => average.toFixed(1)).join(', ');

function header(options: SuiteOptions): string {
  return `# Benchmarks

Written by \`npm run bench\` (bench/run.ts), except its last sections, [Scale (issue 29)](#scale-issue-29) and [Before and after](#before-and-after), which \`npm run bench:scale\` (bench/scale.ts) and \`npm run bench:compare\` (bench/compare.ts) write and \`npm run bench\` keeps; run them again rather than editing this file.

**What.** Vetrina's catalog reads under load: the built service runs as a process of
its own, with its rate limits off (\`CATALOG_RATE_LIMIT=0\`, \`SANDBOX_KEY_RATE_LIMIT=0\`,
\`SANDBOX_CART_RATE_LIMIT=0\`), on generated catalogs (\`tools/generate-catalog.ts\`, seed
${options.seed}) of each size, and [autocannon](https://github.com/mcollina/autocannon) sends
it one request shape at a time over loopback for ${options.seconds} s at ${options.connections}
connections. Each read scenario is also sent, in the same run and one after the other
(never together), to two baselines in processes of their own that answer the very bytes
and content type Vetrina answered for it: bare \`node:http\` and bare Fastify. The
sandbox flow (one key, then per flow: cart, two items, address, shipping option,
checkout) is measured in flows per second by ${options.connections} concurrent workers over
[undici](https://undici.nodejs.org) (one keep-alive connection each, no pipelining), on
SQLite and on PostgreSQL (a database of its own, dropped afterwards).

**How to run.** \`npm run bench\` (sizes 1,000, 10,000 and 100,000; about ten minutes,
plus the first import of each size). Options: \`--sizes 1000,10000\`, \`--seconds 5\`,
\`--connections 50\`, \`--seed 1\`, \`--cache-dir DIR\` (generated catalogs and their imported
SQLite stores are kept there between runs, one entry per size, seed, generator version
and schema; by default under the OS temporary directory), \`--database-url\`
(PostgreSQL server for the flow, default \`postgres://postgres@127.0.0.1:5432\`; the flow
is skipped with the reason printed when it is unreachable), \`--out FILE\`, \`--no-write\`
(print only). \`--quick\` is the CI check: 1,000 products, two scenarios, 1 s each, no
flows, printed and not written unless \`--out\` is given. Run it on a quiet machine. On
Linux the load generator is pinned to the first CPU and every server (Vetrina and the
baselines alike) to the others (\`taskset\`), so that a server never shares a core with
the client driving it; PostgreSQL, in the flow, runs where the system puts it.

**How to read it.** Absolute figures belong to this machine. The figures that travel
are the ratios: Vetrina's requests per second over the baseline's for the same bytes
(1.00x would mean the service costs nothing beyond writing its answer), and p50 at the
largest size over p50 at the smallest (how a read's cost grows with the catalog).
Latencies are per request at ${options.connections} connections, so they include queueing.
Goal marks (✓ met, ✗ missed) stand next to the figures the goals of issue 12 name:
at ${products(GOAL_SIZE)} products, requests/s at least ${MIN_RATIO.list}x bare node:http for list and
detail, ${MIN_RATIO.search}x for search, and p99 at most ${MAX_P99_MS} ms for every read; p50 at
${products(GROWTH_TO)} at most ${MAX_P50_GROWTH}x p50 at ${products(GROWTH_FROM)} for list and search; the
first answer to a new query at ${products(GROWTH_TO)} within ${MAX_NEW_QUERY_MS} ms; search_catalog over
/mcp at least ${MIN_MCP_SHARE}x the REST search for the same query.`;
}

function machine(options: SuiteOptions, result: SuiteResult, run: RunInfo): string {
  // The machine's CPUs, not availableParallelism(): that counts only those this (pinned) process may use.
  const cpu = cpus()[0]?.model.trim() ?? 'unknown';
  return table(
    ['machine', ''],
    ['---', '---'],
    [
      ['cores', `${cpus().length} (${cpu})`],
      ['memory', `${(totalmem() / 1024 ** 3).toFixed(1)} GiB`],
      ['Node.js', process.version],
      ['OS', `${platform()} ${release()}`],
      ['date', utcMinute(run.date)],
      ['commit', run.commit],
      ['command', `\`${run.command}\``],
      ['per measurement', `${options.seconds} s, ${options.connections} connections`],
      ['CPU placement', result.placement],
    ],
  );
}

function twinOf(size: SizeResult, result: ScenarioResult): ScenarioResult | undefined {
  return size.scenarios.find((other) => other.scenario.name === result.scenario.restTwin);
}

function goalsAt(size: SizeResult, result: ScenarioResult): string {
  const marks: string[] = [];
  const { kind } = result.scenario;
  const minRatio = MIN_RATIO[kind];
  if (size.products === GOAL_SIZE) {
    if (minRatio !== undefined) marks.push(`ratio ≥ ${minRatio} ${mark(result.vetrina.requestsPerSecond / result.nodeHttp.requestsPerSecond >= minRatio)}`);
    marks.push(`p99 ≤ ${MAX_P99_MS} ${mark(result.vetrina.p99 <= MAX_P99_MS)}`);
  }
  const twin = twinOf(size, result);
  if (twin) marks.push(`≥ ${MIN_MCP_SHARE}x REST ${mark(result.vetrina.requestsPerSecond / twin.vetrina.requestsPerSecond >= MIN_MCP_SHARE)}`);
  return marks.join(', ');
}

function sizeSection(size: SizeResult): string {
  const rows = size.scenarios.map((result) => {
    const { vetrina, nodeHttp, fastify } = result;
    const twin = twinOf(size, result);
    const name = twin ? `${result.scenario.name} (${ratio(vetrina.requestsPerSecond / twin.vetrina.requestsPerSecond)} the REST search)` : result.scenario.name;
    return [
      name,
      products(result.bodyBytes),
      rate(vetrina.requestsPerSecond),
      `${ms(vetrina.p50)} / ${ms(vetrina.p99)}`,
      rate(nodeHttp.requestsPerSecond),
      `**${ratio(vetrina.requestsPerSecond / nodeHttp.requestsPerSecond)}**`,
      rate(fastify.requestsPerSecond),
      ratio(vetrina.requestsPerSecond / fastify.requestsPerSecond),
      String(vetrina.errors + nodeHttp.errors + fastify.errors),
      goalsAt(size, result),
    ];
  });
  const newQueries = size.newQueries
    .map(({ query, ms: took }) => `"${query}" ${ms(took)} ms${size.products === GROWTH_TO ? ` ${mark(took <= MAX_NEW_QUERY_MS)}` : ''}`)
    .join(', ');
  const store = size.importSeconds === undefined ? 'store reused from the cache' : `store generated and imported in ${size.importSeconds.toFixed(1)} s in this run, cached for later runs`;
  return `## ${products(size.products)} products

${store}; ${(size.firstAnswerMs / 1000).toFixed(2)} s from spawning the service to its first catalog answer; RSS after the load ${size.rssAfterLoadMb} MiB; first answer to a new query: ${newQueries}.

${table(
  ['scenario', 'body bytes', 'Vetrina req/s', 'p50 / p99 ms', 'node:http req/s', 'vs node:http', 'Fastify req/s', 'vs Fastify', 'errors', 'goals'],
  ['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---'],
  rows,
)}`;
}

/** p50 per size and its growth from the smallest to the largest size, per scenario measured at both. */
function growthSection(sizes: SizeResult[]): string | undefined {
  if (sizes.length < 2) return undefined;
  const ordered = [...sizes].sort((a, b) => a.products - b.products);
  const smallest = ordered[0]!;
  const largest = ordered.at(-1)!;
  const goalApplies = smallest.products === GROWTH_FROM && largest.products === GROWTH_TO;
  const rows = smallest.scenarios.map(({ scenario }) => {
    const p50s = ordered.map((size) => size.scenarios.find((result) => result.scenario.name === scenario.name)?.vetrina.p50);
    const first = p50s[0];
    const last = p50s.at(-1);
    const growth = first !== undefined && last !== undefined ? last / first : undefined;
    const goal = goalApplies && growth !== undefined && GROWTH_KINDS.includes(scenario.kind) ? `≤ ${MAX_P50_GROWTH} ${mark(growth <= MAX_P50_GROWTH)}` : '';
    return [scenario.name, ...p50s.map((p50) => (p50 === undefined ? '' : ms(p50))), growth === undefined ? '' : `**${ratio(growth)}**`, goal];
  });
  return `## How p50 grows with the catalog

${table(
  ['scenario', ...ordered.map((size) => `p50 ms at ${products(size.products)}`), `p50 at ${products(largest.products)} / p50 at ${products(smallest.products)}`, 'goal'],
  ['---', ...ordered.map(() => '---:'), '---:', '---'],
  rows,
)}`;
}

function flowSection(result: SuiteResult): string | undefined {
  if (result.flows.length === 0) return undefined;
  const rows = result.flows.map(({ store, products: count, measurement, skipped }) =>
    measurement
      ? [store, products(count), rate(measurement.flowsPerSecond), `${ms(measurement.p50)} / ${ms(measurement.p99)}`, String(measurement.failures), measurement.firstFailure ?? '']
      : [store, products(count), '', '', '', `skipped: ${skipped}`],
  );
  return `## Sandbox flow

Per flow: create a cart, add two items, set the address, select the shipping option, check out (six requests; the key is made once).

${table(['store', 'products', 'flows/s', 'flow p50 / p99 ms', 'failed flows', 'note'], ['---', '---:', '---:', '---:', '---:', '---'], rows)}`;
}

export function renderReport(options: SuiteOptions, result: SuiteResult, run: RunInfo): string {
  const { words } = result;
  const queries = `Queries, from the generator's vocabulary (bench/query-words.ts): common word "${words.common}", rare word "${words.rare}", one-letter prefix "${words.prefix}"; asked first after start: "${words.unaskedWord}" and "${words.unaskedPrefix}".`;
  return [header(options), machine(options, result, run), queries, ...result.sizes.map(sizeSection), growthSection(result.sizes), flowSection(result)]
    .filter((section) => section !== undefined)
    .join('\n\n')
    .concat('\n');
}
