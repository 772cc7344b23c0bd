import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { SLOW_TEST_TIMEOUT_MS } from '../support/slow-test.js';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

test('the embedded store survives many queries, forced garbage collection and idle time on this Node.js', () => {
  const result = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', 'test/support/embedded-store-churn.ts'], {
    cwd: REPO_ROOT,
    // The embedded driver is what is tested, whatever profile the suite runs on.
    env: { ...process.env, DATABASE_URL: '' },
    encoding: 'utf8',
    timeout: SLOW_TEST_TIMEOUT_MS,
  });
  const output = `${result.stdout}\n${result.stderr}`;
  assert.equal(result.signal, null, `the process was killed by ${result.signal}:\n${output}`);
  assert.equal(result.status, 0, output);
  const summary = JSON.parse(result.stdout.trim().split('\n').at(-1)!) as { queries: number; node: string };
  assert.equal(summary.queries, 3000);
  assert.equal(summary.node, process.version);
});
