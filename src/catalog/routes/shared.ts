import type { FastifySchemaValidationError } from 'fastify';
import type { SchemaErrorDataVar } from 'fastify/types/schema.js';
import { Type } from 'typebox';
import { catalogProblem, invalidHandle } from '../errors.js';

const rateLimitHeader = (description: string) => Type.Integer({ description });

/** The headers every catalog answer within the limit carries. */
export const rateLimitHeaders = {
  'RateLimit-Limit': rateLimitHeader('Requests allowed per window (120 per client IP per 60 s by default).'),
  'RateLimit-Remaining': rateLimitHeader('Requests left in the current window.'),
  'RateLimit-Reset': rateLimitHeader('Delta-seconds until the window resets.'),
  'X-Request-Id': Type.String({ format: 'uuid', description: 'Same as `request_id` in the body.' }),
};

export const errorResponse = (description: string, withRetryAfter = false) => ({
  description,
  content: { 'application/json': { schema: Type.Ref('PublicApiError') } },
  headers: withRetryAfter
    ? { ...rateLimitHeaders, 'Retry-After': rateLimitHeader('Seconds until a retry may succeed; equals RateLimit-Reset.') }
    : { 'X-Request-Id': rateLimitHeaders['X-Request-Id'] },
});

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
      'Use locale en or it, a two-letter country and a three-letter currency, e.g. locale=en&country=IT&currency=EUR.',
    );
  }
  return catalogProblem(
    'INVALID_QUERY',
    `Invalid query parameter: ${what}.`,
    'Bounds: q up to 120 characters, limit 1 to 20, offset 0 to 1000, cursor up to 512 characters.',
  );
}

