import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import type { Store } from '../store/database.js';
import { authenticate, type SandboxPrincipal } from './auth.js';
import { SandboxCartService } from './cart-service.js';
import type { Clock } from './clock.js';
import { sandboxDisabled, sandboxErrors } from './errors.js';
import { useErrorSurface } from '../http/error-surface.js';
import { runIdempotently, type IdempotencyScope, type IdempotentOutcome, type RecordedResponse } from './idempotency.js';
import { issueKey, type IssuedKey } from './keys.js';
import { purgeExpiredSandboxData, startPurging, type PurgeReport } from './purge.js';
import { defineSandboxRateLimits, type SandboxRateLimits } from './rate-limits.js';
import { addItemRoute } from './routes/add-item.js';
import { cartActionRoute } from './routes/cart-action.js';
import { checkoutRoute } from './routes/checkout.js';
import { createCartRoute } from './routes/create-cart.js';
import { createKeyRoute } from './routes/create-key.js';
import { discoveryRoute } from './routes/discovery.js';
import { getCartRoute } from './routes/get-cart.js';
import { listShippingOptionsRoute } from './routes/list-shipping-options.js';
import { removeItemRoute } from './routes/remove-item.js';
import { selectShippingOptionRoute } from './routes/select-shipping-option.js';
import { setShippingAddressRoute } from './routes/set-shipping-address.js';
import { buildGuard, type SandboxRouteKit } from './routes/shared.js';
import type { Scope } from './scopes.js';

/** The sandbox operations, for the REST routes here and the MCP tools elsewhere. */
export interface SandboxServices {
  clock: Clock;
  carts: SandboxCartService;
  issueKey(scopes: readonly Scope[] | undefined): Promise<IssuedKey>;
  /** Throws 401 `sandbox_unauthorized`; `scope` is named in the 401 when given. */
  authenticate(authorization: string | undefined, clientIp: string, scope?: Scope): Promise<SandboxPrincipal>;
  runIdempotently(scope: IdempotencyScope, requestBody: unknown, execute: () => Promise<RecordedResponse>): Promise<IdempotentOutcome>;
  rateLimits: SandboxRateLimits;
  purgeExpired(): Promise<PurgeReport>;
}

declare module 'fastify' {
  interface FastifyInstance {
    sandbox: SandboxServices;
  }
  interface FastifyRequest {
    /** Set by the guard of the authenticated sandbox routes. */
    sandboxPrincipal: SandboxPrincipal | null;
  }
}

const ROUTES = [
  discoveryRoute,
  createKeyRoute,
  createCartRoute,
  getCartRoute,
  addItemRoute,
  removeItemRoute,
  setShippingAddressRoute,
  listShippingOptionsRoute,
  selectShippingOptionRoute,
  checkoutRoute,
  cartActionRoute,
];

/**
 * The simulated commerce sandbox: its services (decorated as `app.sandbox`), the
 * background purge, and the `/sandbox/v1` routes in a context of their own, so the
 * sandbox's hooks, JSON parser and error envelope apply to them only.
 */
export const sandboxPlugin = fp<{ config: Config; store: Store; clock: Clock }>(
  async (app: FastifyInstance, { config, store, clock }) => {
    const { db } = store;
    const services: SandboxServices = {
      clock,
      carts: new SandboxCartService({
        db,
        clock,
        snapshot: () => app.catalog.snapshot,
        shippingAmounts: config.sandbox.shippingAmounts,
      }),
      issueKey: (scopes) => issueKey(db, clock(), scopes),
      authenticate: (authorization, clientIp, scope) =>
        authenticate({ db, clock, publicKey: config.sandbox.publicKey }, authorization, clientIp, scope),
      runIdempotently: (scope, requestBody, execute) => runIdempotently({ db, clock }, scope, requestBody, execute),
      rateLimits: defineSandboxRateLimits(app, config.sandbox),
      purgeExpired: () => purgeExpiredSandboxData(db, clock()),
    };
    app.decorate('sandbox', services);
    app.decorateRequest('sandboxPrincipal', null);

    if (config.sandbox.enabled) {
      const stopPurging = startPurging(db, clock, config.sandbox.purgeIntervalMs, app.log);
      app.addHook('onClose', async () => stopPurging());
    }

    const kit: SandboxRouteKit = { config, services, guard: buildGuard(services) };

    await app.register(
      async (sandbox) => {
      useErrorSurface(sandbox, sandboxErrors);
      sandbox.addHook('onRequest', async (request, reply) => {
        if (!config.sandbox.enabled) throw sandboxDisabled();
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
      for (const route of ROUTES) route(sandbox, kit);
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
