import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { DEMO_CATALOG_PATH } from '../../src/catalog/store/seed.js';
import { isolatedServerEnv, type IsolatedServerEnv } from '../support/isolated-server-env.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';

/**
 * The shell examples of the README and docs/ run against a fresh server, so they stay
 * true. A ```sh block runs when the line before it is `<!-- doc-test -->` (every curl in
 * it must answer 2xx) or `<!-- doc-test: 201 412 ... -->` (the statuses its curls must
 * answer, in order). The marked blocks of one file run in order in one bash (`set -e -o
 * pipefail`, so one failing command fails the file), sharing its variables, in an empty
 * directory holding `catalog.json` (the demo catalog), on a server of their own with the
 * demo catalog and no rate limits. Defined substitutions: the server's URL for
 * `http://127.0.0.1:3000`, and `$ERP_TOKEN` and `$PIM_TOKEN` tokens of its ADMIN_TOKENS.
 * Each curl gives up after 20 s; one following a stream (`-N`) is read for 2 s.
 */
const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FILES = ['README.md', ...readdirSync(path.join(REPO_ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];
const TOKENS = { ERP_TOKEN: 'erp_doc_examples_0123456789abcdef', PIM_TOKEN: 'pim_doc_examples_0123456789abcdef' };
const MARKER = /^<!-- doc-test(?::([\d\s]+))? -->$/;
/** Prints each answer's status on stderr, where the test reads it, whatever the example does with the body. */
const CURL = `curl() {
  local limit=20 code=0
  for arg in "$@"; do if [ "$arg" = -N ]; then limit=2; fi; done
  command curl --max-time "$limit" "$@" -w '%{stderr}DOC-TEST-STATUS %{http_code}\\n' || code=$?
  if [ "$limit" = 2 ] && [ "$code" = 28 ]; then return 0; fi
  return "$code"
}`;

interface Block {
  line: number;
  script: string;
  /** The statuses its curls answer, in order; undefined: every one 2xx. */
  statuses: number[] | undefined;
}

function markedBlocks(text: string): Block[] {
  const lines = text.split('\n');
  const blocks: Block[] = [];
  for (const [index, line] of lines.entries()) {
    const marker = MARKER.exec(line.trim());
    if (!marker) continue;
    assert.equal(lines[index + 1], '```sh', `line ${index + 2}: a doc-test marker stands right before a sh block`);
    const end = lines.indexOf('```', index + 2);
    blocks.push({ line: index + 2, script: lines.slice(index + 2, end).join('\n'), statuses: marker[1]?.trim().split(/\s+/).map(Number) });
  }
  return blocks;
}

async function runBash(script: string, cwd: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn('bash', ['-c', script], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() };
}

describe('the shell examples of the README and docs/ against a fresh server', () => {
  for (const file of FILES) {
    const blocks = markedBlocks(readFileSync(path.join(REPO_ROOT, file), 'utf8'));
    if (blocks.length === 0) continue;
    describe(file, () => {
      let isolated: IsolatedServerEnv;
      let server: ServerProcess;
      let work: string;
      before(async () => {
        isolated = await isolatedServerEnv();
        work = await mkdtemp(path.join(os.tmpdir(), 'vetrina-doc-examples-'));
        await copyFile(DEMO_CATALOG_PATH, path.join(work, 'catalog.json'));
        server = await startServerProcess({
          ...isolated.env,
          ADMIN_TOKENS: `erp:${TOKENS.ERP_TOKEN},pim:${TOKENS.PIM_TOKEN}`,
          CATALOG_RATE_LIMIT: '0',
          SANDBOX_KEY_RATE_LIMIT: '0',
        });
      });
      after(async () => {
        await server?.stop();
        await isolated?.cleanup();
        await rm(work, { recursive: true, force: true });
      });

      it(`its ${blocks.length} marked blocks answer as they say`, async () => {
        const script = [
          'set -e -o pipefail',
          CURL,
          ...blocks.map((block, index) => `echo DOC-TEST-BLOCK ${index} >&2\n${block.script.replaceAll('http://127.0.0.1:3000', server.url)}`),
        ].join('\n');
        const run = await runBash(script, work, TOKENS);
        const answered: number[][] = [];
        for (const line of run.stderr.split('\n')) {
          if (line.startsWith('DOC-TEST-BLOCK ')) answered.push([]);
          else if (line.startsWith('DOC-TEST-STATUS ')) answered.at(-1)!.push(Number(line.slice('DOC-TEST-STATUS '.length)));
        }
        const report = `\nstdout:\n${run.stdout.slice(-4000)}\nstderr:\n${run.stderr.slice(-4000)}`;
        for (const [index, block] of blocks.entries()) {
          const statuses = answered[index];
          assert.ok(statuses, `${file}:${block.line}: the block before it failed, so this one did not run${report}`);
          if (block.statuses) assert.deepEqual(statuses, block.statuses, `${file}:${block.line}${report}`);
          else assert.ok(statuses.every((status) => status >= 200 && status < 300), `${file}:${block.line}: ${statuses.join(' ')}${report}`);
        }
        assert.equal(run.code, 0, `${file}: bash exited ${run.code}${report}`);
      });

      if (file === 'README.md') {
        it("states the demo catalog's numbers: products in the file, drafts, sold by weight, served", async () => {
          const readme = readFileSync(path.join(REPO_ROOT, file), 'utf8').replace(/\s+/g, ' ');
          const stated = /(\d+) products in English and Italian.*? (\d+) of them are served: the other (\d+) are drafts and (\d+) are sold by weight/.exec(readme);
          assert.ok(stated, 'the sentence is gone');
          const demo = JSON.parse(await readFile(DEMO_CATALOG_PATH, 'utf8')) as { products: { status?: string; weighted?: boolean }[] };
          const drafts = demo.products.filter((product) => product.status === 'draft').length;
          const weighted = demo.products.filter((product) => product.status !== 'draft' && product.weighted).length;
          const served = ((await (await fetch(`${server.url}/public/v1/products?country=IT&limit=1`)).json()) as { count: number }).count;
          assert.deepEqual(stated.slice(1).map(Number), [demo.products.length, served, drafts, weighted]);
          assert.equal(served, demo.products.length - drafts - weighted);
        });
      }
    });
  }
});
