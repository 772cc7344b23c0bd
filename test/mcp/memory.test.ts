import assert from 'node:assert/strict';
import { it } from 'node:test';
import { runGcScript, SLOW_TEST_TIMEOUT_MS } from '../support/slow-test.js';

const REQUESTS = 2400;
/**
 * Steady state stays within about 3 MB here (caches filling once). Building the tool
 * schemas per request leaked about 300 KB per request, so a leak of even a twentieth of
 * that would cross this bound.
 */
const MAX_GROWTH_BYTES = 12 * 1024 * 1024;

it(`${REQUESTS} MCP requests (tools/list and tools/call on both servers) leave the heap flat`, { timeout: SLOW_TEST_TIMEOUT_MS }, async () => {
  const result = await runGcScript<{ requests: number; growthBytes: number }>('test/support/mcp-heap-growth.ts', [String(REQUESTS)]);
  assert.equal(result.requests, REQUESTS);
  assert.ok(
    result.growthBytes < MAX_GROWTH_BYTES,
    `heap grew by ${(result.growthBytes / 1024 / 1024).toFixed(1)} MB over ${REQUESTS} MCP requests`,
  );
});
