import { setFlagsFromString } from 'node:v8';

/**
 * Bounds how far V8 lets the old space grow past what the last full collection left
 * alive: to `percent` more (V8's `--heap-growing-percent`), or, with 0, as far as V8's
 * own rule allows. That rule raises the factor while collections are cheap next to the
 * work between them: test/support/heap-growth-churn.ts reserved about 4 times its live
 * heap under it. A service holding its catalog in memory has a large live heap and cheap
 * collections, so under sustained changes its RSS rose at every collection while the
 * live heap stayed flat (README, "Live updates at scale").
 *
 * V8 reads the flag whenever it sets the next limit, so it takes effect from the next
 * full collection on, whenever it is set (test/operations/heap-growth.test.ts sets it
 * with a live heap already held; CI runs it on Node.js 20 and 24, and it was run by hand
 * on 26). The server sets it first thing, so that the limit the catalog's loading leaves
 * is bounded too: set once the catalog was loaded, the first collection after came at
 * 580 MiB for 356 MiB alive.
 */
export function boundHeapGrowth(percent: number): void {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
}
