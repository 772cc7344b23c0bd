import fastifySwagger, { type FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { PreparedBody, sendPrepared, type Caching } from './prepared-body.js';

export const CONTRACT_VERSION = '1.0.0';

/** The document changes only when the service is redeployed or reconfigured; its ETag revalidates it cheaply after that. */
const DOCUMENT_CACHING: Caching = { cacheControl: 'public, max-age=300, stale-while-revalidate=86400' };

declare module 'fastify' {
  interface FastifySchema {
    /** Documents the request body as optional; Fastify itself validates a missing body as the route decides. */
    'x-optional-body'?: boolean;
    /**
     * Documents the body of a route Fastify does not validate: one it reads itself (a
     * stream Fastify neither parses nor validates), or hands on to a library that answers
     * a malformed one itself (the MCP SDK).
     */
    'x-documented-body'?: object;
    /** Documents the HEAD of a GET route that answers HEAD with a route of its own (which Fastify's own HEAD routes are marked for by transformRoute). */
    'x-head'?: boolean;
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
      transform: ({ schema, url, route }) => (route.config?.openApiDocument ? { schema: { hide: true }, url } : transformRoute(app, schema, url, route)),
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
            304: DOCUMENT_NOT_MODIFIED,
            '4xx': document.malformedRequest,
          },
        },
      },
      sendDocument(() => app.swagger()),
    );
  },
  { name: 'openapi' },
);

/** The 304 of a document route (`sendDocument`). */
export const DOCUMENT_NOT_MODIFIED = { description: 'Not Modified: If-None-Match holds the ETag of the document as it is now; no body.' };

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
    transform: ({ schema, url, route }) => transformRoute(scope, schema, url, route),
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

/** Methods whose request body Fastify never reads (no 413, no 415 for the media type). */
const BODILESS_METHODS = new Set(['GET', 'HEAD']);

/**
 * What a route's schema alone does not say: the body a route documents as
 * `x-documented-body` is shown as its request body; a route whose body Fastify reads
 * carries the body limit that applies to it (`x-body-limit`, turned into its 413 by
 * {@link documentRefusedBodies}); a GET route Fastify also answers HEAD for is marked
 * `x-head` ({@link describeOperations} documents the HEAD). Fastify's own HEAD routes are
 * not documented as routes: they are registered before a separate document claims them.
 */
function transformRoute(app: FastifyInstance, schema: FastifySchema, url: string, route: RouteOptions): { schema: FastifySchema; url: string } {
  const { 'x-documented-body': body, ...rest } = schema ?? {};
  const methods = [route.method].flat();
  const bodyLimit = methods.some((method) => !BODILESS_METHODS.has(method)) ? { 'x-body-limit': route.bodyLimit ?? app.initialConfig.bodyLimit } : {};
  const head = methods.includes('GET') && !methods.includes('HEAD') && route.exposeHeadRoute !== false ? { 'x-head': true } : {};
  return { schema: { ...(body === undefined ? schema : { ...rest, body }), ...bodyLimit, ...head }, url };
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
  return mapDiscriminators(markOptionalBodies(documentRefusedBodies(describeOperations(document))));
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

type Response = { description: string; headers?: object; content?: object };
type Parameter = { in: string; required?: boolean; schema?: { default?: unknown } };
type Operation = {
  operationId?: string;
  summary?: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean };
  responses?: Record<string, Response>;
  'x-optional-body'?: boolean;
  'x-body-limit'?: number;
  'x-head'?: boolean;
};

function operationsOf(document: { paths?: object }): [method: string, operation: Operation][] {
  return (Object.values(document.paths ?? {}) as Record<string, Operation>[]).flatMap((item) => Object.entries(item ?? {}));
}

/**
 * Corrects what @fastify/swagger says of every operation: a query or header parameter
 * with a default is optional (the validator fills it in; TypeBox lists it as required),
 * and a 304 has no body. Documents the HEAD of each GET marked `x-head`: its GET's
 * answers, none with a body.
 */
function describeOperations<T extends { paths?: object }>(document: T): T {
  for (const item of Object.values(document.paths ?? {}) as Record<string, Operation>[]) {
    const get = item.get;
    if (get?.['x-head']) {
      delete get['x-head'];
      const head: Operation = structuredClone(get);
      if (get.operationId !== undefined) head.operationId = `${get.operationId}Head`;
      head.summary = `${get.summary ?? ''} (headers only)`.trim();
      for (const response of Object.values(head.responses ?? {})) delete response.content;
      item.head = head;
    }
  }
  for (const [, operation] of operationsOf(document)) {
    for (const parameter of operation.parameters ?? []) {
      if (parameter.in !== 'path' && parameter.schema?.default !== undefined) delete parameter.required;
    }
    delete operation.responses?.['304']?.content;
  }
  return document;
}

/**
 * Every route refuses a body with a Content-Encoding (415, request-guards.ts), and one
 * whose body Fastify reads refuses a body over its limit (413) or of another media type
 * (415). They are answered in the route's error envelope, that of its 400; a route that
 * documents them itself, or all its 4xx at once, keeps its own.
 */
function documentRefusedBodies<T extends { paths?: object }>(document: T): T {
  for (const [, operation] of operationsOf(document)) {
    const { 'x-body-limit': bodyLimit, responses = {} } = operation;
    delete operation['x-body-limit'];
    const invalid = responses['400'];
    if (!invalid || '4XX' in responses) continue;
    const refused = (description: string): Response => ({ ...invalid, description });
    if (bodyLimit !== undefined) responses['413'] ??= refused(`Payload Too Large: a body over ${bodyLimit} bytes; the error code is that of a 400.`);
    responses['415'] ??= refused(
      `Unsupported Media Type: a body with a Content-Encoding (none is decoded)${bodyLimit === undefined ? '' : ', or of a media type the route reads no body in'}; the error code is that of a 400.`,
    );
  }
  return document;
}

/** @fastify/swagger marks every request body required; routes flagged `x-optional-body` take none too. */
function markOptionalBodies<T extends { paths?: object }>(document: T): T {
  for (const [, operation] of operationsOf(document)) {
    if (!operation['x-optional-body']) continue;
    delete operation['x-optional-body'];
    if (operation.requestBody) operation.requestBody.required = false;
  }
  return document;
}
