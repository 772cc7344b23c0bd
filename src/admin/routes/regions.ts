import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { AdminRegion, errorResponses, ok, RegionBody, RegionParams } from '../schemas.js';
import { actorOf, security, type AdminRouteKit } from './shared.js';

const RegionAnswer = Type.Object({
  region: AdminRegion,
  released: Type.Record(Type.String(), Type.Array(Type.String()), { description: 'Countries that moved here, by the region that served them before.' }),
  request_id: Type.String({ format: 'uuid' }),
});

const RegionRead = Type.Object({ region: AdminRegion, request_id: Type.String({ format: 'uuid' }) });
const RegionList = Type.Object({ regions: Type.Array(AdminRegion), request_id: Type.String({ format: 'uuid' }) });

/** /admin/v1/regions: the markets. */
export function regionRoutes(app: FastifyInstance, { service }: AdminRouteKit): void {
  app.get(
    '/regions',
    {
      schema: {
        operationId: 'adminListRegions',
        tags: ['regions'],
        summary: 'List the regions (markets)',
        description: 'Every region in the catalog order, each with its currency and the countries it serves (read from the store, so a change made on another instance shows at once).',
        security,
        response: { 200: ok('The regions', RegionList), ...errorResponses({}) },
      },
    },
    async (request) => ({ regions: await service.listRegions(), request_id: request.id }),
  );

  app.get<{ Params: Static<typeof RegionParams> }>(
    '/regions/:id',
    {
      schema: {
        operationId: 'adminGetRegion',
        tags: ['regions'],
        summary: 'Read a region (market)',
        description: 'The region in the shape PUT takes, with its id.',
        security,
        params: RegionParams,
        response: { 200: ok('The region', RegionRead), ...errorResponses({ 404: 'NOT_FOUND: no region has this id.' }) },
      },
    },
    async (request) => ({ region: await service.getRegion(request.params.id), request_id: request.id }),
  );

  app.put<{ Params: Static<typeof RegionParams>; Body: Static<typeof RegionBody> }>(
    '/regions/:id',
    {
      schema: {
        operationId: 'adminPutRegion',
        tags: ['regions'],
        summary: 'Create or replace a region (market)',
        description:
          'A region has one currency and serves its countries. A country another region served moves here (listed in `released`), unless that would leave the other region with no country (409). Changing the currency is refused (409) while prices specific to the region exist: remove them first. 201 when created, 200 when replaced.',
        security,
        params: RegionParams,
        body: RegionBody,
        response: {
          200: ok('Replaced', RegionAnswer),
          201: ok('Created', RegionAnswer),
          ...errorResponses({ 409: 'CONFLICT: another region would be left with no country, or the region has prices in its old currency.' }),
        },
      },
    },
    async (request, reply) => {
      const change = await service.putRegion(actorOf(request), { id: request.params.id, ...request.body });
      return reply.code(change.created ? 201 : 200).send({ region: change.region, released: change.released, request_id: request.id });
    },
  );
}
