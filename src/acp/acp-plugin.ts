import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { catalogCacheControl } from '../catalog/public-api/answers.js';
import { catalogLimitInWords } from '../catalog/public-api/rate-limit.js';
import { catalogResponses } from '../catalog/public-api/routes/shared.js';
import type { Config } from '../config.js';
import { useErrorSurface } from '../http/error-surface.js';
import type { Clock } from '../sandbox/clock.js';
import { checkoutOperations } from './checkout/checkout-operations.js';
import { discoveryRoute } from './discovery.js';
import { ACP_PATHS } from './endpoints.js';
import { acpErrors } from './errors.js';
import { FeedDocuments } from './feed/feed-documents.js';
import { FEED_PUSH_READER, pushFeedChanges } from './feed/feed-push.js';
import { feedRoutes } from './feed/feed-routes.js';
import type { AcpOperation, AcpOperationKit } from './operation.js';
import { delegatePaymentOperations } from './payment/delegate-payment.js';
import { paymentHandlerRoutes } from './payment/payment-handler.js';
import { acpRestPlugin } from './rest.js';

/**
 * The operations served, each group a function of the kit that returns its operations
 * (docs/acp.md, Adding an operation).
 */
export const ACP_OPERATION_GROUPS: readonly ((kit: AcpOperationKit) => readonly AcpOperation<any>[])[] = [checkoutOperations, delegatePaymentOperations];

export interface AcpPluginOptions {
  config: Config;
  clock: Clock;
}

/**
 * The Agentic Commerce Protocol (docs/acp.md): its discovery document at
 * `/.well-known/acp.json`, and under `/acp`, over the catalog and the sandbox: the
 * product feed of each market, and its changes pushed to an agent's Feed API when one
 * is configured (ACP_FEED_PUSH_URL), over webhook delivery; checkout sessions on the
 * sandbox's checkout sessions, delegated payment on its delegated payment tokens, and
 * the simulated payment handler's documents.
 */
export const acpPlugin = fp<AcpPluginOptions>(
  async (app: FastifyInstance, { config, clock }) => {
    const cacheControl = catalogCacheControl(config.catalogCache);
    const limitInWords = catalogLimitInWords(config);
    const push = config.acp.feedPush;
    if (push) pushFeedChanges(app.webhooks, app.catalog, push);
    // A push switched off must not keep the change log from being pruned.
    else await app.webhooks.retireChangeConsumer(FEED_PUSH_READER);
    const documents = new FeedDocuments(app.catalog, app.changeFeed, { cacheControl }, config.storefrontUrl);
    const kit: AcpOperationKit = { config, catalog: app.catalog, sandbox: app.sandbox };
    const operations = ACP_OPERATION_GROUPS.flatMap((group) => group(kit));
    await app.register(
      async (scope) => {
        useErrorSurface(scope, acpErrors);
        discoveryRoute(scope, { publicBaseUrl: config.publicBaseUrl, catalog: app.catalog, shippingAmounts: config.sandbox.shippingAmounts, rateLimit: app.catalogRateLimit });
      },
      { prefix: ACP_PATHS.discovery },
    );
    await app.register(
      async (acp) => {
        useErrorSurface(acp, acpErrors);
        feedRoutes(acp, { documents, rateLimit: app.catalogRateLimit, responses: catalogResponses(limitInWords, cacheControl), limitInWords });
        paymentHandlerRoutes(acp, app.catalogRateLimit);
        await acp.register(acpRestPlugin, { operations, kit, clock });
      },
      { prefix: ACP_PATHS.prefix },
    );
  },
  { name: 'acp', dependencies: ['catalog', 'sandbox', 'delivery', 'rate-limits', 'error-surfaces'] },
);
