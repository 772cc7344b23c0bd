import type { CursorPosition } from '../cursor.js';
import type { Locale } from '../locales.js';
import { compareServedOrder, type CatalogProduct, type LiveCatalog } from './live-catalog.js';
import { titleField } from './search-index.js';

/**
 * The products a query matches, in served order (docs/decisions.md, Ordering). Only the
 * matches' ids and creation times are read from it: a ranking may outlive a price
 * change, so products are rendered from the live catalog by id.
 */
export interface Ranking {
  readonly matches: readonly CatalogProduct[];
  /** Each match's relevance tier; undefined without a query, where every tier is 0. */
  readonly tiers: Uint8Array | undefined;
}

/**
 * Relevance is a tier that depends only on the product and the query, never on corpus
 * statistics, so the order and therefore keyset cursors stay stable while the catalog
 * changes: 0 exact handle, 1 every query word is a whole word of the title, 2 partial
 * (prefix or fuzzy) match.
 */
export function rankProducts(catalog: LiveCatalog, queryWords: readonly string[], locale: Locale): Ranking {
  if (queryWords.length === 0) return { matches: catalog.products, tiers: undefined };
  const title = titleField(locale);
  const hits = catalog.search.search(queryWords.join(' '), {
    fields: ['handle', title],
    prefix: true,
    fuzzy: (term) => (term.length >= 5 ? 0.2 : false),
    combineWith: 'AND',
  });
  const exactHandle = queryWords.join('-');
  const products = new Array<CatalogProduct>(hits.length);
  const tiers = new Uint8Array(hits.length);
  hits.forEach((hit, index) => {
    const product = catalog.productById.get(hit.id as string)!;
    products[index] = product;
    // `match` maps each matched term of the product to the fields it was found in: a
    // query word found as itself in the title is a whole word of it.
    tiers[index] = product.handle === exactHandle ? 0 : queryWords.every((word) => hit.match[word]?.includes(title)) ? 1 : 2;
  });
  // Sorting positions rather than objects: a broad query matches tens of thousands of products.
  const order = Uint32Array.from(products.keys()).sort((a, b) => tiers[a]! - tiers[b]! || compareServedOrder(products[a]!, products[b]!));
  return { matches: Array.from(order, (index) => products[index]!), tiers: Uint8Array.from(order, (index) => tiers[index]!) };
}

export function positionAt(ranking: Ranking, index: number): CursorPosition {
  const product = ranking.matches[index]!;
  return { tier: tierAt(ranking, index), createdAt: new Date(product.createdAtMs).toISOString(), id: product.id };
}

/** Index of the first match that comes after the position in the served order. */
export function indexAfter(ranking: Ranking, position: CursorPosition): number {
  const after = { id: position.id, createdAtMs: Date.parse(position.createdAt) };
  let low = 0;
  let high = ranking.matches.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((tierAt(ranking, middle) - position.tier || compareServedOrder(ranking.matches[middle]!, after)) <= 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

function tierAt(ranking: Ranking, index: number): number {
  return ranking.tiers?.[index] ?? 0;
}
