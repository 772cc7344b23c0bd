import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MAX_GENERATED_PRODUCTS } from '../tools/catalog-generator/catalog.js';
import { commandLineOrExit, integerOption, positiveNumberOption, type Parsed } from '../src/lib/command-line.js';
import { withKeptSections } from './doc-sections.js';
import { currentCommit, renderReport } from './report.js';
import { runSuite, type SuiteOptions } from './suite.js';

/**
 * `npm run bench`: the benchmark suite (bench/suite.ts) over each catalog size, written
 * to docs/benchmarks.md as a table of every figure (bench/report.ts).
 */
const USAGE = `usage: npm run bench -- [--sizes 1000,10000,100000] [--seconds 5] [--connections 50] [--seed 1] [--cache-dir DIR] [--database-url postgres://...] [--out docs/benchmarks.md] [--no-write] [--quick]

Builds the server and measures it at each catalog size (generated with
--seed and cached in --cache-dir) on SQLite and on the PostgreSQL server at
--database-url, --seconds per scenario on --connections connections, and writes the
table to --out (default docs/benchmarks.md; --no-write only prints it). --quick: 1,000
products, 1 s per scenario, printed only.`;
const DEFAULT_OUT = 'docs/benchmarks.md';

const ARGUMENTS = {
  options: {
    sizes: { type: 'string' },
    seconds: { type: 'string' },
    connections: { type: 'string', default: '50' },
    seed: { type: 'string', default: '1' },
    quick: { type: 'boolean', default: false },
    'cache-dir': { type: 'string', default: path.join(tmpdir(), 'vetrina-bench-cache') },
    'database-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432' },
    out: { type: 'string' },
    'no-write': { type: 'boolean', default: false },
  },
} as const;

function benchOptions({ values }: Parsed<typeof ARGUMENTS>): { suite: SuiteOptions; out: string | undefined } {
  const { quick } = values;
  const sizes = (values.sizes ?? (quick ? '1000' : '1000,10000,100000')).split(',').map((size) => integerOption('--sizes', size.trim(), 1, MAX_GENERATED_PRODUCTS));
  const suite: SuiteOptions = {
    sizes: [...new Set(sizes)].sort((a, b) => a - b),
    seconds: positiveNumberOption('--seconds', values.seconds ?? (quick ? '1' : '5'), 3600),
    connections: integerOption('--connections', values.connections, 1, 1024),
    seed: integerOption('--seed', values.seed, 0, 0xffffffff),
    quick,
    cacheDir: path.resolve(values['cache-dir']),
    databaseUrl: values['database-url'],
  };
  // A quick run's figures would overwrite the real ones: it only prints unless told where to write.
  const out = values['no-write'] ? undefined : (values.out ?? (quick ? undefined : DEFAULT_OUT));
  return { suite, out };
}

const options = commandLineOrExit(USAGE, ARGUMENTS, benchOptions);
const started = new Date();
const result = await runSuite(options.suite);
const report = renderReport(options.suite, result, { date: started, commit: currentCommit(), command: ['npm run bench', ...(process.argv.length > 2 ? ['--', ...process.argv.slice(2)] : [])].join(' ') });
console.log(`\n${report}`);
if (options.out) {
  // bench:scale's and bench:compare's sections are not this run's to measure: they are kept as they were.
  await writeFile(options.out, withKeptSections(report, await readFile(options.out, 'utf8').catch(() => '')));
  console.log(`[bench] written to ${options.out}`);
}
