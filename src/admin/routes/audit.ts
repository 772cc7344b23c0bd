import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { errorResponses, ok } from '../schemas.js';
import { security, type AdminRouteKit } from './shared.js';

const AuditQuery = Type.Object(
  {
    limit: Type.Integer({ minimum: 1, maximum: 100, default: 50 }),
    cursor: Type.Optional(Type.String({ maxLength: 100, description: '`next_cursor` of the previous page, unchanged.' })),
    actor: Type.Optional(Type.String({ maxLength: 64, description: 'Only entries by this token name.' })),
    target_type: Type.Optional(Type.Enum(['product', 'variant', 'region', 'category', 'collection', 'catalog'], { type: 'string' })),
    target_id: Type.Optional(Type.String({ maxLength: 200, description: 'A product handle, variant id, region id, category or collection handle, or `catalog`.' })),
  },
  { additionalProperties: false },
);

const AuditPage = Type.Object({
  entries: Type.Array(
    Type.Object({
      id: Type.String(),
      at: Type.String({ format: 'date-time' }),
      actor: Type.String({ description: 'The name of the admin token that made the change.' }),
      action: Type.String({ description: 'create, replace, update, delete (products, variants, regions, categories, collections), set_inventory, set_prices (a bulk row), import.' }),
      target_type: Type.String(),
      target_id: Type.String(),
      version_before: Type.Union([Type.Integer(), Type.Null()], { description: "The target's version before; null when it did not exist or has none (regions)." }),
      version_after: Type.Union([Type.Integer(), Type.Null()], { description: "The target's version after; null when deleted or it has none. For an import, the catalog version." }),
      changes: Type.Unknown({ description: 'What the request set for this target.' }),
    }),
  ),
  next_cursor: Type.Union([Type.String(), Type.Null()]),
  request_id: Type.String({ format: 'uuid' }),
});

/** GET /admin/v1/audit: who changed what, when. */
export function auditRoutes(app: FastifyInstance, { service }: AdminRouteKit): void {
  app.get<{ Querystring: Static<typeof AuditQuery> }>(
    '/audit',
    {
      schema: {
        operationId: 'adminListAudit',
        tags: ['audit'],
        summary: 'The audit trail',
        description: 'Every admin write, newest first: one entry per product, variant (one per bulk row), region, category, collection or import, with the token name, the versions before and after and what was set. Pages with `next_cursor`.',
        security,
        querystring: AuditQuery,
        response: { 200: ok('A page of entries', AuditPage), ...errorResponses({}) },
      },
    },
    async (request) => ({ ...(await service.listAudit(request.query)), request_id: request.id }),
  );
}
