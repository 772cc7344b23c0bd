import type { FastifyInstance, FastifySchema, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import { useErrorSurface } from '../http/error-surface.js';
import { sentenceSchemaError } from '../http/schema-errors.js';
import type { Store } from '../store/database.js';
import type { SandboxPrincipal } from './auth.js';
import { requireEnabled } from './availability.js';
import type { Clock } from './clock.js';
import { sandboxErrors } from './errors.js';
import { startPurging } from './purge.js';
import { cartRoutes } from './routes/carts.js';
import { compatibilityRoutes } from './routes/compatibility.js';
import { discoveryRoutes } from './routes/discovery.js';
import { keyRoutes } from './routes/keys.js';
import type { SandboxRouteKit } from './routes/shared.js';
import { buildSandboxServices, type SandboxServices } from './services.js';

declare module 'fastify' {
  interface FastifyInstance {
    sandbox: SandboxServices;
  }
  interface FastifyRequest {
    /** Set by the requireKey hooks of the authenticated sandbox routes. */
    sandboxPrincipal: SandboxPrincipal | null;
  }
}

const ROUTE_GROUPS = [discoveryRoutes, keyRoutes, cartRoutes, compatibilityRoutes];

/**
 * The simulated commerce sandbox: its services (decorated as `app.sandbox`), the
 * background purge, and the `/sandbox/v1` routes in a context of their own, so the
 * sandbox's hooks, JSON parser and error envelope apply to them only.
 */
export const sandboxPlugin = fp<{ config: Config; store: Store; clock: Clock }>(
  async (app: FastifyInstance, { config, store, clock }) => {
    const services = buildSandboxServices(app, config.sandbox, store.db, clock);
    app.decorate('sandbox', services);
    app.decorateRequest('sandboxPrincipal', null);

    if (config.sandbox.enabled) {
      const stopPurging = startPurging(store.db, clock, config.sandbox.purgeIntervalMs, app.log);
      app.addHook('onClose', async () => stopPurging());
    }

    const kit: SandboxRouteKit = { config, services };

    await app.register(
      async (sandbox) => {
        useErrorSurface(sandbox, sandboxErrors);
        sandbox.setSchemaErrorFormatter(sentenceSchemaError);
        // The app's serializer splices in catalog renderings kept between answers; sandbox
        // answers are built afresh and hold none, and JSON.stringify writes the same text
        // faster (the app's was 4% of the service's CPU in a sandbox flow).
        sandbox.setSerializerCompiler(() => (data) => JSON.stringify(data));
        sandbox.addHook('onRequest', async () => requireEnabled(config.sandbox));
        // Echoed only where it is honoured, i.e. where the route declares the header: decided
        // once per route here, not looked up on every request. It goes first, so a 401 echoes it too.
        sandbox.addHook('onRoute', (route) => {
          if (!declaresIdempotencyKey(route.schema)) return;
          const own = route.onRequest === undefined ? [] : [route.onRequest].flat();
          route.onRequest = [echoIdempotencyKey, ...own];
        });
        // Clients often send `Content-Type: application/json` on a bodiless POST or DELETE;
        // here that means "no body" rather than a 400.
        const parseJson = sandbox.getDefaultJsonParser('error', 'error');
        sandbox.removeContentTypeParser('application/json');
        sandbox.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
          if (body === '') done(null, undefined);
          else parseJson(request, body as string, done);
        });
        for (const routes of ROUTE_GROUPS) routes(sandbox, kit);
      },
      { prefix: '/sandbox' },
    );
  },
  { name: 'sandbox', dependencies: ['rate-limits', 'catalog', 'error-surfaces'] },
);

function declaresIdempotencyKey(schema: FastifySchema | undefined): boolean {
  const headers = schema?.headers as { properties?: Record<string, unknown> } | undefined;
  return headers?.properties?.['idempotency-key'] !== undefined;
}

const echoIdempotencyKey: onRequestHookHandler = async (request, reply) => {
  const idempotencyKey = request.headers['idempotency-key'];
  if (typeof idempotencyKey === 'string' && idempotencyKey !== '') reply.header('idempotency-key', idempotencyKey);
};
