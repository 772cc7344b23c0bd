import { LRUCache } from 'lru-cache';
import type { CatalogSnapshot } from './snapshot.js';

/**
 * A bounded cache of values derived from one snapshot. Snapshots are immutable, so a
 * derived value never goes stale; when a new snapshot replaces the old one, the old
 * one's cache is dropped with it (the WeakMap holds no snapshot alive).
 */
export function snapshotMemo<V extends object>(max: number) {
  const caches = new WeakMap<CatalogSnapshot, LRUCache<string, V>>();
  return (snapshot: CatalogSnapshot, key: string, derive: () => V): V => {
    let cache = caches.get(snapshot);
    if (!cache) {
      cache = new LRUCache<string, V>({ max });
      caches.set(snapshot, cache);
    }
    let value = cache.get(key);
    if (value === undefined) {
      value = derive();
      cache.set(key, value);
    }
    return value;
  };
}
