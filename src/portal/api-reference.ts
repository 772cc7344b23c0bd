import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { PAGES } from './links.js';

/** Where Swagger UI asks for the document; it is sent to the one document the service publishes. */
const UI_DOCUMENT = `${PAGES.apiReference}/json`;

/**
 * `/docs`: Swagger UI (its assets come from the npm package, served by us) over
 * `/openapi.json`, the public document: never the admin API's. Try-it calls the
 * document's `servers` (the configured public base URL); sandbox routes take a key in
 * the Authorization dialog (the `sandboxBearer` scheme). Nothing calls out: the
 * spec validator badge is off, and the layout has no top bar to load other documents.
 */
export async function apiReference(app: FastifyInstance): Promise<void> {
  await app.register(fastifySwaggerUi, {
    routePrefix: PAGES.apiReference,
    validatorUrl: false,
    uiConfig: {
      layout: 'BaseLayout',
      validatorUrl: null,
      deepLinking: true,
      docExpansion: 'list',
      defaultModelsExpandDepth: 0,
      displayRequestDuration: true,
      persistAuthorization: false,
    },
    theme: { title: 'API reference · Vetrina' },
    uiHooks: {
      // Swagger UI's own copy of the document is the same app.swagger(); redirecting
      // keeps one URL for it, the contract's, and no second document route to reason about.
      onRequest: async (request, reply) => {
        // The router ignores a trailing slash (app.ts), so `/docs/json/` reaches this route too.
        if (request.url.split('?')[0]!.replace(/\/$/, '') === UI_DOCUMENT) return reply.redirect('/openapi.json', 307);
      },
    },
  });
}
