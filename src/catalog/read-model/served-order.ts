/** What places a product in the served order. */
export interface Positioned {
  readonly id: string;
  readonly createdAtMs: number;
}

/** The served order (docs/decisions.md, Ordering): newest first, then by id. */
export function compareServedOrder(a: Positioned, b: Positioned): number {
  return b.createdAtMs - a.createdAtMs || (a.id === b.id ? 0 : a.id < b.id ? -1 : 1);
}

/** The first index in 0 to `length` whose element is not `before`, for elements ordered so that every one that is comes first (a binary search). */
export function firstIndexNotBefore(length: number, before: (index: number) => boolean): number {
  let low = 0;
  let high = length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (before(middle)) low = middle + 1;
    else high = middle;
  }
  return low;
}
