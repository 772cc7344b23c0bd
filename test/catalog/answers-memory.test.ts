import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { it } from 'node:test';
import { SLOW_TEST_TIMEOUT_MS } from '../support/slow-test.js';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ROUNDS = 2;
/**
 * Once every answer is prepared, reading them again adds nothing: measured 0.1 to 0.3 MB
 * over 1,200 more requests. Keeping each response's compressed bytes, or making
 * an answer anew for each request, would add tens of megabytes.
 */
const MAX_GROWTH_BYTES = 8 * 1024 * 1024;

it('catalog answers are prepared once: re-reading 600 distinct pages in every coding leaves memory flat', { timeout: SLOW_TEST_TIMEOUT_MS }, async () => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', 'test/support/catalog-answers-memory.ts', String(ROUNDS)],
    { cwd: REPO_ROOT, env: { ...process.env, LOG_LEVEL: 'warn' }, maxBuffer: 1024 * 1024 },
  );
  const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as { answers: number; requests: number; filledBytes: number; growthBytes: number };
  assert.equal(result.requests, result.answers * (ROUNDS + 1));
  assert.ok(
    result.growthBytes < MAX_GROWTH_BYTES,
    `memory grew by ${(result.growthBytes / 1024 / 1024).toFixed(1)} MB over ${result.requests - result.answers} repeated reads`,
  );
});
