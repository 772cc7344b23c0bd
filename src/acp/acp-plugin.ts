import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { catalogCacheControl } from '../catalog/public-api/answers.js';
import { catalogLimitInWords } from '../catalog/public-api/rate-limit.js';
import { catalogResponses } from '../catalog/public-api/routes/shared.js';
import type { Config } from '../config.js';
import { useErrorSurface } from '../http/error-surface.js';
import { CONTRACT_VERSION } from '../http/openapi.js';
import { ToolSchemaCompiler } from '../mcp/json-schema.js';
import { mcpEndpoints, registerMcpEndpoint } from '../mcp/mcp-endpoint.js';
import type { Clock } from '../sandbox/clock.js';
import { acpSigning } from './binding.js';
import { cartOperations } from './cart/cart-operations.js';
import { checkoutOperations } from './checkout/checkout-operations.js';
import { discoveryRoute } from './discovery.js';
import { ACP_PATHS } from './endpoints.js';
import { acpErrors } from './errors.js';
import { FeedDocuments } from './feed/feed-documents.js';
import { FEED_PUSH_READER, pushFeedChanges } from './feed/feed-push.js';
import { feedRoutes } from './feed/feed-routes.js';
import { acpTools } from './mcp/acp-tools.js';
import { ACP_TAG } from './openapi.js';
import type { AcpOperation, AcpOperationKit } from './operation.js';
import { AcpOrderEvents } from './order-events/order-events.js';
import { orderWebhookOperations } from './order-events/order-webhook.js';
import { delegatePaymentOperations } from './payment/delegate-payment.js';
import { paymentHandlerRoutes } from './payment/payment-handler.js';
import { acpRestPlugin } from './rest.js';
import { ACP_VERSION } from './version.js';

/**
 * The operations served, each group a function of the kit that returns its operations
 * (docs/acp.md, Adding an operation).
 */
export const ACP_OPERATION_GROUPS: readonly ((kit: AcpOperationKit) => readonly AcpOperation<any>[])[] = [checkoutOperations, cartOperations, delegatePaymentOperations, orderWebhookOperations];

export interface AcpPluginOptions {
  config: Config;
  clock: Clock;
}

/**
 * The Agentic Commerce Protocol (docs/acp.md): its discovery document at
 * `/.well-known/acp.json`, and under `/acp`, over the catalog and the sandbox: the
 * product feed of each market, and its changes pushed to an agent's Feed API when one
 * is configured (ACP_FEED_PUSH_URL), over webhook delivery; checkout sessions on the
 * sandbox's checkout sessions, carts on its carts, delegated payment on its delegated
 * payment tokens, the order webhook a sandbox key registers and its orders' events,
 * over webhook delivery, and the simulated payment handler's documents; and at
 * `/acp/mcp` the release's MCP binding, the checkout sessions as tools over the same
 * operations.
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
    const orderEvents = new AcpOrderEvents(app.webhooks, app.sandbox, { publicBaseUrl: config.publicBaseUrl });
    const kit: AcpOperationKit = { config, catalog: app.catalog, sandbox: app.sandbox, orderEvents };
    const operations = ACP_OPERATION_GROUPS.flatMap((group) => group(kit));
    const signing = acpSigning(config.acp, clock);
    // Tool definitions, schemas and compiled validators: once per process, here.
    const tools = acpTools(operations, { kit, schemas: new ToolSchemaCompiler(app.getSchemas()), signing });
    const rateLimit = app.catalogRateLimit;
    await app.register(
      async (scope) => {
        useErrorSurface(scope, acpErrors);
        discoveryRoute(scope, { publicBaseUrl: config.publicBaseUrl, catalog: app.catalog, shippingAmounts: config.sandbox.shippingAmounts, rateLimit });
      },
      { prefix: ACP_PATHS.discovery },
    );
    await app.register(
      async (acp) => {
        useErrorSurface(acp, acpErrors);
        feedRoutes(acp, { documents, rateLimit, responses: catalogResponses(limitInWords, cacheControl), limitInWords });
        paymentHandlerRoutes(acp, rateLimit);
        await acp.register(acpRestPlugin, { operations, kit, signing });
        await mcpEndpoints(acp, rateLimit, (scope) =>
          registerMcpEndpoint(scope, {
            path: '',
            name: 'vetrina-acp',
            version: CONTRACT_VERSION,
            tag: ACP_TAG,
            instructions: `Vetrina speaks the Agentic Commerce Protocol ${ACP_VERSION} here, its MCP binding: the checkout session tools take meta (api_version "${ACP_VERSION}", required; idempotency_key, request_id, signature, timestamp: the REST headers), id (the checkout session id) and payload (the REST request body); results are the REST answers. Send a sandbox key (POST ${config.publicBaseUrl}/sandbox/v1/keys) as "Authorization: Bearer <key>" on the MCP requests. Failures are JSON-RPC errors -32000 with the release's Error { type, code, message, param? } in data. Pay with payment_data { handler_id: "sandbox_card", instrument: { type: "card", credential: { type: "sandbox_token", token } } }: a token delegated at ${config.publicBaseUrl}${ACP_PATHS.delegatePayment} (REST) or tok_sandbox_success. Everything is simulated: no order, payment or customer is ever real.`,
            summary: 'MCP server: the Agentic Commerce Protocol',
            description: `The ACP ${ACP_VERSION} MCP binding (openrpc.agentic_checkout.json; Streamable HTTP, stateless, POST only, as /mcp), with the release's tools and argument shapes over the same operations as the REST routes. The sandbox key travels in the HTTP Authorization header (Bearer) of each MCP request. Every request counts against the catalog rate limit (${limitInWords}), each tool call against the key's cart limit too. Tools: ${tools.map((tool) => tool.name).join(', ')}.`,
            allowedHosts: config.mcpAllowedHosts,
            corsOrigins: config.corsOrigins,
            tools,
            rateLimit,
            batch: config.mcpBatch,
          }),
        );
      },
      { prefix: ACP_PATHS.prefix },
    );
  },
  { name: 'acp', dependencies: ['catalog', 'sandbox', 'delivery', 'rate-limits', 'error-surfaces'] },
);
