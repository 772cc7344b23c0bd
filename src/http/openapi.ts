import fastifySwagger from '@fastify/swagger';
import fp from 'fastify-plugin';

export const CONTRACT_VERSION = '1.0.0';

declare module 'fastify' {
  interface FastifySchema {
    /** Documents the request body as optional; Fastify itself validates a missing body as the route decides. */
    'x-optional-body'?: boolean;
  }
}

/** The service-wide parts of the document; the paths and schemas come from the routes. */
export interface ApiDocument {
  title: string;
  description: string;
  serverUrl: string;
  tags: { name: string; description: string }[];
  securitySchemes: Record<string, { type: 'http'; scheme: string; description: string }>;
}

/**
 * `/openapi.json` is generated from the route schemas themselves, so the document and
 * the validation cannot drift. Shared schemas keep their contract names as component
 * names (`#/components/schemas/Product`).
 */
export const openapi = fp<{ document: ApiDocument }>(
  async (app, { document }) => {
    await app.register(fastifySwagger, {
      openapi: {
        openapi: '3.1.0',
        info: { title: document.title, version: CONTRACT_VERSION, description: document.description },
        servers: [{ url: document.serverUrl }],
        tags: document.tags,
        components: { securitySchemes: document.securitySchemes },
      },
      transformObject: (documentObject) =>
        'openapiObject' in documentObject ? markOptionalBodies(documentObject.openapiObject) : documentObject.swaggerObject,
      convertConstToEnum: false,
      refResolver: {
        buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
      },
    });

    app.get(
      '/openapi.json',
      {
        schema: {
          tags: ['discovery'],
          summary: 'The OpenAPI 3.1 contract of this service',
          response: { 200: { description: 'OpenAPI 3.1 document', type: 'object', additionalProperties: true } },
        },
      },
      async () => app.swagger(),
    );
  },
  { name: 'openapi' },
);

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
