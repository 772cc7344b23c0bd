import type { ErrorSurface } from '../../http/error-surface.js';
import { HttpProblem } from '../../http/problem.js';
import { HANDLE_RULE } from '../model/handle.js';
import { LOOKUP_BOUNDS_RULE } from '../queries/lookup.js';
import { DEFAULT_COUNTRY } from '../queries/market.js';
import { CatalogReadError, type ReadRefusal } from '../read-model/read-errors.js';

/** The contract's `PublicApiError` codes, each with the status it is answered with. */
const STATUS_OF = {
  REGION_NOT_FOUND: 400,
  PRODUCT_NOT_FOUND: 404,
  INVALID_HANDLE: 400,
  INVALID_QUERY: 400,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  CHANGES_EXPIRED: 410,
  TOO_MANY_STREAMS: 429,
  STREAMS_UNAVAILABLE: 503,
} as const;

export type CatalogErrorCode = keyof typeof STATUS_OF;
export const CATALOG_ERROR_CODES = Object.keys(STATUS_OF) as CatalogErrorCode[];

/** A catalog failure: the status follows from the code; `hint` says what the client can do. */
export function catalogProblem(code: CatalogErrorCode, message: string, hint: string): HttpProblem {
  return new HttpProblem(STATUS_OF[code], code, message, { hint });
}

/** The code of each read refusal, on every surface that answers in `PublicApiError` (REST and the MCP catalog tools). */
const CODE_OF: Record<ReadRefusal['kind'], CatalogErrorCode> = {
  invalid_market: 'REGION_NOT_FOUND',
  invalid_cursor: 'INVALID_QUERY',
  cursor_with_offset: 'INVALID_QUERY',
  unknown_taxonomy: 'INVALID_QUERY',
  inverted_price_range: 'INVALID_QUERY',
  lookup_bounds: 'INVALID_QUERY',
  product_not_found: 'PRODUCT_NOT_FOUND',
  invalid_feed_cursor: 'INVALID_QUERY',
  changes_expired: 'CHANGES_EXPIRED',
};

/** A read refusal in the `PublicApiError` codes, with the surface's own hint (`message`: the refusal's own by default). */
export function refusalProblem(error: CatalogReadError, hint: string, message = error.message): HttpProblem {
  return catalogProblem(CODE_OF[error.refusal.kind], message, hint);
}

/** A read refusal as the REST routes answer it: hints in routes and query parameters. */
function restProblem(error: CatalogReadError): HttpProblem {
  const { refusal } = error;
  const aboutAParameter = refusal.kind === 'unknown_taxonomy' || refusal.kind === 'inverted_price_range';
  return refusalProblem(error, restHint(refusal), aboutAParameter ? `Invalid query parameter: ${error.message}` : error.message);
}

function restHint(refusal: ReadRefusal): string {
  switch (refusal.kind) {
    case 'invalid_market':
      if (refusal.parameter === 'locale') return `Use one of: ${refusal.accepted.join(', ')}.`;
      if (refusal.parameter === 'currency') return `Omit currency, or send ${refusal.accepted.join(' or ')}.`;
      return refusal.malformed ? `Send two letters, e.g. ${DEFAULT_COUNTRY}.` : `Served countries: ${refusal.accepted.join(', ')}.`;
    case 'invalid_cursor':
      return 'Send the next_cursor of the previous page unchanged, with the same q, locale, country and currency (and the same filters and sort), and without offset.';
    case 'cursor_with_offset':
      return 'Use next_cursor alone for the following pages; offset is for jumping to a position.';
    case 'unknown_taxonomy':
      return `GET /public/v1/${refusal.parameter === 'category' ? 'categories' : 'collections'} (MCP: list_categories) lists them.`;
    case 'inverted_price_range':
      return 'Send price_min at most price_max.';
    case 'lookup_bounds':
      return refusal.given === 0 ? `Bounds: ${LOOKUP_BOUNDS_RULE}.` : `Bounds: ${LOOKUP_BOUNDS_RULE}. Split the lookup into several.`;
    case 'product_not_found':
      return 'Search with GET /public/v1/products?q=... to find a product and its handle.';
    case 'invalid_feed_cursor':
      return FEED_CURSOR_HINT;
    case 'changes_expired':
      return 'Resynchronise: GET /public/v1/changes without since for the cursor of now, read the products again with GET /public/v1/products, then follow the feed from that cursor.';
  }
}

/** What to send as `since` (the change routes). */
export const FEED_CURSOR_HINT = "Send a next_cursor or a change's cursor from GET /public/v1/changes unchanged, or omit since for the cursor of now.";

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
  recognise: (error) => (error instanceof CatalogReadError ? restProblem(error) : undefined),
  // Successful catalog reads are cacheable; a refusal is about one request (a 429 about one client).
  errorHeaders: { 'cache-control': 'no-store' },
  malformedPath: (url) =>
    new HttpProblem(400, url.startsWith(PRODUCT_PATH) ? 'INVALID_HANDLE' : 'INVALID_QUERY', 'The request path is malformed or too long.', {
      hint: `Percent-encode the path correctly. ${HANDLE_HINT}`,
    }),
};
