import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import type { Store } from '../store/database.js';
import type { SandboxPrincipal } from './auth.js';
import { requireEnabled } from './availability.js';
import type { Clock } from './clock.js';
import { startPurging } from './purge.js';
import { cartRoutes } from './routes/carts.js';
import { compatibilityRoutes } from './routes/compatibility.js';
import { discoveryRoutes } from './routes/discovery.js';
import { keyRoutes } from './routes/keys.js';
import type { SandboxRouteKit } from './routes/shared.js';
import { buildSandboxServices, type SandboxServices } from './services.js';
import { sandboxErrors } from './errors.js';
import { useErrorSurface } from '../http/error-surface.js';

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
      sandbox.addHook('onRequest', async (request, reply) => {
        requireEnabled(config.sandbox);
        // Echoed only where it is honoured, i.e. where the route declares the header.
        const idempotencyKey = request.headers['idempotency-key'];
        if (typeof idempotencyKey === 'string' && idempotencyKey !== '' && honoursIdempotencyKey(request)) {
          reply.header('idempotency-key', idempotencyKey);
        }
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

function honoursIdempotencyKey(request: FastifyRequest): boolean {
  const headers = request.routeOptions.schema?.headers as { properties?: Record<string, unknown> } | undefined;
  return headers?.properties?.['idempotency-key'] !== undefined;
}
