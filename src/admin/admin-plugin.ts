import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { catalogLimitInWords } from '../catalog/public-api/rate-limit.js';
import type { Config } from '../config.js';
import { useErrorSurface } from '../http/error-surface.js';
import { DOCUMENT_NOT_MODIFIED, separateOpenApiDocument } from '../http/openapi.js';
import { adminApiDocument } from './admin-document.js';
import { AdminService } from './admin-service.js';
import { authenticateAdmin } from './auth.js';
import { ImportJobs } from './import-jobs.js';
import { adminErrors, adminSchemaError } from './errors.js';
import { errorResponse } from './schemas.js';
import { auditRoutes } from './routes/audit.js';
import { bulkRoutes } from './routes/bulk.js';
import { importRoutes } from './routes/imports.js';
import { productRoutes } from './routes/products.js';
import { regionRoutes } from './routes/regions.js';
import { taxonomyRoutes } from './routes/taxonomy.js';
import type { AdminRouteKit } from './routes/shared.js';
import { variantRoutes } from './routes/variants.js';
import { webhookRoutes } from './routes/webhooks.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The name of the admin token the request authenticated with. */
    adminActor: string | null;
  }
}

/** The JSON bodies of admin writes: a product of 100 variants, or 1,000 bulk rows, fits well. */
const BODY_LIMIT_BYTES = 1024 * 1024;

const ROUTE_GROUPS = [productRoutes, variantRoutes, bulkRoutes, regionRoutes, taxonomyRoutes, importRoutes, auditRoutes, webhookRoutes];

/**
 * The admin API: everything under `/admin`, in a context of its own with its own error
 * envelope, OpenAPI document, credentials and rate limit. With no ADMIN_TOKENS it has
 * no routes, and every /admin URL is 404.
 */
export const adminPlugin = fp<{ config: Config }>(
  async (app: FastifyInstance, { config }) => {
    await app.register(
      async (admin) => {
        useErrorSurface(admin, adminErrors);
        // Operators' systems call the admin API from servers, not from pages: no origin is
        // answered, and a preflight to a path under /admin/ is an unknown route here rather
        // than the service's 204.
        admin.addHook('onRoute', (route) => {
          route.config = { ...route.config, cors: false };
        });
        admin.options('/*', { schema: { hide: true } }, (_request, reply) => reply.callNotFound());
        if (config.admin.tokens.length === 0) return;
        admin.setSchemaErrorFormatter(adminSchemaError);
        admin.decorateRequest('adminActor', null);

        const apiDocument = adminApiDocument(config);
        const sendDocument = await separateOpenApiDocument(admin, 'admin', apiDocument);
        admin.get(
          '/openapi.json',
          {
            compress: false,
            schema: {
              operationId: 'getAdminOpenApiDocument',
              tags: ['discovery'],
              summary: 'The OpenAPI 3.1 document of the admin API',
              description: `Public, like /openapi.json: the routes need a token, their description does not. Having no token to count against, it counts against the catalog window of the client IP (${catalogLimitInWords(config)}).`,
              security: [],
              response: {
                200: { description: 'OpenAPI 3.1 document', type: 'object', additionalProperties: true },
                304: DOCUMENT_NOT_MODIFIED,
                429: errorResponse('RATE_LIMITED: the client IP used up its catalog window (Retry-After says when to retry).'),
                '4xx': apiDocument.malformedRequest,
              },
            },
            onRequest: app.catalogRateLimit,
          },
          sendDocument,
        );

        const imports = new ImportJobs(app.catalogWriter, app.catalogReadModel, app.log, config.admin.importJobsRetained);
        admin.addHook('onReady', () => imports.watch());
        admin.addHook('onClose', () => imports.close());
        const kit: AdminRouteKit = {
          config: config.admin,
          service: new AdminService(app.catalogWriter, app.catalogReadModel),
          imports,
          webhooks: app.webhooks,
          webhookConfig: config.webhooks,
        };
        const rateLimit = app.defineRateLimit({
          name: 'admin',
          setting: 'ADMIN_RATE_LIMIT',
          max: config.admin.rateLimit,
          windowMs: 60_000,
          subject: (request) => request.adminActor!,
          code: 'RATE_LIMITED',
          message: `Rate limit exceeded: ${config.admin.rateLimit} admin requests per minute per token.`,
        });
        await admin.register(
          async (v1) => {
            v1.addHook('onRoute', (route) => {
              route.bodyLimit ??= BODY_LIMIT_BYTES;
            });
            // Before the body is read: an unknown caller cannot make the server receive a catalog file.
            v1.addHook('onRequest', async (request) => {
              request.adminActor = authenticateAdmin(config.admin.tokens, request.headers.authorization);
            });
            v1.addHook('onRequest', rateLimit);
            for (const routes of ROUTE_GROUPS) routes(v1, kit);
          },
          { prefix: '/v1' },
        );
      },
      { prefix: '/admin' },
    );
  },
  { name: 'admin', dependencies: ['catalog', 'delivery', 'rate-limits', 'error-surfaces', 'openapi'] },
);
