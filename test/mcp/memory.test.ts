import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { it } from 'node:test';
import { SLOW_TEST_TIMEOUT_MS } from '../support/slow-test.js';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const REQUESTS = 2400;
/**
 * Steady state stays within about 3 MB here (caches filling once). Building the tool
 * schemas per request leaked about 300 KB per request, so a leak of even a twentieth of
 * that would cross this bound.
 */
const MAX_GROWTH_BYTES = 12 * 1024 * 1024;

it(`${REQUESTS} MCP requests (tools/list and tools/call on both servers) leave the heap flat`, { timeout: SLOW_TEST_TIMEOUT_MS }, async () => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', 'test/support/mcp-heap-growth.ts', String(REQUESTS)],
    { cwd: REPO_ROOT, env: { ...process.env, LOG_LEVEL: 'warn' }, maxBuffer: 1024 * 1024 },
  );
  const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as { requests: number; growthBytes: number };
  assert.equal(result.requests, REQUESTS);
  assert.ok(
    result.growthBytes < MAX_GROWTH_BYTES,
    `heap grew by ${(result.growthBytes / 1024 / 1024).toFixed(1)} MB over ${REQUESTS} MCP requests`,
  );
});
