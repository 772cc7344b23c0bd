import assert from 'node:assert/strict';
import { it } from 'node:test';
import { runGcScript, SLOW_TEST_TIMEOUT_MS } from '../support/slow-test.js';

const CHANGES = 2000;
const STREAMS = 5;
/**
 * After the warm-up, 2,000 changes grow the heap by 0.3 to 0.5 MB on a quiet machine and
 * up to 1.8 MB on a loaded one (code the JIT compiles meanwhile), and nothing outside it.
 * Anything kept per change, such as an event held per stream or per delivery, of 1.5 KB
 * or more crosses this bound. (A weak reference left per delivery attempt, about 100
 * bytes, was found by comparing heap snapshots of test/support/live-heap-growth.ts
 * instead: src/http/outbound.ts.)
 */
const MAX_GROWTH_BYTES = 3 * 1024 * 1024;

it(`${CHANGES} price changes followed by ${STREAMS} change streams and a webhook leave the heap flat`, { timeout: SLOW_TEST_TIMEOUT_MS }, async () => {
  const result = await runGcScript<{
    changes: number;
    heapGrowthBytes: number;
    externalGrowthBytes: number;
    delivered: { webhook: number; streams: number[] };
  }>('test/support/live-heap-growth.ts', [String(CHANGES)]);
  assert.equal(result.changes, CHANGES);
  // Every change reached every listener, warm-up included, so the growth is that of a working service.
  const expected = result.delivered.webhook;
  assert.ok(expected >= CHANGES, `the receiver had ${expected} events of more than ${CHANGES}`);
  assert.deepEqual(result.delivered.streams, new Array(STREAMS).fill(expected));
  const growth = result.heapGrowthBytes + result.externalGrowthBytes;
  assert.ok(growth < MAX_GROWTH_BYTES, `the heap and Buffers grew by ${(growth / 1024 / 1024).toFixed(2)} MB over ${CHANGES} changes`);
});
