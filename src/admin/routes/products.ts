import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { CatalogFileProduct, SKU_MAX_LENGTH } from '../../catalog/file/catalog-file-schema.js';
import { DEFAULT_LOCALE } from '../../catalog/model/locales.js';
import { TAXONOMY_HANDLE_MAX_LENGTH } from '../../catalog/model/taxonomy.js';
import type { VersionCondition } from '../../catalog/store/write/write-errors.js';
import { AdminProblem } from '../errors.js';
import { AdminProduct, errorResponses, etagHeader, HandleParams, IfMatch, ok, ProductBody, ProductPatchBody, STALE } from '../schemas.js';
import { actorOf, ifMatch, security, withEtag, type AdminRouteKit } from './shared.js';

const ProductAnswer = Type.Object({ product: AdminProduct, request_id: Type.String({ format: 'uuid' }) });
const PutHeaders = Type.Object({
  ...IfMatch.properties,
  'if-none-match': Type.Optional(Type.String({ enum: ['*'], description: '`*`: create only; 412 if the product exists.' })),
});

const ProductListQuery = Type.Object(
  {
    limit: Type.Integer({ minimum: 1, maximum: 100, default: 50 }),
    cursor: Type.Optional(Type.String({ maxLength: 300, description: '`next_cursor` of the previous page, unchanged.' })),
    status: Type.Optional(CatalogFileProduct.properties.status),
    category: Type.Optional(Type.String({ minLength: 1, maxLength: TAXONOMY_HANDLE_MAX_LENGTH, description: 'Only products filed in this category itself (not in the categories below it).' })),
    collection: Type.Optional(Type.String({ minLength: 1, maxLength: TAXONOMY_HANDLE_MAX_LENGTH, description: 'Only products in this collection.' })),
    updated_since: Type.Optional(Type.String({ format: 'date-time', description: 'Only products changed at or after this time (their `updated_at`).' })),
    sku: Type.Optional(Type.String({ minLength: 1, maxLength: SKU_MAX_LENGTH, description: 'The product with a variant of exactly this SKU.' })),
    q: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description:
          'Words to find. Published products are found as the public list finds them (each word, or a word it begins, in the handle or the title in any locale; near misspellings of long words); drafts and weighted products by each word in the handle or a title.',
      }),
    ),
  },
  { additionalProperties: false },
);

const ProductPage = Type.Object({
  products: Type.Array(
    Type.Object({
      id: Type.String(),
      handle: Type.String(),
      version: Type.Integer({ description: "The product's version (GET /admin/v1/products/{handle} sends it as the ETag)." }),
      status: CatalogFileProduct.properties.status,
      weighted: Type.Boolean(),
      title: Type.String({ description: `The title in ${DEFAULT_LOCALE}.` }),
      thumbnail: Type.Union([Type.String(), Type.Null()]),
      categories: Type.Array(Type.String()),
      collection: Type.Union([Type.String(), Type.Null()]),
      skus: Type.Array(Type.String(), { description: 'Its variants\' SKUs, in their order.' }),
      created_at: Type.String({ format: 'date-time' }),
      updated_at: Type.String({ format: 'date-time' }),
    }),
  ),
  next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass it as `cursor` for the next page; null on the last.' }),
  request_id: Type.String({ format: 'uuid' }),
});

/** /admin/v1/products: the list; /admin/v1/products/{handle}: read, create or replace, change, delete one product, drafts included. */
export function productRoutes(app: FastifyInstance, { service }: AdminRouteKit): void {
  app.get<{ Querystring: Static<typeof ProductListQuery> }>(
    '/products',
    {
      schema: {
        operationId: 'adminListProducts',
        tags: ['products'],
        summary: 'List and find products, drafts included',
        description:
          'Every product whatever its status, in handle order, as summaries (GET /admin/v1/products/{handle} reads one whole). Filters combine: `status`, `category`, `collection`, `updated_since`, `sku` (a variant\'s SKU finds its product) and `q`. Pages with `next_cursor`: a product created, changed or deleted while you page neither repeats nor hides the others. An unknown category, collection or SKU finds nothing.',
        security,
        querystring: ProductListQuery,
        response: { 200: ok('A page of products', ProductPage), ...errorResponses({ 400: 'INVALID_REQUEST: a bad limit, status, date or cursor (not one this API issued), a `q` with no word, or an unknown parameter.' }) },
      },
    },
    async (request) => ({ ...(await service.listProducts(request.query)), request_id: request.id }),
  );

  app.get<{ Params: Static<typeof HandleParams> }>(
    '/products/:handle',
    {
      schema: {
        operationId: 'adminGetProduct',
        tags: ['products'],
        summary: 'Read a product',
        description: 'The product in the catalog file shape, whatever its status, with its id, version, times, and per variant its id and version. `id`, `version`, `created_at`, `updated_at` and the variant ids and versions are read-only: leave them out of a PUT.',
        security,
        params: HandleParams,
        response: { 200: ok('The product', ProductAnswer, etagHeader), ...errorResponses({ 404: 'NOT_FOUND: no product has this handle.' }) },
      },
    },
    async (request, reply) => {
      const product = await service.getProduct(request.params.handle);
      return withEtag(reply, product.version).send({ product, request_id: request.id });
    },
  );

  app.put<{ Params: Static<typeof HandleParams>; Body: Static<typeof ProductBody>; Headers: Static<typeof PutHeaders> }>(
    '/products/:handle',
    {
      schema: {
        operationId: 'adminPutProduct',
        tags: ['products'],
        summary: 'Create or replace a product',
        description:
          'The body is a product of the catalog file format (docs/catalog-format.md); its `handle` may be left out, and must equal the path\'s if given. As with an import: its texts, options, variants and prices become exactly the body\'s; variants are matched by SKU and keep their ids; variants no longer listed are removed; region-specific prices need an existing region of the same currency. Unlike an import, a SKU of another product is refused (409) instead of moved. 201 when created, 200 when replaced. `If-Match` makes a replace conditional; `If-None-Match: *` makes the request create only.',
        security,
        params: HandleParams,
        headers: PutHeaders,
        body: ProductBody,
        response: {
          200: ok('Replaced', ProductAnswer, etagHeader),
          201: ok('Created', ProductAnswer, etagHeader),
          ...errorResponses({
            400: 'INVALID_REQUEST: a schema violation, a body handle other than the path\'s, or a product rule (option values, duplicate SKUs or prices, unknown region, currency not the region\'s, unknown category or collection: details.problems).',
            409: 'CONFLICT: a SKU belongs to another product.',
            412: `${STALE} With If-None-Match: *, the product exists.`,
          }),
        },
      },
    },
    async (request, reply) => {
      const { handle, ...product } = request.body;
      if (handle !== undefined && handle !== request.params.handle) {
        throw new AdminProblem('INVALID_REQUEST', `Invalid request: body.handle is ${handle} but the path names ${request.params.handle}.`, 'Leave handle out of the body; the path names the product.');
      }
      const condition = putCondition(request.headers);
      const { created, product: stored } = await service.putProduct(actorOf(request), request.params.handle, product, condition);
      return withEtag(reply, stored.version)
        .code(created ? 201 : 200)
        .send({ product: stored, request_id: request.id });
    },
  );

  app.patch<{ Params: Static<typeof HandleParams>; Body: Static<typeof ProductPatchBody>; Headers: Static<typeof IfMatch> }>(
    '/products/:handle',
    {
      schema: {
        operationId: 'adminPatchProduct',
        tags: ['products'],
        summary: 'Publish, unpublish, change texts, thumbnail or taxonomy',
        description: '`status` (draft: no longer served; published: served again), `translations` (per locale a new text, or null to remove it; the default locale stays), `thumbnail` (a URI or null), `categories`, `collection` (or null), `tags`, `images` (each replaces the stored one whole; categories and collections must exist, as a catalog import declares them, else 400 naming each unknown one). At least one field; the public catalog shows the change before this answers.',
        security,
        params: HandleParams,
        headers: IfMatch,
        body: ProductPatchBody,
        response: {
          200: ok('The changed product', ProductAnswer, etagHeader),
          ...errorResponses({ 404: 'NOT_FOUND: no product has this handle.', 412: STALE }),
        },
      },
    },
    async (request, reply) => {
      const product = await service.patchProduct(actorOf(request), request.params.handle, request.body, ifMatch(request.headers['if-match']));
      return withEtag(reply, product.version).send({ product, request_id: request.id });
    },
  );

  app.delete<{ Params: Static<typeof HandleParams>; Headers: Static<typeof IfMatch> }>(
    '/products/:handle',
    {
      schema: {
        operationId: 'adminDeleteProduct',
        tags: ['products'],
        summary: 'Delete a product',
        description: 'Deletes the product with its variants and prices. Sandbox carts holding its variants no longer show them.',
        security,
        params: HandleParams,
        headers: IfMatch,
        response: {
          204: { description: 'Deleted', type: 'null' },
          ...errorResponses({ 404: 'NOT_FOUND: no product has this handle.', 412: STALE }),
        },
      },
    },
    async (request, reply) => {
      await service.deleteProduct(actorOf(request), request.params.handle, ifMatch(request.headers['if-match']));
      return reply.code(204).send();
    },
  );
}

function putCondition(headers: Static<typeof PutHeaders>): VersionCondition | undefined {
  if (headers['if-none-match'] !== undefined && headers['if-match'] !== undefined) {
    throw new AdminProblem('INVALID_REQUEST', 'Invalid request: send If-Match or If-None-Match, not both.', 'If-Match replaces a known version; If-None-Match: * only creates.');
  }
  return headers['if-none-match'] === '*' ? 'absent' : ifMatch(headers['if-match']);
}
