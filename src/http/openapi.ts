import fastifySwagger from '@fastify/swagger';
import fp from 'fastify-plugin';
import type { Config } from '../config.js';

export const CONTRACT_VERSION = '1.0.0';

declare module 'fastify' {
  interface FastifySchema {
    /** Documents the request body as optional; Fastify itself validates a missing body as the route decides. */
    'x-optional-body'?: boolean;
  }
}

/**
 * `/openapi.json` is generated from the route schemas themselves, so the document and
 * the validation cannot drift. Shared schemas keep their contract names as component
 * names (`#/components/schemas/Product`).
 */
export const openapi = fp<{ config: Config }>(
  async (app, { config }) => {
    await app.register(fastifySwagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Vetrina: public catalog and simulated commerce sandbox',
          version: CONTRACT_VERSION,
          description:
            'A keyless public product catalog with live regional prices and availability, and a free simulated sandbox for rehearsing cart and checkout. Nothing real (order, payment, customer, stock reservation) is ever created by the sandbox. ' +
            `A request must arrive whole (headers and body) within ${config.requestTimeoutMs / 1000} s, else 408; a request body with a Content-Encoding is 415 (none is decoded); two Host or Authorization headers are 400.`,
        },
        servers: [{ url: config.publicBaseUrl }],
        tags: [
          { name: 'catalog', description: 'Public, keyless, read-only catalog.' },
          { name: 'sandbox', description: 'Simulated cart and checkout with short-lived bearer keys. Every answer carries Cache-Control: no-store.' },
          { name: 'discovery', description: 'Machine-readable contract and MCP servers.' },
          { name: 'operations', description: 'Liveness, readiness and metrics, for orchestrators and monitoring; never rate limited.' },
        ],
        components: {
          securitySchemes: {
            sandboxBearer: {
              type: 'http',
              scheme: 'bearer',
              description:
                'A sandbox key from POST /sandbox/v1/keys (`sbx_test_...`), sent as `Authorization: Bearer <access_token>`. The scopes listed on an operation are the ones it needs.',
            },
            metricsBearer: {
              type: 'http',
              scheme: 'bearer',
              description: "The server's METRICS_TOKEN, required by GET /metrics when the server sets one.",
            },
          },
        },
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
