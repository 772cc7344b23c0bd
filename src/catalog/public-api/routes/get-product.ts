import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { sendPrepared } from '../../../http/prepared-body.js';
import { requestIdTail } from '../answers.js';
import { HANDLE_RULE, handleField } from '../../model/handle.js';
import { marketFields } from '../query-schemas.js';
import { invalidHandle } from '../errors.js';
import { catalogSchemaError, errorResponse, type CatalogRouteKit } from './shared.js';

const Params = Type.Object({ handle: handleField(`${HANDLE_RULE}; anything else is INVALID_HANDLE.`) });

const Query = Type.Object(marketFields);

export function getProductRoute(app: FastifyInstance, { answers, rateLimit, responses }: CatalogRouteKit): void {
  app.get<{ Params: Static<typeof Params>; Querystring: Static<typeof Query> }>(
    '/v1/products/:handle',
    {
      schema: {
        operationId: 'getProduct',
        tags: ['catalog'],
        summary: 'One published product',
        security: [],
        description:
          'One published product with all variants, option combinations, calculated prices and availability in the resolved market. Draft and weighted products are never served (404).',
        params: Params,
        querystring: Query,
        response: {
          200: responses.ok('The product', Type.Ref('ProductDetail')),
          304: responses.notModified,
          400: errorResponse('REGION_NOT_FOUND for an invalid market; INVALID_HANDLE for a malformed handle'),
          404: errorResponse('PRODUCT_NOT_FOUND: unknown, draft or weighted product'),
          429: responses.rateLimited,
          500: errorResponse('INTERNAL_ERROR: temporary failure'),
        },
      },
      schemaErrorFormatter: catalogSchemaError,
      onRequest: rateLimit,
      // Prepared answers carry their compressed forms.
      compress: false,
    },
    async (request, reply) => sendPrepared(request, reply, answers.detail(request.params.handle, request.query), requestIdTail(request.id), answers.caching),
  );

  // A handle never contains a slash: a longer path under the product route is a malformed
  // handle (400 INVALID_HANDLE), not an unknown route.
  app.get('/v1/products/*', { schema: { hide: true }, onRequest: rateLimit }, async () => {
    throw invalidHandle('Invalid handle: a handle is a single path segment without "/".');
  });
}

/**
 * `/public/v1/products/` is, by the document, the product path with an empty handle: a
 * malformed handle (400 INVALID_HANDLE). The router, which ignores a trailing slash,
 * would serve the list there; the list route runs this first.
 */
export async function refuseEmptyHandle(request: FastifyRequest): Promise<void> {
  if (request.url.split('?', 1)[0]!.endsWith('/')) throw invalidHandle('Invalid handle: the handle is empty.');
}
