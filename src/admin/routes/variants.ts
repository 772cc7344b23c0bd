import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { AdminVariant, errorResponses, etagHeader, IfMatch, ok, priceSetting, STALE, VariantPatchBody } from '../schemas.js';
import { actorOf, ifMatch, security, withEtag, type AdminRouteKit } from './shared.js';

const VariantParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 128, description: 'The variant id (as the public catalog shows it).' }) });
const VariantAnswer = Type.Object({
  variant: Type.Object({ ...AdminVariant.properties, product_id: Type.String(), product_handle: Type.String() }),
  request_id: Type.String({ format: 'uuid' }),
});

/** /admin/v1/variants/{id}: one variant's stock settings and prices. */
export function variantRoutes(app: FastifyInstance, { service }: AdminRouteKit): void {
  const notFound = { 404: 'NOT_FOUND: no variant has this id.' };
  app.get<{ Params: Static<typeof VariantParams> }>(
    '/variants/:id',
    {
      schema: {
        operationId: 'adminGetVariant',
        tags: ['variants'],
        summary: 'Read a variant',
        description: "The variant in the catalog file shape (prices with `region` for region-specific ones), with its id, version and its product's id and handle.",
        security,
        params: VariantParams,
        response: { 200: ok('The variant', VariantAnswer, etagHeader), ...errorResponses(notFound) },
      },
    },
    async (request, reply) => {
      const variant = await service.getVariant(request.params.id);
      return withEtag(reply, variant.version).send({ variant, request_id: request.id });
    },
  );

  app.patch<{ Params: Static<typeof VariantParams>; Body: Static<typeof VariantPatchBody>; Headers: Static<typeof IfMatch> }>(
    '/variants/:id',
    {
      schema: {
        operationId: 'adminPatchVariant',
        tags: ['variants'],
        summary: 'Change stock settings and prices',
        description:
          'Sets any of `manage_inventory`, `inventory_quantity`, `allow_backorder`, and `prices`: each listed price replaces the price for its currency and region (`region` absent: the price in that currency; `region_id` is its former name, still accepted), `amount: null` removes it, unlisted prices stay. Availability follows at once: in_stock when stock is not managed or above 0, else backorder when allowed, else out_of_stock.',
        security,
        params: VariantParams,
        headers: IfMatch,
        body: VariantPatchBody,
        response: {
          200: ok('The changed variant', VariantAnswer, etagHeader),
          ...errorResponses({
            ...notFound,
            400: 'INVALID_REQUEST: a schema violation, an empty body, two entries for one price, an unknown region or one of another currency (details.problems).',
            412: STALE,
          }),
        },
      },
    },
    async (request, reply) => {
      const { prices, ...stock } = request.body;
      const patch = { ...stock, ...(prices && { prices: prices.map((price, index) => priceSetting(price, `body.prices[${index}]`)) }) };
      const variant = await service.patchVariant(actorOf(request), request.params.id, patch, ifMatch(request.headers['if-match']));
      return withEtag(reply, variant.version).send({ variant, request_id: request.id });
    },
  );
}
