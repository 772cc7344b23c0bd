import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { sendPrepared } from '../../../http/prepared-body.js';
import { requestIdTail } from '../answers.js';
import { lookupFields, MAX_LOOKUP_IDENTIFIERS } from '../../queries/lookup.js';
import { marketFields } from '../query-schemas.js';
import { catalogSchemaError, errorResponse, type CatalogRouteKit } from './shared.js';

const Query = Type.Object({ ...lookupFields, ...marketFields });

/**
 * GET /public/v1/lookup: beside the product routes, not under them, where a product
 * whose handle is "lookup" would shadow it.
 */
export function lookupProductsRoute(app: FastifyInstance, { answers, rateLimit, responses }: CatalogRouteKit): void {
  app.get<{ Querystring: Static<typeof Query> }>(
    '/v1/lookup',
    {
      schema: {
        operationId: 'lookupProducts',
        tags: ['catalog'],
        summary: 'Look up products by id, variant id or SKU',
        security: [],
        description: `Finds published products by product id, variant id or SKU, up to ${MAX_LOOKUP_IDENTIFIERS} identifiers of all kinds together in one request (repeat a parameter for several: \`sku=A&sku=B\`). Answers each matched product once, exactly as GET /public/v1/products shows it in the resolved market; what each identifier matched (\`matches\`); and the identifiers that matched nothing (\`not_found\`: unknown, draft or weighted products, which are never served). An identifier given twice is answered once. Unknown query parameters are ignored.`,
        querystring: Query,
        response: {
          200: responses.ok('The products found, what each identifier matched and the identifiers that matched nothing', Type.Ref('ProductLookup')),
          304: responses.notModified,
          400: errorResponse(`REGION_NOT_FOUND for an invalid market; INVALID_QUERY for no identifier, more than ${MAX_LOOKUP_IDENTIFIERS}, or a malformed one`),
          429: responses.rateLimited,
          500: errorResponse('INTERNAL_ERROR: temporary failure'),
        },
      },
      schemaErrorFormatter: catalogSchemaError,
      onRequest: rateLimit,
      // Prepared answers carry their compressed forms.
      compress: false,
    },
    async (request, reply) => sendPrepared(request, reply, answers.lookup(request.query), requestIdTail(request.id), answers.caching),
  );
}
