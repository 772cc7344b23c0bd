import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { profileIndependent } from '../support/profile-independent.js';
import { runCli } from '../support/server-process.js';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const scripts = (JSON.parse(readFileSync(`${REPO_ROOT}package.json`, 'utf8')) as { scripts: Record<string, string> }).scripts;

/** Every command of package.json that runs a file of this repository with tsx, and the server itself. */
const COMMANDS: [name: string, file: string][] = [
  ...Object.entries(scripts).flatMap(([name, command]): [string, string][] => {
    const file = /^tsx (\S+\.ts)$/.exec(command)?.[1];
    return file ? [[`npm run ${name}`, file]] : [];
  }),
  ['the server (node dist/server.js)', 'src/server.ts'],
  ['tools/contract-check.ts', 'tools/contract-check.ts'],
];
/** What the commands write when they run: an answer to --help or to a bad option must leave them as they are. */
const OUTPUTS = ['docs/catalog.schema.json', 'docs/portal.png', 'docs/benchmarks.md', 'clients/typescript/src/openapi.ts'];
const modified = () => OUTPUTS.map((file) => statSync(`${REPO_ROOT}${file}`).mtimeMs);

describe('--help and unknown options on every command', { ...profileIndependent, concurrency: 2 }, () => {
  let before_: number[];
  before(() => {
    before_ = modified();
  });
  after(() => {
    assert.deepEqual(modified(), before_, `${OUTPUTS.join(', ')} were written`);
  });

  it('covers every npm script that runs a file', () => {
    for (const name of ['catalog:generate', 'catalog:import', 'bench', 'bench:mcp', 'bench:attack', 'soak', 'bench:live', 'bench:delivery', 'bench:feed', 'bench:scale', 'bench:compare', 'docs:schema', 'docs:screenshot', 'client:generate', 'ucp:demo', 'acp:flows']) {
      assert.ok(COMMANDS.some(([command]) => command === `npm run ${name}`), name);
    }
  });

  for (const [name, file] of COMMANDS) {
    it(`${name}: --help prints the usage and exits 0; an unknown option is answered with it and exit 2`, async () => {
      const help = await runCli(file, ['--help'], {});
      assert.equal(help.code, 0, help.output);
      assert.match(help.output, /^usage: /i);
      const usage = help.output.trim();

      const unknown = await runCli(file, ['--no-such-option'], {});
      assert.equal(unknown.code, 2, unknown.output);
      assert.match(unknown.output, /^Unknown option '--no-such-option'/);
      assert.ok(unknown.output.trim().endsWith(usage), unknown.output);
      assert.doesNotMatch(unknown.output, /^\s+at /m, 'a stack trace');
    });
  }
});

describe('npm run bench:compare refuses what it cannot build, before it builds anything', profileIndependent, () => {
  const compare = (args: string[]) => runCli('bench/compare.ts', args, {});

  it('without --before, or with a ref that names no commit: exit 2 and the usage', async () => {
    for (const [args, message] of [
      [[], /--before REF is required/],
      [['--before', 'no-such-ref-of-this-repository'], /--before "no-such-ref-of-this-repository" names no commit of this repository/],
      [['--before', 'HEAD', '--after', 'no-such-ref-either'], /--after "no-such-ref-either" names no commit/],
    ] as const) {
      const run = await compare([...args]);
      assert.equal(run.code, 2, run.output);
      assert.match(run.output, message);
      assert.match(run.output, /usage: npm run bench:compare/);
    }
  });
});
