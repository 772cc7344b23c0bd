import assert from 'node:assert/strict';
import { it } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { runGcScript, SLOW_TEST_TIMEOUT_MS } from '../support/slow-test.js';

const PERCENT = loadConfig({}).heapGrowthPercent;
/**
 * With the default bound, replacing four times the live set of test/support/
 * heap-growth-churn.ts made the old space reserve 1.6 to 2.3 times the heap in use after a
 * full collection, at most (Node.js 20 and 24 on the 2-core machine, 27 November 2026):
 * the limit, and what was allocated while the collector marked. Under V8's own rule it
 * reserved 3.4 to 3.8 times, and this bound fails.
 */
const MOST_OLD_SPACE_PER_LIVE_BYTE = 3;

it(`bounds the old space's growth past the live heap to the default ${PERCENT}%, also when set with a live heap held`, { timeout: SLOW_TEST_TIMEOUT_MS }, async () => {
  const { liveBytes, mostOldSpaceBytes } = await runGcScript<{ liveBytes: number; mostOldSpaceBytes: number }>('test/support/heap-growth-churn.ts', [String(PERCENT)]);
  const ratio = mostOldSpaceBytes / liveBytes;
  assert.ok(ratio <= MOST_OLD_SPACE_PER_LIVE_BYTE, `the old space reserved ${ratio.toFixed(2)} times the heap in use after a full collection (${Math.round(liveBytes / 2 ** 20)} MiB)`);
});
