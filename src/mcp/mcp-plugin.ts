import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { MAX_LOOKUP_IDENTIFIERS } from '../catalog/lookup.js';
import { catalogLimitInWords } from '../catalog/rate-limit.js';
import type { Config } from '../config.js';
import { CONTRACT_VERSION } from '../http/openapi.js';
import { catalogTools } from './catalog-tools.js';
import { ToolSchemaCompiler } from './json-schema.js';
import { BATCH_REVISION, mcpEndpoints, registerMcpEndpoint } from './mcp-endpoint.js';
import { KEY_TRADE_OFF, sandboxTools } from './sandbox-tools.js';
import { KEY_LIFETIME_HOURS } from '../sandbox/keys.js';
import { cartLimitText } from '../sandbox/rate-limits.js';
import { SCENARIOS } from '../sandbox/scenarios.js';
import { CHECKOUT_SCOPE } from '../sandbox/scopes.js';
import { shippingCurrenciesText, STANDARD_SHIPPING_ID } from '../sandbox/shipping.js';

/** The server instructions, told the deployment's limits (and the sandbox's, its cart currencies). */
function catalogInstructions(config: Config): string {
  return `Vetrina product discovery (read-only). Use search_catalog to find products by text (or browse newest first), get_product for one product by handle, lookup_catalog for up to ${MAX_LOOKUP_IDENTIFIERS} products at once by product id, variant id or SKU, list_markets for the regions, currencies and countries, list_categories for the category tree and the collections with their product counts. Prices are major-unit amounts in the market's currency; availability tells whether a variant is purchasable. Stock quantities are never shown. Every request counts against the catalog rate limit (${catalogLimitInWords(config)}). To rehearse a purchase, use the sandbox MCP server at /mcp/sandbox.`;
}

function sandboxInstructions(config: Config): string {
  return `Vetrina sandbox: rehearse a purchase end to end. Everything here is simulated: no order, payment, customer or stock reservation is ever created, and checkout returns checkout_url null.
Flow: 1) create_sandbox_key (free, ${KEY_LIFETIME_HOURS} h; or POST /sandbox/v1/keys) and configure this MCP client to send "Authorization: Bearer <access_token>" on its requests to this server, or, if it cannot set headers, pass the access_token as the sandbox_key argument of every cart tool (${KEY_TRADE_OFF}); 2) search_catalog / get_product to find a purchasable variant (availability.purchasable true and a price in your market); 3) create_cart (currency ${shippingCurrenciesText(config.sandbox.shippingAmounts)}, where a catalog region sells it; pass the country and locale you searched with, so the cart is priced in that market and its lines carry their titles and totals); 4) add_to_cart (update_cart_item to set a quantity, remove_from_cart); 5) set_shipping_address; 6) list_shipping_options and select_shipping_option (${STANDARD_SHIPPING_ID}); 7) checkout (needs the ${CHECKOUT_SCOPE} scope).
Failures are tool errors whose JSON carries the same error strings as the REST API (sandbox_invalid_request naming the argument and the values it accepts, sandbox_unauthorized, sandbox_insufficient_scope with the scope, sandbox_not_found, sandbox_variant_not_purchasable, sandbox_cart_incomplete, sandbox_idempotency_mismatch, sandbox_rate_limited). Pass idempotency_key to make create_cart, add_to_cart, update_cart_item and checkout safe to retry. To rehearse your recovery from a failure, pass scenario (${SCENARIOS.join(', ')}) to a cart tool: its description says what each does. The catalog tools work with the shared public key or no key. Every request counts against the catalog rate limit (${catalogLimitInWords(config)}); cart tools also against the cart limit (${cartLimitText(config.sandbox)}).`;
}

/** The two MCP servers of the contract: `/mcp` (discovery) and `/mcp/sandbox` (discovery plus simulated cart). */
export const mcpPlugin = fp<{ config: Config }>(
  async (app: FastifyInstance, { config }) => {
    // Tool definitions, schemas and compiled validators: once per process, here.
    const schemas = new ToolSchemaCompiler(app.getSchemas());
    const discovery = catalogTools(app.catalog, schemas);
    const sandbox = [
      ...discovery,
      ...sandboxTools(app.sandbox, schemas),
    ];
    const common = {
      version: CONTRACT_VERSION,
      allowedHosts: config.mcpAllowedHosts,
      corsOrigins: config.corsOrigins,
      rateLimit: app.catalogRateLimit,
      batch: config.mcpBatch,
    };
    const { maxMessages, maxAnswerBytes } = config.mcpBatch;
    const transport = `Streamable HTTP MCP endpoint (JSON-RPC 2.0), stateless: POST only (any other method is 405 with Allow: POST). Every request (initialize, tools/list, tools/call, ping, notifications; a batch of N messages as N requests) counts against the catalog rate limit (${catalogLimitInWords(config)}), one window per client IP shared with the catalog routes (GET /public/v1/...) and both MCP servers; past it the answer is HTTP 429 with RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset and Retry-After and a JSON-RPC error. A body that is not JSON is HTTP 400 with the JSON-RPC parse error (-32700). Host and Origin must be allowed hosts (MCP_ALLOWED_HOSTS): a malformed Host is 400, another host 403. JSON-RPC batches (an array of messages) are served under protocol revision ${BATCH_REVISION} only (the MCP-Protocol-Version header; without it, the revision an initialize in the batch asks for, else ${BATCH_REVISION}); under any other revision a batch is HTTP 400 with the JSON-RPC invalid request error (-32600). A batch holds at most ${maxMessages} messages (more is HTTP 400, -32600); one larger than what is left of the client's window is HTTP 429 and none of it runs. Its messages run one after another, and once their answers pass ${maxAnswerBytes} bytes, the call that passed the bound and every call after it (which do not run) are answered with a JSON-RPC error (-32000, data.code batch_answer_too_large).`;

    await mcpEndpoints(app, app.catalogRateLimit, (scope) => {
      registerMcpEndpoint(scope, {
        ...common,
        path: '',
        name: 'vetrina-catalog',
        instructions: catalogInstructions(config),
        summary: 'MCP server: read-only product discovery',
        description: `${transport} Speaks protocol revision 2026-07-28 and serves 2025-11-25, 2025-06-18 and 2025-03-26 clients. Tools: search_catalog (query, market, filters, sort, limit, cursor), get_product (handle, market), lookup_catalog (product_id, variant_id, sku, market), list_markets, list_categories (market, available). No credentials.`,
        tools: discovery,
      });
      registerMcpEndpoint(scope, {
        ...common,
        path: '/sandbox',
        name: 'vetrina-sandbox',
        instructions: sandboxInstructions(config),
        summary: 'MCP server: simulated cart and checkout',
        description: `${transport} Same revisions as /mcp. Tools: search_catalog, get_product, lookup_catalog, list_markets, list_categories (with the shared public key or no key), create_sandbox_key, create_cart, get_cart, add_to_cart, update_cart_item, remove_from_cart, set_shipping_address, list_shipping_options, select_shipping_option, checkout. The sandbox key travels in the HTTP Authorization header (Bearer) of each MCP request or, for clients that cannot set headers, in the sandbox_key argument of each cart tool (the header wins when both are present; a key in an argument ends up in the agent's transcript). A cart tool without a sufficient key returns a tool error naming the scope it needs. Cart tools also count against the REST cart limit (${cartLimitText(config.sandbox)}) and share the REST idempotency store. Nothing real is ever created.`,
        tools: sandbox,
      });
    });
  },
  { name: 'mcp', dependencies: ['catalog', 'sandbox'] },
);
