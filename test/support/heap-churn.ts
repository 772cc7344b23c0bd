import assert from 'node:assert/strict';
import { getHeapSpaceStatistics, GCProfiler } from 'node:v8';
import { boundHeapGrowth, optimizeHeapForSize } from '../../src/operations/heap-tuning.js';

/**
 * Run as its own process with --expose-gc (see test/operations/heap-tuning.test.ts): holds
 * LIVE_OBJECTS small objects with texts of varied length, the way the read model holds
 * products, then tunes the heap as the server does (its growth bounded to PERCENT, 0 for
 * V8's own rule; favouring memory when asked) and replaces random ones of them, so each
 * replaced object dies in the old space as a changed product does. Prints, as one JSON
 * line, the old space in use after a forced full collection before the replacements
 * (`liveBytes`), the most the old space reserved during them, and what it reserved after
 * each full collection of their second half.
 * Usage: node --expose-gc --import tsx test/support/heap-churn.ts PERCENT [optimize-for-size]
 */
const percent = Number(process.argv[2]);
assert.ok(Number.isInteger(percent) && percent >= 0, 'give PERCENT, a whole number');
const optimizeForSize = process.argv[3] === 'optimize-for-size';
assert.ok(process.argv[3] === undefined || optimizeForSize, 'the second argument, if any, is optimize-for-size');
const LIVE_OBJECTS = 150_000;
/** Six times the live set replaced, in rounds with a turn of the event loop between them. */
const REPLACEMENTS = 6 * LIVE_OBJECTS;
const PER_ROUND = 10_000;
const gc = globalThis.gc;
assert.ok(gc, 'run with --expose-gc');

const made = (i: number) => ({ id: `product_${i}`, amounts: [i, i + 1, i + 2], stock: { quantity: i % 50 }, title: `${'x'.repeat(i % 200)}${i}` });
const live = Array.from({ length: LIVE_OBJECTS }, (_, i) => made(i));
boundHeapGrowth(percent);
optimizeHeapForSize(optimizeForSize);
// A full collection sets the next limit, from the flags when they are set.
gc();
const oldSpace = () => getHeapSpaceStatistics().find((space) => space.space_name === 'old_space')!;
const liveBytes = oldSpace().space_used_size;

const profiler = new GCProfiler();
let mostOldSpace = oldSpace().space_size;
for (let replaced = 0; replaced < REPLACEMENTS; replaced += PER_ROUND) {
  if (replaced === REPLACEMENTS / 2) profiler.start();
  for (let i = 0; i < PER_ROUND; i++) {
    const at = Math.floor(Math.random() * LIVE_OBJECTS);
    live[at] = made(replaced + i);
  }
  mostOldSpace = Math.max(mostOldSpace, oldSpace().space_size);
  await new Promise((resolve) => setImmediate(resolve));
}
const afterFullCollections = profiler
  .stop()
  .statistics.filter((collection) => collection.gcType === 'MarkSweepCompact')
  .map((collection) => collection.afterGC.heapSpaceStatistics.find((space) => space.spaceName === 'old_space')!.spaceSize);
console.log(JSON.stringify({ liveBytes, mostOldSpaceBytes: mostOldSpace, oldSpaceAfterFullCollectionsBytes: afterFullCollections }));
