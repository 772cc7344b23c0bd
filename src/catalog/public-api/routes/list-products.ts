import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { sendPrepared } from '../../../http/prepared-body.js';
import { requestIdTail } from '../answers.js';
import { filterFields, marketFields, queryFields } from '../query-schemas.js';
import { refuseEmptyHandle } from './get-product.js';
import { catalogSchemaError, errorResponse, type CatalogRouteKit } from './shared.js';

const Query = Type.Object({ ...queryFields, ...marketFields, ...filterFields });

export function listProductsRoute(app: FastifyInstance, { answers, rateLimit, responses }: CatalogRouteKit): void {
  app.get<{ Querystring: Static<typeof Query> }>(
    '/v1/products',
    {
      schema: {
        operationId: 'listProducts',
        tags: ['catalog'],
        summary: 'Search published products',
        security: [],
        description:
          'Lists published products with their variants, calculated prices and availability in the resolved market. Without q the order is newest first (created_at descending, then id). Filters (category, collection, tag, available, price_min, price_max) narrow the result and sort changes its order; both combine with q, the market and either kind of paging. `count` is the total number of matches; `has_more` is true exactly when `next_cursor` is set. Unknown query parameters are ignored.',
        querystring: Query,
        response: {
          200: responses.ok('A page of products', Type.Ref('ProductList')),
          304: responses.notModified,
          400: errorResponse(
            'REGION_NOT_FOUND for an invalid market; INVALID_QUERY for an invalid q, limit, offset, cursor, filter or sort (the message names the parameter), an unknown category or collection, price_min above price_max, or cursor combined with offset',
          ),
          429: responses.rateLimited,
          500: errorResponse('INTERNAL_ERROR: temporary failure'),
        },
      },
      schemaErrorFormatter: catalogSchemaError,
      onRequest: [rateLimit, refuseEmptyHandle],
      // Prepared answers carry their compressed forms.
      compress: false,
    },
    async (request, reply) => sendPrepared(request, reply, await answers.list(request.query), requestIdTail(request.id), answers.caching),
  );
}
