import type { CursorPosition } from '../cursor.js';
import { titleField, titleIn } from './search-index.js';
import type { Locale } from '../locales.js';
import type { CatalogProduct, CatalogSnapshot } from './snapshot.js';
import { snapshotMemo } from './snapshot-memo.js';
import { words } from './text.js';

export interface RankedProduct {
  product: CatalogProduct;
  /** 0 exact handle, 1 every query word is a whole word of the title, 2 partial (prefix) match; 0 for every product without a query. */
  tier: number;
}

/**
 * The matching products in their served order (docs/decisions.md, Ordering). Relevance is a tier that
 * depends only on the product and the query, never on corpus statistics, so the order
 * and therefore keyset cursors stay stable while the catalog changes.
 */
export function matchingProducts(snapshot: CatalogSnapshot, q: string | undefined, locale: Locale): RankedProduct[] {
  const queryWords = q === undefined ? [] : words(q);
  const key = queryWords.length === 0 ? '' : `${locale}:${queryWords.join(' ')}`;
  return rankedMemo(snapshot, key, () => rank(snapshot, queryWords, locale));
}

/** Popular queries repeat: their ranked results are kept per snapshot. */
const rankedMemo = snapshotMemo<RankedProduct[]>(1000);

function rank(snapshot: CatalogSnapshot, queryWords: string[], locale: Locale): RankedProduct[] {
  if (queryWords.length === 0) return snapshot.products.map((product) => ({ product, tier: 0 }));

  const hits = snapshot.search.search(queryWords.join(' '), {
    fields: ['handle', titleField(locale)],
    prefix: true,
    fuzzy: (term) => (term.length >= 5 ? 0.2 : false),
    combineWith: 'AND',
  });
  const exactHandle = queryWords.join('-');
  const ranked: RankedProduct[] = [];
  for (const hit of hits) {
    const product = snapshot.products[snapshot.rank.get(hit.id as string)!]!;
    ranked.push({ product, tier: tierOf(product, locale, exactHandle, queryWords) });
  }
  return ranked.sort((a, b) => a.tier - b.tier || snapshot.rank.get(a.product.id)! - snapshot.rank.get(b.product.id)!);
}

function tierOf(product: CatalogProduct, locale: Locale, exactHandle: string, queryWords: string[]): number {
  if (product.handle === exactHandle) return 0;
  const titleWords = words(titleIn(product, locale));
  return queryWords.every((word) => titleWords.includes(word)) ? 1 : 2;
}

export function positionOf(entry: RankedProduct): CursorPosition {
  return { tier: entry.tier, createdAt: entry.product.createdAt, id: entry.product.id };
}

/** Index of the first entry that comes after the position in the served order. */
export function indexAfter(ranked: RankedProduct[], position: CursorPosition): number {
  let low = 0;
  let high = ranked.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compare(positionOf(ranked[middle]!), position) <= 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The served order as a comparison: tier, then newest first, then id. */
function compare(a: CursorPosition, b: CursorPosition): number {
  if (a.tier !== b.tier) return a.tier - b.tier;
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return a.id === b.id ? 0 : a.id < b.id ? -1 : 1;
}
