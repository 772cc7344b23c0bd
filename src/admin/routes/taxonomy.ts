import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { CatalogFileCategory, CatalogFileCollection } from '../../catalog/file/catalog-file-schema.js';
import { MAX_CATEGORY_DEPTH } from '../../catalog/model/taxonomy.js';
import { errorResponses, ok } from '../schemas.js';
import { actorOf, security, type AdminRouteKit } from './shared.js';

const requestId = Type.String({ format: 'uuid' });
const AdminCategory = Type.Object({
  handle: CatalogFileCategory.properties.handle,
  parent: Type.Union([CatalogFileCategory.properties.handle, Type.Null()], { description: 'The parent category; null at the top.' }),
  titles: CatalogFileCategory.properties.titles,
});
const AdminCollection = Type.Object(CatalogFileCollection.properties);
const CategoryParams = Type.Object({ handle: CatalogFileCategory.properties.handle });
const CollectionParams = Type.Object({ handle: CatalogFileCollection.properties.handle });
const CategoryBody = Type.Object(
  { parent: Type.Optional(AdminCategory.properties.parent), titles: CatalogFileCategory.properties.titles },
  { additionalProperties: false },
);
const CollectionBody = Type.Object({ titles: CatalogFileCollection.properties.titles }, { additionalProperties: false });

const TREE_RULES = `The parent must exist; no category may end up in a cycle of parents, nor more than ${MAX_CATEGORY_DEPTH} levels below the top (the categories below this one included): the rules a catalog import enforces.`;
const DEFINITIONS_NOTE = 'The public catalog serves the change (names, tree, the `category` filter) on this instance before the answer, and on every other within a second.';

/** /admin/v1/categories and /admin/v1/collections: the taxonomy products are filed in. */
export function taxonomyRoutes(app: FastifyInstance, { service }: AdminRouteKit): void {
  app.get(
    '/categories',
    {
      schema: {
        operationId: 'adminListCategories',
        tags: ['taxonomy'],
        summary: 'List the categories',
        description: 'Every category with its parent and its title per locale, in the catalog\'s order.',
        security,
        response: { 200: ok('The categories', Type.Object({ categories: Type.Array(AdminCategory), request_id: requestId })), ...errorResponses({}) },
      },
    },
    async (request) => ({ categories: await service.listCategories(), request_id: request.id }),
  );

  app.get<{ Params: Static<typeof CategoryParams> }>(
    '/categories/:handle',
    {
      schema: {
        operationId: 'adminGetCategory',
        tags: ['taxonomy'],
        summary: 'Read a category',
        security,
        params: CategoryParams,
        response: { 200: ok('The category', Type.Object({ category: AdminCategory, request_id: requestId })), ...errorResponses({ 404: 'NOT_FOUND: no category has this handle.' }) },
      },
    },
    async (request) => ({ category: await service.getCategory(request.params.handle), request_id: request.id }),
  );

  app.put<{ Params: Static<typeof CategoryParams>; Body: Static<typeof CategoryBody> }>(
    '/categories/:handle',
    {
      schema: {
        operationId: 'adminPutCategory',
        tags: ['taxonomy'],
        summary: 'Create, rename or re-parent a category',
        description: `Sets the category's titles (one per locale; en required) and its parent (absent or null: at the top). 201 when created (after the other categories), 200 when replaced; the handle never changes. ${TREE_RULES} ${DEFINITIONS_NOTE}`,
        security,
        params: CategoryParams,
        body: CategoryBody,
        response: {
          200: ok('Replaced', Type.Object({ category: AdminCategory, request_id: requestId })),
          201: ok('Created', Type.Object({ category: AdminCategory, request_id: requestId })),
          ...errorResponses({ 400: 'INVALID_REQUEST: a schema violation, an unknown parent, a cycle of parents or a tree too deep (details.problems).' }),
        },
      },
    },
    async (request, reply) => {
      const { created, category } = await service.putCategory(actorOf(request), { handle: request.params.handle, parent: request.body.parent ?? null, titles: request.body.titles });
      return reply.code(created ? 201 : 200).send({ category, request_id: request.id });
    },
  );

  app.delete<{ Params: Static<typeof CategoryParams> }>(
    '/categories/:handle',
    {
      schema: {
        operationId: 'adminDeleteCategory',
        tags: ['taxonomy'],
        summary: 'Delete a category',
        description: `Deletes a category no product is filed in and no category is below; otherwise 409, naming how to find them. ${DEFINITIONS_NOTE}`,
        security,
        params: CategoryParams,
        response: {
          204: { description: 'Deleted', type: 'null' },
          ...errorResponses({ 404: 'NOT_FOUND: no category has this handle.', 409: 'CONFLICT: products are filed in it, or categories are below it.' }),
        },
      },
    },
    async (request, reply) => {
      await service.deleteCategory(actorOf(request), request.params.handle);
      return reply.code(204).send();
    },
  );

  app.get(
    '/collections',
    {
      schema: {
        operationId: 'adminListCollections',
        tags: ['taxonomy'],
        summary: 'List the collections',
        description: 'Every collection with its title per locale, in the catalog\'s order.',
        security,
        response: { 200: ok('The collections', Type.Object({ collections: Type.Array(AdminCollection), request_id: requestId })), ...errorResponses({}) },
      },
    },
    async (request) => ({ collections: await service.listCollections(), request_id: request.id }),
  );

  app.get<{ Params: Static<typeof CollectionParams> }>(
    '/collections/:handle',
    {
      schema: {
        operationId: 'adminGetCollection',
        tags: ['taxonomy'],
        summary: 'Read a collection',
        security,
        params: CollectionParams,
        response: { 200: ok('The collection', Type.Object({ collection: AdminCollection, request_id: requestId })), ...errorResponses({ 404: 'NOT_FOUND: no collection has this handle.' }) },
      },
    },
    async (request) => ({ collection: await service.getCollection(request.params.handle), request_id: request.id }),
  );

  app.put<{ Params: Static<typeof CollectionParams>; Body: Static<typeof CollectionBody> }>(
    '/collections/:handle',
    {
      schema: {
        operationId: 'adminPutCollection',
        tags: ['taxonomy'],
        summary: 'Create or rename a collection',
        description: `Sets the collection's titles (one per locale; en required). 201 when created (after the other collections), 200 when replaced; the handle never changes. ${DEFINITIONS_NOTE}`,
        security,
        params: CollectionParams,
        body: CollectionBody,
        response: {
          200: ok('Replaced', Type.Object({ collection: AdminCollection, request_id: requestId })),
          201: ok('Created', Type.Object({ collection: AdminCollection, request_id: requestId })),
          ...errorResponses({}),
        },
      },
    },
    async (request, reply) => {
      const { created, collection } = await service.putCollection(actorOf(request), { handle: request.params.handle, titles: request.body.titles });
      return reply.code(created ? 201 : 200).send({ collection, request_id: request.id });
    },
  );

  app.delete<{ Params: Static<typeof CollectionParams> }>(
    '/collections/:handle',
    {
      schema: {
        operationId: 'adminDeleteCollection',
        tags: ['taxonomy'],
        summary: 'Delete a collection',
        description: `Deletes a collection no product is in; otherwise 409, naming how to find them. ${DEFINITIONS_NOTE}`,
        security,
        params: CollectionParams,
        response: {
          204: { description: 'Deleted', type: 'null' },
          ...errorResponses({ 404: 'NOT_FOUND: no collection has this handle.', 409: 'CONFLICT: products are in it.' }),
        },
      },
    },
    async (request, reply) => {
      await service.deleteCollection(actorOf(request), request.params.handle);
      return reply.code(204).send();
    },
  );
}
