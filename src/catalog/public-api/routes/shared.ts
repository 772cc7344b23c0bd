import type { FastifySchemaValidationError } from 'fastify';
import type { SchemaErrorDataVar } from 'fastify/types/schema.js';
import { Type, type TSchema } from 'typebox';
import type { RateLimitCheck } from '../../../http/rate-limit.js';
import type { CatalogAnswers } from '../answers.js';
import { catalogProblem, FEED_CURSOR_HINT, invalidHandle } from '../errors.js';
import { DEFAULT_LOCALE, LOCALES } from '../../model/locales.js';
import { DEFAULT_COUNTRY } from '../../queries/market.js';
import { LOOKUP_BOUNDS_RULE, lookupFields } from '../../queries/lookup.js';
import { FILTER_RULE, filterFields, QUERY_BOUNDS_RULE } from '../query-schemas.js';

const integerHeader = (description: string) => Type.Integer({ description });
const requestIdHeader = { 'X-Request-Id': Type.String({ format: 'uuid', description: 'Same as `request_id` in the body.' }) };
const errorBody = { 'application/json': { schema: Type.Ref('PublicApiError') } };

/** A catalog error answer other than RATE_LIMITED, documented with its request id. */
export const errorResponse = (description: string) => ({ description, headers: requestIdHeader, content: errorBody });

/**
 * A request refused before its route ran: a repeated Host or Authorization header, a body
 * with a Content-Encoding. The catalog's envelope is also that of every URL no other
 * surface claims, so the routes there (this document, the operations probes) declare it.
 */
export const malformedRequestResponse = errorResponse(
  'INVALID_QUERY: a repeated Host or Authorization header (400), or a body with a Content-Encoding (415).',
);

/** What every catalog route is declared with. */
export interface CatalogRouteKit {
  answers: CatalogAnswers;
  rateLimit: RateLimitCheck;
  responses: CatalogResponses;
}

/** How the catalog routes document the answers that carry the RateLimit and caching headers, with the deployment's limit and cache lifetimes. */
export interface CatalogResponses {
  ok(description: string, schema: TSchema): object;
  notModified: object;
  rateLimited: object;
}

/** The headers every answer counted against the catalog window carries. */
function windowHeaders(limitInWords: string) {
  return {
    'RateLimit-Limit': integerHeader(`Requests allowed per window; the catalog limit is ${limitInWords}.`),
    'RateLimit-Remaining': integerHeader('Requests left in the current window.'),
    'RateLimit-Reset': integerHeader('Delta-seconds until the window resets.'),
    ...requestIdHeader,
  };
}

/** RATE_LIMITED on a route that counts against the catalog window (`limitInWords`: catalogLimitInWords in src/catalog/public-api/rate-limit.ts). */
export function rateLimitedResponse(limitInWords: string): object {
  return {
    description: 'RATE_LIMITED',
    headers: { ...windowHeaders(limitInWords), 'Retry-After': integerHeader('Seconds until a retry may succeed; equals RateLimit-Reset.') },
    content: errorBody,
  };
}

export function catalogResponses(limitInWords: string, cacheControl: string): CatalogResponses {
  const headers = windowHeaders(limitInWords);
  const validators = {
    ETag: Type.String({
      description:
        'Strong validator of the answer (everything but request_id), the same on every instance; it changes when anything shown changes. Send it in If-None-Match to get 304 while the answer is unchanged. Each Content-Encoding has its own tag (`"…-br"`, `"…-gzip"`): send the tag of the form you hold, with the same Accept-Encoding.',
    }),
    'Cache-Control': Type.String({ description: `How long browsers and shared caches may keep the answer on this deployment: \`${cacheControl}\`. Errors are \`no-store\`.` }),
    Vary: Type.String({ description: '`Accept-Encoding` (gzip or br for bodies over about 1 KB, when asked), and `Origin` when CORS_ORIGINS lists origins.' }),
  };
  return {
    ok: (description, schema) => ({ description, headers: { ...headers, ...validators }, content: { 'application/json': { schema } } }),
    notModified: { description: 'Not Modified: If-None-Match holds the ETag of the answer as it is now; no body.', headers: { ...headers, ...validators } },
    rateLimited: rateLimitedResponse(limitInWords),
  };
}

const MARKET_PARAMETERS = new Set(['locale', 'country', 'currency']);

/**
 * Turns a schema violation into the contract's codes: market parameters are
 * REGION_NOT_FOUND (an invalid market), a bad handle INVALID_HANDLE, anything else
 * INVALID_QUERY.
 */
export function catalogSchemaError(errors: FastifySchemaValidationError[], dataVar: SchemaErrorDataVar): Error {
  const error = errors[0];
  const field =
    (error?.params as { missingProperty?: string } | undefined)?.missingProperty ??
    error?.instancePath.split('/')[1] ??
    '';
  const what = `${field || dataVar} ${error?.message ?? 'is invalid'}`;
  if (dataVar === 'params') return invalidHandle(`Invalid handle: ${what}.`);
  if (MARKET_PARAMETERS.has(field)) {
    return catalogProblem(
      'REGION_NOT_FOUND',
      `Invalid market: ${what}.`,
      `Use locale ${LOCALES.join(' or ')}, a two-letter country and a three-letter currency, e.g. locale=${DEFAULT_LOCALE}&country=${DEFAULT_COUNTRY}.`,
    );
  }
  return catalogProblem('INVALID_QUERY', `Invalid query parameter: ${what}.`, invalidQueryHint(field));
}

/** The rule of the parameter's kind: a filter's, a lookup's, the feed cursor's, or the list's bounds. */
function invalidQueryHint(field: string): string {
  if (Object.hasOwn(filterFields, field)) return `${FILTER_RULE}.`;
  if (field === 'since' || field === 'last-event-id') return FEED_CURSOR_HINT;
  if (Object.hasOwn(lookupFields, field)) return `Bounds: ${LOOKUP_BOUNDS_RULE}.`;
  return `Bounds: ${QUERY_BOUNDS_RULE}.`;
}

