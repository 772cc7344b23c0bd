import assert from 'node:assert/strict';
import type { CheckedResponse, ContractClient } from './contract.js';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * A catalog error as the contract promises it: the status, the code, and a
 * `request_id` that is a UUID and equals the `X-Request-Id` header. (The body's shape
 * is already checked against `PublicApiError` by the ContractClient.)
 */
export function assertProblem(response: CheckedResponse, status: number, code: string): void {
  assert.equal(response.statusCode, status, response.body);
  assert.equal(response.data.error.code, code, response.body);
  assert.match(response.data.request_id, UUID);
  assert.equal(response.headers['x-request-id'], response.data.request_id);
}

export function assertOk(response: CheckedResponse): void {
  assert.equal(response.statusCode, 200, response.body);
}

/** GET a catalog URL and return the 200 body. */
export async function getOk(client: ContractClient, url: string): Promise<any> {
  const response = await client.get(url);
  assertOk(response);
  return response.data;
}

export interface CatalogPage {
  handles: string[];
  count: number;
  offset: number;
  hasMore: boolean;
  nextCursor: string | null;
}

/**
 * Walks `next_cursor` from the first page of `query` to the last, checking on each page
 * that `has_more` is exactly `next_cursor !== null`. `between` runs after each page, so a
 * test can change the catalog in the middle of a walk.
 */
export async function walkCursor(
  client: ContractClient,
  query: string,
  between: (pageIndex: number) => Promise<void> = async () => {},
): Promise<CatalogPage[]> {
  const pages: CatalogPage[] = [];
  let cursor: string | null = null;
  do {
    const url: string = `/public/v1/products?${query}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
    const data = await getOk(client, url);
    assert.equal(data.has_more, data.next_cursor !== null, `has_more and next_cursor disagree on ${url}`);
    pages.push({
      handles: data.products.map((p: { handle: string }) => p.handle),
      count: data.count,
      offset: data.offset,
      hasMore: data.has_more,
      nextCursor: data.next_cursor,
    });
    cursor = data.next_cursor;
    await between(pages.length - 1);
    assert.ok(pages.length <= 200, 'the cursor walk does not end');
  } while (cursor !== null);
  return pages;
}

/** Every handle of `query`, page by page with offset pagination. */
export async function walkOffset(client: ContractClient, query: string, limit: number): Promise<string[]> {
  const handles: string[] = [];
  for (let offset = 0; ; offset += limit) {
    const data = await getOk(client, `/public/v1/products?${query}&limit=${limit}&offset=${offset}`);
    handles.push(...data.products.map((p: { handle: string }) => p.handle));
    if (offset + limit >= data.count) return handles;
  }
}

/** Handles that occur more than once. */
export function duplicates(handles: string[]): string[] {
  return handles.filter((handle, index) => handles.indexOf(handle) !== index);
}
