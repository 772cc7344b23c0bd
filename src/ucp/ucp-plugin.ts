import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { catalogLimitInWords } from '../catalog/public-api/rate-limit.js';
import type { Config } from '../config.js';
import { useErrorSurface } from '../http/error-surface.js';
import { CONTRACT_VERSION } from '../http/openapi.js';
import { ToolSchemaCompiler } from '../mcp/json-schema.js';
import { mcpEndpoints, registerMcpEndpoint } from '../mcp/mcp-endpoint.js';
import type { Clock } from '../sandbox/clock.js';
import type { Store } from '../store/database.js';
import { UCP_PATHS } from './endpoints.js';
import { ucpErrors } from './errors.js';
import { ucpTools } from './mcp/ucp-tools.js';
import { cartOperations } from './cart-operations.js';
import { catalogOperations } from './catalog-operations.js';
import { checkoutOperations, orderOperations } from './checkout-operations.js';
import { Negotiator } from './negotiation/negotiator.js';
import { UCP_TAG } from './openapi.js';
import { OrderEvents } from './order-events.js';
import type { UcpOperation, UcpOperationKit } from './operation.js';
import { businessProfile, sandboxPaymentConfig } from './profile/business-profile.js';
import { paymentHandlerInResponse, SANDBOX_PAYMENT_HANDLER } from './profile/payment-handler.js';
import { paymentHandlerRoutes, profileRoute } from './profile/profile-routes.js';
import { businessSigningKey } from './profile/signing-key.js';
import { ucpRestPlugin } from './rest/ucp-rest-plugin.js';
import { UCP_VERSION } from './version.js';

/**
 * The operations served, over REST and MCP alike (docs/ucp.md, Adding an operation): each
 * group is a function of the kit that returns its operations.
 */
export const UCP_OPERATION_GROUPS: readonly ((kit: UcpOperationKit) => readonly UcpOperation<any>[])[] = [catalogOperations, cartOperations, checkoutOperations, orderOperations];

export interface UcpPluginOptions {
  config: Config;
  store: Store;
  clock: Clock;
  /** Operations served besides UCP_OPERATION_GROUPS' (tests). */
  extraOperations?: (kit: UcpOperationKit) => readonly UcpOperation<any>[];
}

/**
 * The Universal Commerce Protocol (docs/ucp.md): the business profile at
 * `/.well-known/ucp`, the simulated payment handler's documents, the REST binding under
 * `/ucp/v1` and the MCP binding at `/ucp/mcp`, over the catalog and the sandbox, and the
 * order events to platforms' webhooks, over webhook delivery.
 */
export const ucpPlugin = fp<UcpPluginOptions>(
  async (app: FastifyInstance, { config, store, clock, extraOperations }) => {
    const { publicBaseUrl } = config;
    const signingKey = await businessSigningKey(store.db);
    const shippingCurrencies = Object.keys(config.sandbox.shippingAmounts);
    const payment = () => sandboxPaymentConfig(app.catalog.markets(), shippingCurrencies);
    const negotiator = new Negotiator({ config: config.ucp, continueUrl: config.storefrontUrl, clock });
    app.addHook('onClose', async () => negotiator.close());
    const orderEvents = new OrderEvents({ webhooks: app.webhooks, signingKey, publicBaseUrl });
    const kit: UcpOperationKit = {
      config,
      catalog: app.catalog,
      sandbox: app.sandbox,
      continueUrl: config.storefrontUrl,
      paymentHandlers: () => ({ [SANDBOX_PAYMENT_HANDLER]: [paymentHandlerInResponse(payment())] }),
      orderEvents: (negotiated) => orderEvents.hooks(negotiated),
    };
    const operations = [...UCP_OPERATION_GROUPS.flatMap((group) => group(kit)), ...(extraOperations?.(kit) ?? [])];
    const rateLimit = app.catalogRateLimit;

    const profile = () => businessProfile({ publicBaseUrl, signingKey: signingKey.publicJwk, markets: app.catalog.markets(), shippingCurrencies });
    await app.register(
      async (scope) => {
        useErrorSurface(scope, ucpErrors);
        profileRoute(scope, { rateLimit, profile });
      },
      { prefix: UCP_PATHS.profile },
    );

    const tools = ucpTools(operations, { negotiator, kit, schemas: new ToolSchemaCompiler(app.getSchemas()) });
    await app.register(
      async (ucp) => {
        useErrorSurface(ucp, ucpErrors);
        paymentHandlerRoutes(ucp, { publicBaseUrl, rateLimit });
        await ucp.register(ucpRestPlugin, { prefix: UCP_PATHS.rest.replace(/^\/ucp/, ''), operations, negotiator, kit, rateLimit });
        await mcpEndpoints(ucp, rateLimit, (scope) =>
          registerMcpEndpoint(scope, {
            path: '',
            name: 'vetrina-ucp',
            version: CONTRACT_VERSION,
            tag: UCP_TAG,
            instructions: `Vetrina speaks the Universal Commerce Protocol ${UCP_VERSION} here: its business profile is ${publicBaseUrl}${UCP_PATHS.profile}. Every tool takes meta: { "ucp-agent": { "profile": "<URL of your platform profile>" } }; the call is negotiated against that profile. Everything is simulated: no order, payment or customer is ever real.`,
            summary: 'MCP server: the Universal Commerce Protocol',
            description: `The UCP ${UCP_VERSION} MCP binding (Streamable HTTP, stateless, POST only), with the release's tools and argument shapes. Every request counts against the catalog rate limit (${catalogLimitInWords(config)}). Tools: ${tools.map((tool) => tool.name).join(', ') || 'none yet'}.`,
            allowedHosts: config.mcpAllowedHosts,
            corsOrigins: config.corsOrigins,
            tools,
            rateLimit,
            batch: config.mcpBatch,
          }),
        );
      },
      { prefix: '/ucp' },
    );
  },
  { name: 'ucp', dependencies: ['catalog', 'sandbox', 'delivery', 'rate-limits', 'error-surfaces'] },
);
