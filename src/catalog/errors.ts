import type { ErrorSurface } from '../http/error-surface.js';
import { HttpProblem } from '../http/problem.js';
import { HANDLE_RULE } from './handle.js';

/** The contract's `PublicApiError` codes, each with the status it is answered with. */
const STATUS_OF = {
  REGION_NOT_FOUND: 400,
  PRODUCT_NOT_FOUND: 404,
  INVALID_HANDLE: 400,
  INVALID_QUERY: 400,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
} as const;

export type CatalogErrorCode = keyof typeof STATUS_OF;
export const CATALOG_ERROR_CODES = Object.keys(STATUS_OF) as CatalogErrorCode[];

/** A catalog failure: the status follows from the code; `hint` says what the client can do. */
export function catalogProblem(code: CatalogErrorCode, message: string, hint: string): HttpProblem {
  return new HttpProblem(STATUS_OF[code], code, message, { hint });
}

const HANDLE_HINT = `Handles are ${HANDLE_RULE}, e.g. caffe-espresso-blend.`;

export function invalidHandle(message: string): HttpProblem {
  return catalogProblem('INVALID_HANDLE', message, HANDLE_HINT);
}

/** The product route's path; anything unreadable under it is a malformed handle. */
const PRODUCT_PATH = '/public/v1/products/';

/**
 * The public API's envelope (`PublicApiError`), for the catalog routes and for every URL
 * that no other surface claims (unknown routes, operations, requests refused before
 * routing). A malformed request and an unknown route are INVALID_QUERY, the contract's
 * code for a request this service cannot answer as asked.
 */
export const publicApiErrors: ErrorSurface = {
  body: (problem, { id }) => ({ error: { code: problem.code, message: problem.message, hint: problem.details.hint ?? '' }, request_id: id }),
  invalidRequestCode: 'INVALID_QUERY',
  notFoundCode: 'INVALID_QUERY',
  internalErrorCode: 'INTERNAL_ERROR',
  // Successful catalog reads are cacheable; a refusal is about one request (a 429 about one client).
  errorHeaders: { 'cache-control': 'no-store' },
  malformedPath: (url) =>
    new HttpProblem(400, url.startsWith(PRODUCT_PATH) ? 'INVALID_HANDLE' : 'INVALID_QUERY', 'The request path is malformed or too long.', {
      hint: `Percent-encode the path correctly. ${HANDLE_HINT}`,
    }),
};
