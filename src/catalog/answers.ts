import { LRUCache } from 'lru-cache';
import type { CatalogCacheConfig } from '../config.js';
import { serializeJson } from '../http/json-serializer.js';
import { PreparedBody, type Caching } from '../http/prepared-body.js';
import type { ProductDetailResult, ProductListResult } from './catalog-service.js';
import type { PublicProduct } from './render.js';

/**
 * Bytes of prepared answers kept, counted by their text: their gzip and Brotli forms, once
 * asked for, add about two fifths. A 20-product page is 20 to 45 KB, so about a thousand
 * of the most asked pages.
 */
const ANSWER_BYTES_KEPT = 32 * 1024 * 1024;

interface PreparedAnswer {
  /**
   * The renderings the answer was made of: it serves only while the catalog still renders
   * these very objects. Weakly held, so a kept answer never keeps a rendering alive that
   * the service's own cache has let go (it is then made anew, and this answer with it).
   */
  products: readonly WeakRef<PublicProduct>[];
  body: PreparedBody;
}

/**
 * Catalog answers as sent: the JSON text of a list page or a product in a market, its
 * ETag and compressed forms, made once and reused while the answer stays the same. An
 * answer is found by everything it says apart from its products (count, paging, market)
 * and the ids of its products, and is served only if those products are still the very
 * renderings it was made of: a rendering is replaced when its product or region changes,
 * so a changed answer is never served, while changes to other products leave it alone.
 * Its ETag hashes the text itself, so every instance gives the same answer the same tag.
 */
export class CatalogAnswers {
  readonly caching: Caching;
  readonly #answers = new LRUCache<string, PreparedAnswer>({
    maxSize: ANSWER_BYTES_KEPT,
    sizeCalculation: (answer) => answer.body.size,
  });

  constructor(cache: CatalogCacheConfig) {
    this.caching = { cacheControl: cacheControl(cache) };
  }

  list(result: ProductListResult): PreparedBody {
    const { products, count, limit, offset, next_cursor: cursor, context } = result;
    const ids = products.map((product) => product.id).join(',');
    return this.#prepared(`list|${count}|${limit}|${offset}|${cursor}|${JSON.stringify(context)}|${ids}`, products, result);
  }

  detail(result: ProductDetailResult): PreparedBody {
    return this.#prepared(`detail|${JSON.stringify(result.context)}|${result.product.id}`, [result.product], result);
  }

  #prepared(key: string, products: readonly PublicProduct[], result: object): PreparedBody {
    const kept = this.#answers.get(key);
    if (kept && madeOf(kept, products)) return kept.body;
    // The answer's text without its closing brace: each response appends its request id.
    const body = new PreparedBody(serializeJson(result).slice(0, -1));
    this.#answers.set(key, { products: products.map((product) => new WeakRef(product)), body });
    return body;
  }
}

/** What ends each catalog answer: its request id, then the closing brace left off the prepared text. */
export const requestIdTail = (requestId: string): string => `,"request_id":${JSON.stringify(requestId)}}`;

function madeOf(answer: PreparedAnswer, products: readonly PublicProduct[]): boolean {
  return answer.products.length === products.length && answer.products.every((kept, index) => kept.deref() === products[index]);
}

/** `max-age` 0 makes every cache revalidate (cheap with the ETag); stale-while-revalidate 0 leaves it out. */
function cacheControl({ maxAgeSeconds, staleWhileRevalidateSeconds }: CatalogCacheConfig): string {
  if (maxAgeSeconds === 0) return 'no-cache';
  return `public, max-age=${maxAgeSeconds}${staleWhileRevalidateSeconds > 0 ? `, stale-while-revalidate=${staleWhileRevalidateSeconds}` : ''}`;
}
