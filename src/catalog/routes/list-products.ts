import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import type { CatalogService } from '../catalog-service.js';
import { MAX_CURSOR_LENGTH } from '../cursor.js';
import type { RateLimitCheck } from '../../http/rate-limit.js';
import { catalogSchemaError, errorResponse, marketQuery, rateLimitHeaders } from './shared.js';

const Query = Type.Object({
  q: Type.String({
    maxLength: 120,
    description:
      'Free text over the title (in the requested locale) and the handle. Case- and accent-insensitive, matches word prefixes. Results are ordered by relevance: exact handle, then title prefix or whole-word matches, then partial matches; ties newest first.',
  }),
  ...marketQuery,
  limit: Type.Integer({ minimum: 1, maximum: 20, default: 10, description: 'Page size, 1 to 20.' }),
  offset: Type.Integer({
    minimum: 0,
    maximum: 1000,
    description: 'Position of the first product, 0 to 1000. Cannot be combined with cursor (INVALID_QUERY).',
  }),
  cursor: Type.String({
    maxLength: MAX_CURSOR_LENGTH,
    description:
      'Opaque next_cursor of the previous page; preferred for paging. Valid only with the same q and market; walking it visits every matching product exactly once, even while products are added or repriced.',
  }),
}, { required: [] });

export function listProductsRoute(app: FastifyInstance, catalog: CatalogService, rateLimit: RateLimitCheck): void {
  app.get<{ Querystring: Static<typeof Query> }>(
    '/public/v1/products',
    {
      schema: {
        operationId: 'listProducts',
        tags: ['catalog'],
        summary: 'Search published products',
        description:
          'Lists published products with their variants, calculated prices and availability in the resolved market. Without q the order is newest first (created_at descending, then id). `count` is the total number of matches; `has_more` is true exactly when `next_cursor` is set. Unknown query parameters are ignored.',
        querystring: Query,
        response: {
          200: { description: 'A page of products', headers: rateLimitHeaders, content: { 'application/json': { schema: Type.Ref('ProductList') } } },
          400: errorResponse('REGION_NOT_FOUND for an invalid market; INVALID_QUERY for an invalid q, limit, offset or cursor, or cursor combined with offset'),
          429: errorResponse('RATE_LIMITED', true),
          500: errorResponse('INTERNAL_ERROR: temporary failure'),
        },
      },
      schemaErrorFormatter: catalogSchemaError,
      onRequest: rateLimit,
    },
    async (request) => ({ ...catalog.listProducts(request.query), request_id: request.id }),
  );
}
