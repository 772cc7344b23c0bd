import type { FastifyInstance } from 'fastify';
import { Type, type Static, type TObject, type TSchema, type TString } from 'typebox';
import { CatalogFileCategory, CatalogFileCollection } from '../../catalog/file/catalog-file-schema.js';
import { MAX_CATEGORY_DEPTH } from '../../catalog/model/taxonomy.js';
import { errorResponses, ok } from '../schemas.js';
import { actorOf, security, type AdminRouteKit } from './shared.js';

const AdminCategory = Type.Object({
  handle: CatalogFileCategory.properties.handle,
  parent: Type.Union([CatalogFileCategory.properties.handle, Type.Null()], { description: 'The parent category; null at the top.' }),
  titles: CatalogFileCategory.properties.titles,
});

const DEFINITIONS_NOTE = 'The public catalog serves the change (names, tree, the `category` and `collection` filters) on this instance before the answer, and on every other within a second.';

/** One kind of the taxonomy as the admin API serves it: its names, shapes, operations and what its writes refuse. */
interface TaxonomyKind<Body extends TObject> {
  /** `categories`: the path and the list's field. */
  plural: string;
  /** `category`: the resource's field. */
  singular: string;
  /** `Category`: in operation ids. */
  name: string;
  shape: TSchema;
  handle: TString;
  body: Body;
  list(): Promise<unknown[]>;
  get(handle: string): Promise<unknown>;
  put(actor: string, handle: string, body: Static<Body>): Promise<{ created: boolean; entity: unknown }>;
  remove(actor: string, handle: string): Promise<void>;
  /** The PUT's summary, what it sets and refuses, and what deletion refuses. */
  putSummary: string;
  putDescription: string;
  putRefusals: string;
  inUse: string;
}

/** /admin/v1/categories and /admin/v1/collections: the taxonomy products are filed in. */
export function taxonomyRoutes(app: FastifyInstance, { service }: AdminRouteKit): void {
  taxonomyKindRoutes(app, {
    plural: 'categories',
    singular: 'category',
    name: 'Category',
    shape: AdminCategory,
    handle: CatalogFileCategory.properties.handle,
    body: Type.Object({ parent: Type.Optional(AdminCategory.properties.parent), titles: CatalogFileCategory.properties.titles }, { additionalProperties: false }),
    list: () => service.listCategories(),
    get: (handle) => service.getCategory(handle),
    put: async (actor, handle, { parent, titles }) => {
      const { created, category } = await service.putCategory(actor, { handle, parent: parent ?? null, titles });
      return { created, entity: category };
    },
    remove: (actor, handle) => service.deleteCategory(actor, handle),
    putSummary: 'Create, rename or re-parent a category',
    putDescription: `Sets the category's titles (one per locale; en required) and its parent (absent or null: at the top). The parent must exist; no category may end up in a cycle of parents, nor more than ${MAX_CATEGORY_DEPTH} levels below the top (the categories below this one included): the rules a catalog import enforces.`,
    putRefusals: 'INVALID_REQUEST: a schema violation, an unknown parent, a cycle of parents or a tree too deep (details.problems).',
    inUse: 'products are filed in it, or categories are below it',
  });
  taxonomyKindRoutes(app, {
    plural: 'collections',
    singular: 'collection',
    name: 'Collection',
    shape: Type.Object(CatalogFileCollection.properties),
    handle: CatalogFileCollection.properties.handle,
    body: Type.Object({ titles: CatalogFileCollection.properties.titles }, { additionalProperties: false }),
    list: () => service.listCollections(),
    get: (handle) => service.getCollection(handle),
    put: async (actor, handle, { titles }) => {
      const { created, collection } = await service.putCollection(actor, { handle, titles });
      return { created, entity: collection };
    },
    remove: (actor, handle) => service.deleteCollection(actor, handle),
    putSummary: 'Create or rename a collection',
    putDescription: "Sets the collection's titles (one per locale; en required).",
    putRefusals: 'INVALID_REQUEST: a schema violation (the message names the field).',
    inUse: 'products are in it',
  });
}

function taxonomyKindRoutes<Body extends TObject>(app: FastifyInstance, kind: TaxonomyKind<Body>): void {
  const requestId = Type.String({ format: 'uuid' });
  const one = Type.Object({ [kind.singular]: kind.shape, request_id: requestId });
  const Params = Type.Object({ handle: kind.handle });
  const notFound = { 404: `NOT_FOUND: no ${kind.singular} has this handle.` };
  type Handle = { Params: Static<typeof Params> };

  app.get(
    `/${kind.plural}`,
    {
      schema: {
        operationId: `adminList${kind.plural[0]!.toUpperCase()}${kind.plural.slice(1)}`,
        tags: ['taxonomy'],
        summary: `List the ${kind.plural}`,
        description: `Every ${kind.singular} with its title per locale, in the catalog's order.`,
        security,
        response: { 200: ok(`The ${kind.plural}`, Type.Object({ [kind.plural]: Type.Array(kind.shape), request_id: requestId })), ...errorResponses({}) },
      },
    },
    async (request) => ({ [kind.plural]: await kind.list(), request_id: request.id }),
  );

  app.get<Handle>(
    `/${kind.plural}/:handle`,
    {
      schema: {
        operationId: `adminGet${kind.name}`,
        tags: ['taxonomy'],
        summary: `Read a ${kind.singular}`,
        security,
        params: Params,
        response: { 200: ok(`The ${kind.singular}`, one), ...errorResponses(notFound) },
      },
    },
    async (request) => ({ [kind.singular]: await kind.get(request.params.handle), request_id: request.id }),
  );

  app.put<Handle & { Body: Static<Body> }>(
    `/${kind.plural}/:handle`,
    {
      schema: {
        operationId: `adminPut${kind.name}`,
        tags: ['taxonomy'],
        summary: kind.putSummary,
        description: `${kind.putDescription} 201 when created (after the other ${kind.plural}), 200 when replaced; the handle never changes. ${DEFINITIONS_NOTE}`,
        security,
        params: Params,
        body: kind.body,
        response: { 200: ok('Replaced', one), 201: ok('Created', one), ...errorResponses({ 400: kind.putRefusals }) },
      },
    },
    async (request, reply) => {
      // Fastify's generic body type widens a schema type parameter; the schema has validated it.
      const { created, entity } = await kind.put(actorOf(request), request.params.handle, request.body as Static<Body>);
      return reply.code(created ? 201 : 200).send({ [kind.singular]: entity, request_id: request.id });
    },
  );

  app.delete<Handle>(
    `/${kind.plural}/:handle`,
    {
      schema: {
        operationId: `adminDelete${kind.name}`,
        tags: ['taxonomy'],
        summary: `Delete a ${kind.singular}`,
        description: `Deletes the ${kind.singular} unless ${kind.inUse}: then 409, naming how to find what is in the way. ${DEFINITIONS_NOTE}`,
        security,
        params: Params,
        response: { 204: { description: 'Deleted', type: 'null' }, ...errorResponses({ ...notFound, 409: `CONFLICT: ${kind.inUse}.` }) },
      },
    },
    async (request, reply) => {
      await kind.remove(actorOf(request), request.params.handle);
      return reply.code(204).send();
    },
  );
}
