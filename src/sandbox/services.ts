import type { FastifyInstance } from 'fastify';
import type { SandboxConfig } from '../config.js';
import type { Db } from '../store/database.js';
import { authenticate, type SandboxPrincipal } from './auth.js';
import { whenAvailable } from './availability.js';
import { SandboxCartService } from './cart-service.js';
import { CheckoutSessionService } from './checkout/checkout-service.js';
import { OrderWebhookService } from './order-webhooks.js';
import { DelegatedPaymentService } from './payment/delegated-payments.js';
import { protocolCartView, sandboxCartView, type ProtocolCartView } from './cart-views.js';
import type { Clock } from './clock.js';
import { runIdempotently, type IdempotentCall, type IdempotentOutcome } from './idempotency.js';
import { issueKey, keyLookup, type IssuedKey } from './keys.js';
import { defineSandboxRateLimits, type SandboxRateLimits } from './rate-limits.js';
import { failIfRehearsed, type Scenario } from './scenarios.js';
import type { Scope } from './scopes.js';

/** The sandbox operations, for the REST routes of the sandbox plugin and the MCP tools. */
export interface SandboxServices {
  /** What this deployment configured; the routes and tools state its limits and amounts. */
  config: SandboxConfig;
  carts: SandboxCartService;
  /** The same carts as protocol adapters (UCP) render them: amounts in minor units (cart-views.ts, ProtocolCartView). */
  protocolCarts: SandboxCartService<ProtocolCartView>;
  /** Checkout sessions and simulated orders, for the protocol adapters (UCP, ACP). */
  checkouts: CheckoutSessionService;
  /** Delegated payment tokens with allowances, which checkouts accept (ACP's delegated payment). */
  delegatedPayments: DelegatedPaymentService;
  /** Each key's order webhook: which delivery subscription its orders' events go to (ACP's order events). */
  orderWebhooks: OrderWebhookService;
  /** `scenario` rehearses a failure of issuance (unavailable, rate_limited) instead. */
  issueKey(scopes: readonly Scope[] | undefined, scenario?: Scenario): Promise<IssuedKey>;
  /** Throws 401 `sandbox_unauthorized`; `scope` is named in the 401 when given. */
  authenticate(authorization: string | undefined, clientIp: string, scope?: Scope): Promise<SandboxPrincipal>;
  runIdempotently(call: IdempotentCall): Promise<IdempotentOutcome>;
  rateLimits: SandboxRateLimits;
  /** Runs `work` if the sandbox is enabled (availability.ts); an unreachable store is answered by `sandboxErrors`. */
  whenAvailable<T>(work: () => Promise<T>): Promise<T>;
}

export function buildSandboxServices(app: FastifyInstance, config: SandboxConfig, db: Db, clock: Clock): SandboxServices {
  const findKey = keyLookup(db);
  const cartDeps = { db, clock, catalog: () => app.catalog.live, shippingAmounts: config.shippingAmounts, cartRateLimit: config.cartRateLimit };
  const delegatedPayments = new DelegatedPaymentService({ db, clock });
  return {
    config,
    carts: new SandboxCartService({ ...cartDeps, render: sandboxCartView }),
    protocolCarts: new SandboxCartService({ ...cartDeps, render: protocolCartView }),
    checkouts: new CheckoutSessionService({ ...cartDeps, delegatedPayments }),
    delegatedPayments,
    orderWebhooks: new OrderWebhookService({ db, clock }),
    issueKey: async (scopes, scenario) => {
      failIfRehearsed(scenario, config.keyRateLimit);
      return issueKey(db, clock(), scopes);
    },
    authenticate: (authorization, clientIp, scope) => authenticate({ findKey, clock, publicKey: config.publicKey }, authorization, clientIp, scope),
    runIdempotently: (call) => runIdempotently({ db, clock }, call),
    rateLimits: defineSandboxRateLimits(app, config),
    whenAvailable: (work) => whenAvailable(config, work),
  };
}
