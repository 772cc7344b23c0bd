/** What places a product in the served order. */
export interface Positioned {
  readonly id: string;
  readonly createdAtMs: number;
}

/** The served order (docs/decisions.md, Ordering): newest first, then by id. */
export function compareServedOrder(a: Positioned, b: Positioned): number {
  return b.createdAtMs - a.createdAtMs || (a.id === b.id ? 0 : a.id < b.id ? -1 : 1);
}
