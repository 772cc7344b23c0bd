import fastifySwagger, { type FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import fp from 'fastify-plugin';
import { PreparedBody, sendPrepared, type Caching } from './prepared-body.js';

export const CONTRACT_VERSION = '1.0.0';

/** The document changes only when the service is redeployed or reconfigured; its ETag revalidates it cheaply after that. */
const DOCUMENT_CACHING: Caching = { cacheControl: 'public, max-age=300, stale-while-revalidate=86400' };

declare module 'fastify' {
  interface FastifySchema {
    /** Documents the request body as optional; Fastify itself validates a missing body as the route decides. */
    'x-optional-body'?: boolean;
    /** Documents the body of a route that reads it itself (a stream Fastify neither parses nor validates). */
    'x-streamed-body'?: object;
  }
  interface FastifyContextConfig {
    /** The separate document the route belongs to ({@link separateOpenApiDocument}); `/openapi.json` leaves it out. */
    openApiDocument?: string;
  }
}

/** The service-wide parts of the document; the paths and schemas come from the routes. */
export interface ApiDocument {
  title: string;
  description: string;
  serverUrl: string;
  tags: { name: string; description: string }[];
  securitySchemes: Record<string, { type: 'http'; scheme: string; description: string }>;
  /**
   * The response object of a request refused before its route ran (a repeated Host or
   * Authorization header, a body with a Content-Encoding...), in the envelope of the
   * context that serves the document: the document route's only client error.
   */
  malformedRequest: object;
}

/**
 * `/openapi.json` is generated from the route schemas themselves, so the document and
 * the validation cannot drift. Shared schemas keep their contract names as component
 * names (`#/components/schemas/Product`).
 */
export const openapi = fp<{ document: ApiDocument }>(
  async (app, { document }) => {
    await app.register(fastifySwagger, {
      ...swaggerOptions(document),
      transform: ({ schema, url, route }) => (route.config?.openApiDocument ? { schema: { hide: true }, url } : documentStreamedBody(schema, url)),
    });

    app.get(
      '/openapi.json',
      {
        compress: false,
        schema: {
          operationId: 'getOpenApiDocument',
          tags: ['discovery'],
          summary: 'The OpenAPI 3.1 contract of this service',
          security: [],
          response: {
            200: { description: 'OpenAPI 3.1 document', type: 'object', additionalProperties: true },
            '4xx': document.malformedRequest,
          },
        },
      },
      sendDocument(() => app.swagger()),
    );
  },
  { name: 'openapi' },
);

/**
 * The handler of a document route: the document `build` makes is serialised (and later
 * compressed) once, on the first request, when the routes are all known; every request
 * after that sends the same bytes, and its ETag answers If-None-Match with 304.
 */
function sendDocument(build: () => object): (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply> {
  let prepared: PreparedBody | undefined;
  return async (request, reply) => {
    prepared ??= new PreparedBody(JSON.stringify(build()));
    return sendPrepared(request, reply, prepared, '', DOCUMENT_CACHING);
  };
}

/**
 * Gives the routes of `scope` (an encapsulated context, e.g. a surface with its own
 * clients and credentials) an OpenAPI document of their own, which `/openapi.json`
 * leaves out. Returns the handler of the route that serves it (the caller declares the route).
 * Its components hold only the schemas its routes use, not every shared schema of the app.
 */
export async function separateOpenApiDocument(
  scope: FastifyInstance,
  name: string,
  document: ApiDocument,
): Promise<(request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>> {
  scope.addHook('onRoute', (route) => {
    route.config = { ...route.config, openApiDocument: name };
  });
  const decorator = `openApiDocument:${name}`;
  await scope.register(fastifySwagger, {
    ...swaggerOptions(document),
    decorator,
    transform: ({ schema, url }) => documentStreamedBody(schema, url),
    transformObject: (documentObject) =>
      'openapiObject' in documentObject ? keepUsedSchemas(finishDocument(documentObject.openapiObject)) : documentObject.swaggerObject,
  });
  return sendDocument(() => (scope as unknown as Record<string, () => object>)[decorator]!());
}

/** The terms of the service and its documents: the repository states no license, so all rights are reserved. */
const LICENSE = { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' };

/** Shared by every document: OpenAPI 3.1, contract names as component names, `const` kept. */
function swaggerOptions(document: ApiDocument): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: { title: document.title, version: CONTRACT_VERSION, description: document.description, license: LICENSE },
      servers: [{ url: document.serverUrl }],
      tags: document.tags,
      components: { securitySchemes: document.securitySchemes },
    },
    transformObject: (documentObject) =>
      'openapiObject' in documentObject ? finishDocument(documentObject.openapiObject) : documentObject.swaggerObject,
    convertConstToEnum: false,
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
  };
}

/** A route that streams its body documents it as `x-streamed-body`: the document shows it as the request body. */
function documentStreamedBody(schema: FastifySchema, url: string): { schema: FastifySchema; url: string } {
  const { 'x-streamed-body': body, ...rest } = schema ?? {};
  return { schema: body === undefined ? schema : { ...rest, body }, url };
}

/** Drops the component schemas no path refers to, directly or through another component. */
function keepUsedSchemas<T extends { paths?: object; components?: { schemas?: Record<string, unknown> } }>(document: T): T {
  const schemas = document.components?.schemas;
  if (!schemas) return document;
  const used = new Set<string>();
  const pending = [document.paths];
  while (pending.length > 0) {
    for (const [, name] of JSON.stringify(pending.pop()).matchAll(/"#\/components\/schemas\/([^"]+)"/g)) {
      if (used.has(name!) || !(name! in schemas)) continue;
      used.add(name!);
      pending.push(schemas[name!] as object);
    }
  }
  document.components!.schemas = Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name)));
  return document;
}

/** What @fastify/swagger cannot say from the route schemas; run on every document. */
function finishDocument<T extends { paths?: object; components?: { schemas?: Record<string, unknown> } }>(document: T): T {
  return mapDiscriminators(markOptionalBodies(document));
}

type Discriminated = { oneOf?: { $ref?: string }[]; discriminator?: { propertyName: string; mapping?: Record<string, string> } };

/**
 * Ajv refuses a discriminator `mapping` (it finds each branch by the `const` of the
 * discriminating property), so the schemas have none; the document gets one, value to
 * component, for clients and generators that select a branch by the mapping alone.
 */
function mapDiscriminators<T extends { components?: { schemas?: Record<string, unknown> } }>(document: T): T {
  const schemas = (document.components?.schemas ?? {}) as Record<string, Discriminated & { properties?: Record<string, { const?: unknown }> }>;
  for (const schema of Object.values(schemas)) {
    const { oneOf, discriminator } = schema;
    if (!discriminator || !oneOf || discriminator.mapping) continue;
    discriminator.mapping = Object.fromEntries(
      oneOf.map(({ $ref }) => {
        const value = $ref && schemas[$ref.replace('#/components/schemas/', '')]?.properties?.[discriminator.propertyName]?.const;
        if (typeof value !== 'string') throw new Error(`A discriminated branch must be a component with a string const ${discriminator.propertyName}: ${$ref}`);
        return [value, $ref!];
      }),
    );
  }
  return document;
}

type Operation = { requestBody?: { required?: boolean }; 'x-optional-body'?: boolean };

/** @fastify/swagger marks every request body required; routes flagged `x-optional-body` take none too. */
function markOptionalBodies<T extends { paths?: object }>(document: T): T {
  for (const item of Object.values(document.paths ?? {}) as Record<string, Operation>[]) {
    for (const operation of Object.values(item ?? {})) {
      if (!operation?.['x-optional-body']) continue;
      delete operation['x-optional-body'];
      if (operation.requestBody) operation.requestBody.required = false;
    }
  }
  return document;
}
