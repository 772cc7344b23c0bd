import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { MAX_GENERATED_PRODUCTS } from '../tools/catalog-generator/catalog.js';
import { optionsOrExit, UsageError } from './command-line.js';
import { renderReport } from './report.js';
import { runSuite, type SuiteOptions } from './suite.js';

/**
 * `npm run bench`: the benchmark suite (bench/suite.ts) over each catalog size, written
 * to docs/benchmarks.md as a table of every figure (bench/report.ts).
 */
const USAGE =
  'usage: npm run bench -- [--sizes 1000,10000,100000] [--seconds 5] [--connections 50] [--seed 1] [--cache-dir DIR] [--database-url postgres://...] [--out docs/benchmarks.md] [--no-write] [--quick]';
const DEFAULT_OUT = 'docs/benchmarks.md';

function positiveNumber(flag: string, text: string, integer: boolean, max = Number.MAX_SAFE_INTEGER): number {
  const value = (integer ? /^\d+$/ : /^\d+(\.\d+)?$/).test(text) ? Number(text) : NaN;
  if (!(value > 0 && value <= max)) throw new UsageError(`${flag} must be ${integer ? 'an integer' : 'a number'} above 0 and at most ${max}, got "${text}"`);
  return value;
}

function parseOptions(argv: string[]): { suite: SuiteOptions; out: string | undefined } {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
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
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { quick } = values;
  const sizes = (values.sizes ?? (quick ? '1000' : '1000,10000,100000')).split(',').map((size) => positiveNumber('--sizes', size.trim(), true, MAX_GENERATED_PRODUCTS));
  const suite: SuiteOptions = {
    sizes: [...new Set(sizes)].sort((a, b) => a - b),
    seconds: positiveNumber('--seconds', values.seconds ?? (quick ? '1' : '5'), false),
    connections: positiveNumber('--connections', values.connections, true, 1024),
    seed: /^\d+$/.test(values.seed) ? Number(values.seed) : NaN,
    quick,
    cacheDir: path.resolve(values['cache-dir']),
    databaseUrl: values['database-url'],
  };
  if (!Number.isSafeInteger(suite.seed) || suite.seed > 0xffffffff) throw new UsageError(`--seed must be an integer from 0 to ${0xffffffff}, got "${values.seed}"`);
  // A quick run's figures would overwrite the real ones: it only prints unless told where to write.
  const out = values['no-write'] ? undefined : (values.out ?? (quick ? undefined : DEFAULT_OUT));
  return { suite, out };
}

function currentCommit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

const options = optionsOrExit(parseOptions, USAGE);
const started = new Date();
const result = await runSuite(options.suite);
const report = renderReport(options.suite, result, { date: started, commit: currentCommit(), command: ['npm run bench', ...(process.argv.length > 2 ? ['--', ...process.argv.slice(2)] : [])].join(' ') });
console.log(`\n${report}`);
if (options.out) {
  await writeFile(options.out, report);
  console.log(`[bench] written to ${options.out}`);
}
