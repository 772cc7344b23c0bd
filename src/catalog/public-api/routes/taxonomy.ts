import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { sendPrepared } from '../../../http/prepared-body.js';
import { requestIdTail } from '../answers.js';
import { taxonomyFields } from '../query-schemas.js';
import { catalogSchemaError, errorResponse, type CatalogRouteKit } from './shared.js';

const Query = Type.Object(taxonomyFields);

interface TaxonomyRoute {
  list: 'categories' | 'collections';
  operationId: string;
  summary: string;
  description: string;
  /** The shared schema of the answer. */
  schema: string;
}

const COUNTS =
  'product_count is counted in the resolved market; with available=true only the products that can be bought there (a purchasable variant with a price in the market), with available=false only the others. Unknown query parameters are ignored.';

const ROUTES: TaxonomyRoute[] = [
  {
    list: 'categories',
    operationId: 'listCategories',
    summary: 'The category tree with product counts',
    description: `Every category in tree order (each parent before its children), titled in the requested locale, with its parent, its depth and the number of products in it or in any category below it, each product counted once: the \`count\` of GET /public/v1/products?category={handle}. ${COUNTS}`,
    schema: 'CategoryList',
  },
  {
    list: 'collections',
    operationId: 'listCollections',
    summary: 'The collections with product counts',
    description: `Every collection, titled in the requested locale, with the number of products in it: the \`count\` of GET /public/v1/products?collection={handle}. ${COUNTS}`,
    schema: 'CollectionList',
  },
];

/** `GET /v1/categories` and `GET /v1/collections`: the taxonomy a storefront builds its menus from, prepared like every catalog answer. */
export function taxonomyRoutes(app: FastifyInstance, { answers, rateLimit, responses }: CatalogRouteKit): void {
  for (const { list, operationId, summary, description, schema } of ROUTES) {
    app.get<{ Querystring: Static<typeof Query> }>(
      `/v1/${list}`,
      {
        schema: {
          operationId,
          tags: ['catalog'],
          summary,
          security: [],
          description,
          querystring: Query,
          response: {
            200: responses.ok(summary, Type.Ref(schema)),
            304: responses.notModified,
            400: errorResponse('REGION_NOT_FOUND for an invalid market; INVALID_QUERY for an available other than true or false'),
            429: responses.rateLimited,
            500: errorResponse('INTERNAL_ERROR: temporary failure'),
          },
        },
        schemaErrorFormatter: catalogSchemaError,
        onRequest: rateLimit,
        // Prepared answers carry their compressed forms.
        compress: false,
      },
      async (request, reply) => sendPrepared(request, reply, await answers.taxonomy(list, request.query), requestIdTail(request.id), answers.caching),
    );
  }
}
