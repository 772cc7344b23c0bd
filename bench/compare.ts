import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { commandLineOrExit, integerOption, positiveNumberOption, UsageError } from '../src/lib/command-line.js';
import { MAX_GENERATED_PRODUCTS } from '../tools/catalog-generator/catalog.js';
import { cachedCatalogFile } from './catalog-cache.js';
import { COMPARE_HEADING, withSection } from './doc-sections.js';
import { pickQueryWords } from './query-words.js';
import { loadAverages, mark, products as count, table, utcMinute } from './report.js';
import { readScenarios, type Scenario } from './scenarios.js';
import { UNLIMITED } from './suite.js';
import { buildService, measure, pinToSeparateCpus, runCommand, startNodeProcess, type Measurement, type RunningProcess } from './service-process.js';

/**
 * `npm run bench:compare -- --before REF`: the suite's read scenarios (bench/scenarios.ts)
 * on two builds at once, the code at REF and this checkout (or --after REF), so that a
 * change is judged within one run rather than across two runs on different days. Run
 * apart, the same code's figures differed by up to a quarter between runs on this
 * machine; here both builds answer the same load in turn, one scenario after another,
 * and each round swaps which build goes first.
 */
/** Under this median ratio, with every round slower, a scenario counts as slower: the rest is what a round varies by. */
const SLOWER_BELOW = 0.95;
const USAGE = `usage: npm run bench:compare -- --before REF [--after REF] [--products 10000] [--seed 1] [--rounds 3] [--seconds 5] [--connections 50] [--cache-dir DIR] [--out docs/benchmarks.md]

Builds the service at git ref --before (in a temporary worktree on this checkout's
node_modules: every package its package.json names must be here, at the version it
names) and this checkout as it is (or the ref --after), starts both on stores of
their own seeded from the same generated catalog (--products, --seed, kept in
--cache-dir), and measures each read scenario on each build, --seconds after a 1 s
warm-up at --connections connections, for --rounds rounds, the order of the two builds
swapped from one scenario and round to the next. Prints, per scenario, each build's
median requests/s and p99 and the after/before ratio of each round; a scenario is
marked slower when the after build answered fewer requests/s in every round and its
median ratio is under ${SLOWER_BELOW}. --out FILE also writes the table to the file's
"${COMPARE_HEADING.replace(/^#+ /, '')}" section.`;

const WARMUP_SECONDS = 1;
const REPO_ROOT = path.resolve(import.meta.dirname, '..');

const ARGUMENTS = {
  options: {
    before: { type: 'string' },
    after: { type: 'string' },
    products: { type: 'string', default: '10000' },
    seed: { type: 'string', default: '1' },
    rounds: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '50' },
    'cache-dir': { type: 'string', default: path.join(tmpdir(), 'vetrina-bench-cache') },
    out: { type: 'string' },
  },
} as const;

const git = (...args: string[]) => execFileSync('git', args, { cwd: REPO_ROOT, encoding: 'utf8' }).trim();

type Dependencies = Record<string, string>;
const dependenciesOf = (packageJson: string): Dependencies => {
  const parsed = JSON.parse(packageJson) as { dependencies?: Dependencies; devDependencies?: Dependencies };
  return { ...parsed.dependencies, ...parsed.devDependencies };
};

/**
 * The commit a ref names, short; a usage error when it names none, or when its package.json
 * names another version of a package than this checkout's (its build runs on this
 * checkout's node_modules).
 */
function buildableCommit(flag: string, ref: string): string {
  let commit: string;
  try {
    commit = git('rev-parse', '--short', '--verify', `${ref}^{commit}`);
  } catch {
    throw new UsageError(`${flag} "${ref}" names no commit of this repository`);
  }
  const installed = dependenciesOf(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
  const differing = Object.entries(dependenciesOf(git('show', `${commit}:package.json`))).filter(([name, version]) => installed[name] !== version);
  if (differing.length > 0) {
    throw new UsageError(`${flag} ${commit} needs other packages than this checkout's node_modules holds: ${differing.map(([name, version]) => `${name} ${version} (here ${installed[name] ?? 'none'})`).join(', ')}`);
  }
  return commit;
}

const options = commandLineOrExit(USAGE, ARGUMENTS, ({ values }) => {
  if (values.before === undefined) throw new UsageError('--before REF is required');
  return {
    before: buildableCommit('--before', values.before),
    after: values.after === undefined ? undefined : buildableCommit('--after', values.after),
    products: integerOption('--products', values.products, 1, MAX_GENERATED_PRODUCTS),
    seed: integerOption('--seed', values.seed, 0, 0xffffffff),
    rounds: integerOption('--rounds', values.rounds, 1, 100),
    seconds: positiveNumberOption('--seconds', values.seconds, 3600),
    connections: integerOption('--connections', values.connections, 1, 1024),
    cacheDir: path.resolve(values['cache-dir']),
    out: values.out,
  };
});

const progress = (line: string) => console.log(`[bench:compare] ${line}`);

interface Build {
  /** The commit, or "this checkout" with its commit and whether it has changes. */
  label: string;
  /** The directory whose dist/server.js runs. */
  root: string;
  remove(): Promise<void>;
}

/** The build of `commit` (checked by `buildableCommit`) in a worktree of its own, on this checkout's node_modules. */
async function buildAt(commit: string): Promise<Build> {
  const root = await mkdtemp(path.join(tmpdir(), `vetrina-compare-${commit}-`));
  const remove = async () => {
    // `git worktree prune` forgets a worktree whose removal failed, or that an interrupted run left.
    await rm(root, { recursive: true, force: true });
    git('worktree', 'prune');
  };
  try {
    git('worktree', 'add', '--detach', '--force', root, commit);
    await symlink(path.join(REPO_ROOT, 'node_modules'), path.join(root, 'node_modules'));
    progress(`building ${commit} in ${root}`);
    await runCommand('npm', ['run', 'build', '--silent'], root);
    return { label: commit, root, remove };
  } catch (error) {
    await remove().catch(() => {});
    throw error;
  }
}

/** This checkout's own build, changes included. */
async function buildHere(): Promise<Build> {
  await buildService();
  const changed = git('status', '--porcelain', '--untracked-files=no') !== '';
  return { label: `${git('rev-parse', '--short', 'HEAD')}${changed ? ' with changes' : ''}`, root: REPO_ROOT, remove: async () => {} };
}

interface Side {
  build: Build;
  service: RunningProcess;
  scenarios: Scenario[];
  /** Per scenario, one measurement per round. */
  rounds: Measurement[][];
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

async function startSide(build: Build, catalogFile: string, words: ReturnType<typeof pickQueryWords>, work: string): Promise<Side> {
  const dataDir = await mkdtemp(path.join(work, 'data-'));
  progress(`${build.label}: starting on a store seeded from ${catalogFile}`);
  const service = await startNodeProcess([path.join(build.root, 'dist/server.js')], { ...UNLIMITED, DATA_DIR: dataDir, CATALOG_SEED: catalogFile }, '/readyz');
  try {
    return { build, service, scenarios: await readScenarios(service.url, words, false), rounds: [] };
  } catch (error) {
    await service.stop();
    throw error;
  }
}

async function load(side: Side, index: number): Promise<Measurement> {
  const { method, path: requestPath, headers, body } = side.scenarios[index]!.request;
  const shape = { url: `${side.service.url}${requestPath}`, method, headers, body, connections: options.connections };
  await measure({ ...shape, duration: WARMUP_SECONDS });
  const measured = await measure({ ...shape, duration: options.seconds });
  if (measured.errors > 0) throw new Error(`${side.build.label}: ${side.scenarios[index]!.name}: ${measured.errors} failed answers`);
  return measured;
}

const perSecond = (value: number) => count(Math.round(value));

function report(before: Side, after: Side, loadBefore: string, started: Date): string {
  const rows = before.scenarios.map((scenario, index) => {
    const b = before.rounds[index]!;
    const a = after.rounds[index]!;
    const ratios = a.map((measured, round) => measured.requestsPerSecond / b[round]!.requestsPerSecond);
    const slower = ratios.every((ratio) => ratio < 1) && median(ratios) < SLOWER_BELOW;
    return [
      scenario.name,
      perSecond(median(b.map((m) => m.requestsPerSecond))),
      perSecond(median(a.map((m) => m.requestsPerSecond))),
      `${median(ratios).toFixed(2)} (${ratios.map((ratio) => ratio.toFixed(2)).join(', ')})`,
      `${median(b.map((m) => m.p99)).toFixed(2)} → ${median(a.map((m) => m.p99)).toFixed(2)}`,
      slower ? `${mark(false)} slower` : mark(true),
    ];
  });
  const command = ['npm run bench:compare', '--', ...process.argv.slice(2)].join(' ');
  return `${COMPARE_HEADING}

Measured ${utcMinute(started)} with \`${command}\`, Node.js ${process.version}:
before is \`${before.build.label}\`, after is \`${after.build.label}\`, both running at once on
${count(options.products)} generated products (seed ${options.seed}), ${options.rounds} round${options.rounds === 1 ? '' : 's'} of ${options.seconds} s per
scenario and build at ${options.connections} connections; load average (1, 5, 15 min) ${loadBefore} before and ${loadAverages()} after.
Requests/s and p99 (ms) are each build's median round; a scenario is marked slower when
the after build answered fewer requests/s in every round and the median ratio is under ${SLOWER_BELOW}.

${table(['scenario', 'before req/s', 'after req/s', 'after / before (rounds)', 'p99 ms, before → after', ''], ['---', '---:', '---:', '---', '---', '---'], rows)}`;
}

const started = new Date();
const loadBefore = loadAverages();
const words = pickQueryWords();
const placement = pinToSeparateCpus();
progress(placement);
const catalogFile = await cachedCatalogFile(options.cacheDir, options.products, options.seed);
const work = await mkdtemp(path.join(tmpdir(), 'vetrina-compare-'));
const builds: Build[] = [];
const sides: Side[] = [];
try {
  builds.push(await buildAt(options.before));
  builds.push(options.after === undefined ? await buildHere() : await buildAt(options.after));
  for (const build of builds) sides.push(await startSide(build, catalogFile, words, work));
  const [before, after] = sides as [Side, Side];
  const names = (side: Side) => side.scenarios.map((scenario) => scenario.name).join(' | ');
  if (names(before) !== names(after)) throw new Error(`the builds answer other scenarios:\n  ${names(before)}\n  ${names(after)}`);
  for (let round = 0; round < options.rounds; round++) {
    for (const [index, scenario] of before.scenarios.entries()) {
      // Swapped each time, so neither build always runs on the machine the other just warmed.
      const order = (round + index) % 2 === 0 ? [before, after] : [after, before];
      for (const side of order) (side.rounds[index] ??= []).push(await load(side, index));
      const ratio = after.rounds[index]!.at(-1)!.requestsPerSecond / before.rounds[index]!.at(-1)!.requestsPerSecond;
      progress(`round ${round + 1}: ${scenario.name}: after / before ${ratio.toFixed(2)}`);
    }
  }
  const written = report(before, after, loadBefore, started);
  console.log(`\n${written}`);
  if (options.out) {
    await writeFile(options.out, withSection(await readFile(options.out, 'utf8').catch(() => ''), COMPARE_HEADING, written));
    progress(`written to ${options.out}`);
  }
} finally {
  // Each cleanup on its own: one that fails leaves the others to run.
  await Promise.allSettled(sides.map((side) => side.service.stop()));
  await Promise.allSettled([...builds.map((build) => build.remove()), rm(work, { recursive: true, force: true })]);
}
