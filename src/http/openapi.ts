import fastifySwagger from '@fastify/swagger';
import fp from 'fastify-plugin';
import type { Config } from '../config.js';

export const CONTRACT_VERSION = '1.0.0';

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
            'A keyless public product catalog with live regional prices and availability, and a free simulated sandbox for rehearsing cart and checkout. Nothing real (order, payment, customer, stock reservation) is ever created by the sandbox.',
        },
        servers: [{ url: config.publicBaseUrl }],
        tags: [
          { name: 'catalog', description: 'Public, keyless, read-only catalog.' },
          { name: 'sandbox', description: 'Simulated cart and checkout with short-lived bearer keys.' },
          { name: 'discovery', description: 'Machine-readable contract and MCP servers.' },
        ],
      },
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
