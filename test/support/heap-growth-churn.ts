import assert from 'node:assert/strict';
import { getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';
import { boundHeapGrowth } from '../../src/operations/heap-growth.js';

/**
 * Run as its own process with --expose-gc (see test/operations/heap-growth.test.ts): holds
 * LIVE_OBJECTS small objects, the way the read model holds products, then bounds the
 * heap's growth to PERCENT (0: V8's own rule) and replaces random ones of them, so each
 * replaced object dies in the old space as a changed product does. Prints, as one JSON
 * line, the heap in use after a forced collection (`liveBytes`) and the most the old
 * space reserved during the replacements.
 * Usage: node --expose-gc --import tsx test/support/heap-growth-churn.ts PERCENT
 */
const percent = Number(process.argv[2]);
assert.ok(Number.isInteger(percent) && percent >= 0, 'give PERCENT, a whole number');
const LIVE_OBJECTS = 250_000;
/** Four times the live set replaced, in rounds with a turn of the event loop between them. */
const REPLACEMENTS = 4 * LIVE_OBJECTS;
const PER_ROUND = 10_000;
const gc = globalThis.gc;
assert.ok(gc, 'run with --expose-gc');

const made = (i: number) => ({ id: `product_${i}`, amounts: [i, i + 1, i + 2], stock: { quantity: i % 50 } });
const live = Array.from({ length: LIVE_OBJECTS }, (_, i) => made(i));
boundHeapGrowth(percent);
// A full collection sets the next limit, from the flag when it is set.
gc();
const liveBytes = getHeapStatistics().used_heap_size;

const oldSpaceSize = () => getHeapSpaceStatistics().find((space) => space.space_name === 'old_space')!.space_size;
let mostOldSpace = oldSpaceSize();
for (let replaced = 0; replaced < REPLACEMENTS; replaced += PER_ROUND) {
  for (let i = 0; i < PER_ROUND; i++) {
    const at = Math.floor(Math.random() * LIVE_OBJECTS);
    live[at] = made(replaced + i);
  }
  mostOldSpace = Math.max(mostOldSpace, oldSpaceSize());
  await new Promise((resolve) => setImmediate(resolve));
}
console.log(JSON.stringify({ liveBytes, mostOldSpaceBytes: mostOldSpace }));
