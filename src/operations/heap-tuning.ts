import { setFlagsFromString } from 'node:v8';

/**
 * How the server tunes V8's heap for a large live set that changes all day: the catalog
 * held in memory, and each change replacing objects that have lived long enough to sit
 * in the old space. Both settings go through `v8.setFlagsFromString`; V8 reads these
 * flags each time it uses them, so they take effect whenever they are set
 * (test/operations/heap-tuning.test.ts sets them with a live heap already held; CI runs
 * it on Node.js 20 and 24, and it was run by hand on 26). Each answers the flags it set.
 */

/**
 * Bounds how far V8 lets the old space grow past what the last full collection left
 * alive: to `percent` more (V8's `--heap-growing-percent`), or, with 0, as far as V8's
 * own rule allows. That rule raises the factor while collections are cheap next to the
 * work between them, as they are for a large live heap: under sustained changes the
 * service's RSS rose at every collection while the live heap stayed flat (README, "Live
 * updates at scale"). The server sets it first thing, so that the limit the catalog's
 * loading leaves is bounded too: set once the catalog was loaded, the first collection
 * after came at 580 MiB for 356 MiB alive.
 */
export function boundHeapGrowth(percent: number): string[] {
  return percent > 0 ? setV8Flag(`--heap-growing-percent=${percent}`) : [];
}

/**
 * Has V8 favour memory over speed (`--optimize-for-size`) from now on, when `enabled`.
 * What is wanted here is compaction: by default a full collection moves objects only off
 * pages that are nearly empty, so the holes that changes leave across the old space stay,
 * and the space reserved after each collection rose 6 to 12 MiB a minute under 1,000
 * changes a minute. Favouring memory, V8 starts its full collections as ones that reduce
 * memory, which also empty pages only partly free, so the reservation stays near the live
 * heap, for more full collections. The flag reaches further than collections (V8 then
 * also chooses memory over speed elsewhere, in its caches and its handling of weak
 * references), so its cost is measured on the whole service: README, "Live updates at
 * scale". The server sets it once the catalog is loaded and indexed: set from the start,
 * it made loading 100,000 products take 24 s instead of 9. A catalog rebuilt or imported
 * later is loaded under it.
 */
export function optimizeHeapForSize(enabled: boolean): string[] {
  return enabled ? setV8Flag('--optimize-for-size') : [];
}

/** Sets a flag and answers it, so that the ready log says what was set, not what was configured. */
function setV8Flag(flag: string): string[] {
  setFlagsFromString(flag);
  return [flag];
}
