import type { Kysely } from 'kysely';
import { chunks } from '../../../store/chunks.js';
import type { Database } from '../../../store/schema.js';

/**
 * Files products under their categories in `product_categories`, replacing what was
 * filed for them: the rows the admin API lists products of a category by, kept by every
 * writer of a product's categories (a PUT, a PATCH, an import, a delete with none).
 */
export async function fileUnderCategories(trx: Kysely<Database>, products: readonly { id: string; categories: readonly string[] }[]): Promise<void> {
  for (const ids of chunks(products.map((product) => product.id))) await trx.deleteFrom('product_categories').where('product_id', 'in', ids).execute();
  const rows = products.flatMap((product) => [...new Set(product.categories)].map((category_handle) => ({ category_handle, product_id: product.id })));
  for (const batch of chunks(rows)) await trx.insertInto('product_categories').values(batch).execute();
}
