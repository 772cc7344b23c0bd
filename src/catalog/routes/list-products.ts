import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import type { CatalogService } from '../catalog-service.js';
import { marketFields, queryFields } from '../query-schemas.js';
import type { RateLimitCheck } from '../../http/rate-limit.js';
import { catalogSchemaError, errorResponse, type CatalogResponses } from './shared.js';

const Query = Type.Object({ ...queryFields, ...marketFields });

export function listProductsRoute(app: FastifyInstance, catalog: CatalogService, rateLimit: RateLimitCheck, responses: CatalogResponses): void {
  app.get<{ Querystring: Static<typeof Query> }>(
    '/v1/products',
    {
      schema: {
        operationId: 'listProducts',
        tags: ['catalog'],
        summary: 'Search published products',
        security: [],
        description:
          'Lists published products with their variants, calculated prices and availability in the resolved market. Without q the order is newest first (created_at descending, then id). `count` is the total number of matches; `has_more` is true exactly when `next_cursor` is set. Unknown query parameters are ignored.',
        querystring: Query,
        response: {
          200: responses.ok('A page of products', Type.Ref('ProductList')),
          400: errorResponse('REGION_NOT_FOUND for an invalid market; INVALID_QUERY for an invalid q, limit, offset or cursor, or cursor combined with offset'),
          429: responses.rateLimited,
          500: errorResponse('INTERNAL_ERROR: temporary failure'),
        },
      },
      schemaErrorFormatter: catalogSchemaError,
      onRequest: rateLimit,
    },
    async (request) => ({ ...(await catalog.listProducts(request.query)), request_id: request.id }),
  );
}
