import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import { HANDLE_PATTERN } from '../catalog/model/handle.js';
import { DEFAULT_LOCALE, LOCALES } from '../catalog/model/locales.js';
import type { CatalogReadModel } from '../catalog/read-model/read-model.js';
import { words } from '../catalog/read-model/text.js';
import { chunks } from '../store/chunks.js';
import type { Database } from '../store/schema.js';
import { AdminProblem } from './errors.js';

export interface ProductListQuery {
  limit: number;
  cursor?: string;
  status?: 'draft' | 'published';
  category?: string;
  collection?: string;
  updated_since?: string;
  sku?: string;
  q?: string;
}

const HANDLE = new RegExp(HANDLE_PATTERN);

/** The cursor is the handle the page ended at; opaque to clients, and an edited one only skips products they may list anyway. */
const encodeCursor = (handle: string) => Buffer.from(handle).toString('base64url');

function decodeCursor(cursor: string): string {
  const handle = Buffer.from(cursor, 'base64url').toString();
  if (!HANDLE.test(handle)) throw new AdminProblem('INVALID_REQUEST', 'Invalid request: cursor is not a cursor this API issued.', 'Pass next_cursor back unchanged.');
  return handle;
}

type Products = ExpressionBuilder<Database, 'products'>;

/**
 * Products, drafts included, in handle order, a page at a time: each filter is read by
 * index (status, collection, time of change, SKU, `product_categories`), and the page
 * continues after the handle the cursor holds, so products created, changed or deleted
 * meanwhile neither repeat nor hide the others.
 *
 * A text query finds served products through this instance's search index (what
 * `q` finds on the public list, in any locale) and the others (drafts, weighted) by
 * every query word in their handle or a title: the store reads only those, by their
 * status and `weighted` indexes. Its page is ordered here, among the matches.
 */
export async function listProducts(db: Kysely<Database>, readModel: CatalogReadModel, query: ProductListQuery) {
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  const filtered = db
    .selectFrom('products')
    .select(['id', 'handle', 'version', 'status', 'weighted', 'thumbnail', 'category_handles', 'collection_handle', 'created_at', 'updated_at'])
    .$if(query.status !== undefined, (select) => select.where('status', '=', query.status!))
    .$if(query.collection !== undefined, (select) => select.where('collection_handle', '=', query.collection!))
    .$if(query.updated_since !== undefined, (select) => select.where('updated_at', '>=', new Date(query.updated_since!).toISOString()))
    .$if(query.category !== undefined, (select) =>
      select.where('id', 'in', (eb: Products) => eb.selectFrom('product_categories').select('product_id').where('category_handle', '=', query.category!)),
    )
    .$if(query.sku !== undefined, (select) => select.where('id', 'in', (eb: Products) => eb.selectFrom('variants').select('product_id').where('sku', '=', query.sku!)));
  type Row = Awaited<ReturnType<typeof filtered.execute>>[number];
  let rows: Row[];
  if (query.q === undefined) {
    rows = await filtered
      .$if(after !== undefined, (select) => select.where('handle', '>', after!))
      .orderBy('handle')
      .limit(query.limit + 1)
      .execute();
  } else {
    const queryWords = words(query.q);
    if (queryWords.length === 0) throw new AdminProblem('INVALID_REQUEST', 'Invalid request: querystring.q has no letters or digits to search for.', 'Send at least one word, or leave q out.');
    const later = (row: { handle: string }) => after === undefined || row.handle > after;
    // Not served: every word in the handle or in a title; at most a page and one after the
    // cursor, in handle order, however many drafts an import left (the page needs no more).
    const unserved = await filtered
      .where((eb) => eb.or([eb('status', '=', 'draft'), eb('weighted', '=', 1)]))
      .where((eb) =>
        eb.and(
          queryWords.map((word) =>
            eb.or([
              eb('handle', 'like', `%${word}%`),
              eb.exists(eb.selectFrom('product_translations as text').select('text.locale').whereRef('text.product_id', '=', 'products.id').where(sql`lower(text.title)`, 'like', `%${word}%`)),
            ]),
          ),
        ),
      )
      .$if(after !== undefined, (select) => select.where('handle', '>', after!))
      .orderBy('handle')
      .limit(query.limit + 1)
      .execute();
    // Served: the search index's matches that pass the other filters, in handle order, until a page is full.
    const served: Row[] = [];
    for (const handles of chunks((await servedMatches(readModel, queryWords)).filter((handle) => later({ handle })))) {
      if (served.length > query.limit) break;
      const found = new Map((await filtered.where('handle', 'in', handles).where('status', '=', 'published').where('weighted', '=', 0).execute()).map((row) => [row.handle, row]));
      for (const handle of handles) if (found.has(handle)) served.push(found.get(handle)!);
    }
    rows = [...unserved, ...served].sort((a, b) => (a.handle < b.handle ? -1 : 1)).slice(0, query.limit + 1);
  }
  const page = rows.slice(0, query.limit);
  const details = await pageDetails(db, page.map((row) => row.id));
  return {
    products: page.map((row) => ({
      id: row.id,
      handle: row.handle,
      version: Number(row.version),
      status: row.status,
      weighted: row.weighted === 1,
      title: details.titles.get(row.id) ?? '',
      thumbnail: row.thumbnail,
      categories: JSON.parse(row.category_handles) as string[],
      collection: row.collection_handle,
      skus: details.skus.get(row.id) ?? [],
      created_at: row.created_at,
      updated_at: row.updated_at,
    })),
    next_cursor: rows.length > query.limit ? encodeCursor(page.at(-1)!.handle) : null,
  };
}

/** The handles of the served products a query finds in any locale, in handle order. */
async function servedMatches(readModel: CatalogReadModel, queryWords: string[]): Promise<string[]> {
  await readModel.whenSearchable();
  const { search } = readModel.catalog;
  const handles = new Set<string>();
  for (const locale of LOCALES) {
    const { bySlot } = search.match(queryWords, locale);
    bySlot.forEach((match, slot) => {
      const product = match > 0 ? search.productAt(slot) : undefined;
      if (product) handles.add(product.handle);
    });
  }
  return [...handles].sort();
}

/** The default locale's titles and the SKUs of a page's products: two queries for the page. */
async function pageDetails(db: Kysely<Database>, ids: string[]) {
  if (ids.length === 0) return { titles: new Map<string, string>(), skus: new Map<string, string[]>() };
  const [texts, variants] = await Promise.all([
    db.selectFrom('product_translations').select(['product_id', 'title']).where('product_id', 'in', ids).where('locale', '=', DEFAULT_LOCALE).execute(),
    db.selectFrom('variants').select(['product_id', 'sku']).where('product_id', 'in', ids).orderBy('product_id').orderBy('position').execute(),
  ]);
  const skus = new Map<string, string[]>();
  for (const { product_id, sku } of variants) skus.set(product_id, [...(skus.get(product_id) ?? []), sku]);
  return { titles: new Map(texts.map((text) => [text.product_id, text.title])), skus };
}
