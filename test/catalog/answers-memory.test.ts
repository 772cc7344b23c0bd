import assert from 'node:assert/strict';
import { it } from 'node:test';
import { runGcScript, SLOW_TEST_TIMEOUT_MS } from '../support/slow-test.js';

const ROUNDS = 2;
/**
 * Once every answer is prepared, reading them again adds nothing: measured 0.1 to 0.3 MB
 * over 1,200 more requests. Keeping each response's compressed bytes, or making
 * an answer anew for each request, would add tens of megabytes.
 */
const MAX_GROWTH_BYTES = 8 * 1024 * 1024;

it('catalog answers are prepared once: re-reading 600 distinct pages in every coding leaves memory flat', { timeout: SLOW_TEST_TIMEOUT_MS }, async () => {
  const result = await runGcScript<{ answers: number; requests: number; filledBytes: number; growthBytes: number }>('test/support/catalog-answers-memory.ts', [String(ROUNDS)]);
  assert.equal(result.requests, result.answers * (ROUNDS + 1));
  assert.ok(
    result.growthBytes < MAX_GROWTH_BYTES,
    `memory grew by ${(result.growthBytes / 1024 / 1024).toFixed(1)} MB over ${result.requests - result.answers} repeated reads`,
  );
});
