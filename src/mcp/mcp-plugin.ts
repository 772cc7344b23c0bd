import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { MAX_LOOKUP_IDENTIFIERS } from '../catalog/queries/lookup.js';
import { catalogLimitInWords } from '../catalog/public-api/rate-limit.js';
import type { Config } from '../config.js';
import { CONTRACT_VERSION } from '../http/openapi.js';
import { catalogTools } from './catalog-tools.js';
import { ToolSchemaCompiler } from './json-schema.js';
import { BATCH_REVISION, mcpEndpoints, registerMcpEndpoint } from './mcp-endpoint.js';
import { KEY_NOTE, KEY_TRADE_OFF, MCP_IDEMPOTENCY, sandboxTools } from './sandbox-tools.js';
import type { ToolDefinition } from './tool.js';
import { KEY_LIFETIME_HOURS } from '../sandbox/keys.js';
import { CART_OPERATIONS, cartLimitNote, idempotencyRules, purchaseFlow } from '../sandbox/operations.js';
import { cartLimitText } from '../sandbox/rate-limits.js';
import { KEY_SCENARIOS, SCENARIO_LIST } from '../sandbox/scenarios.js';
import { CHECKOUT_SCOPE } from '../sandbox/scopes.js';
import { shippingCurrenciesText, STANDARD_SHIPPING_ID } from '../sandbox/shipping.js';

/** The tools as the instructions and the endpoint descriptions list them, from their definitions. */
function toolList(tools: readonly ToolDefinition[]): string {
  return tools.map((tool) => `${tool.name} (${tool.config.title.toLowerCase()})`).join(', ');
}

/** The server instructions, told the deployment's limits (and the sandbox's, its cart currencies). */
function catalogInstructions(config: Config, tools: readonly ToolDefinition[]): string {
  return `Vetrina product discovery (read-only). Tools: ${toolList(tools)}; lookup_catalog takes up to ${MAX_LOOKUP_IDENTIFIERS} product ids, variant ids or SKUs at once. ${CATALOG_RESULTS} Every request counts against the catalog rate limit (${catalogLimitInWords(config)}). To rehearse a purchase, use the sandbox MCP server at /mcp/sandbox.`;
}

/** What the catalog tools answer: the REST resources, in words (the schemas are in /openapi.json). */
const CATALOG_RESULTS =
  'Results are the REST answers of /public/v1 (schemas in /openapi.json: ProductList, ProductDetail, ProductLookup, MarketList, TaxonomyListing), as structuredContent and as JSON text. Prices are major-unit amounts in the market\'s currency (echoed as `context`); availability tells whether a variant is purchasable (availability.purchasable). Stock quantities are never shown.';

/** What the cart tools answer, in words: the tools advertise no output schema (see defineTool). */
const CART_RESULTS = `Cart tools answer the cart (SandboxCart in /openapi.json): id, currency, items[] (variant_id, quantity, unit_price), shipping_address, shipping_option, totals (item_total, shipping_total, grand_total); a cart opened with country or locale also has market (locale, country, currency, region_id) and, per item, product_handle, title, variant_display_name, thumbnail and line_total. Amounts are major units computed exactly in minor units; unit prices are the live catalog prices of the cart's market, recalculated on every answer, and a line no longer purchasable or priced is left out. checkout adds status ready_for_checkout and checkout_url null; list_shipping_options answers { shipping_options: [{ id, name, amount, currency }] }; create_sandbox_key answers access_token, token_type, scopes and expires_at.`;

function sandboxInstructions(config: Config, catalogTools: readonly ToolDefinition[]): string {
  const idempotent = CART_OPERATIONS.filter((op) => op.idempotency).map((op) => op.name);
  const flow = purchaseFlow();
  const scenarios = SCENARIO_LIST.map(({ name, description }) => `\`${name}\`: ${description}`).join(' ');
  return `Vetrina sandbox: rehearse a purchase end to end. Everything here is simulated: no order, payment, customer or stock reservation is ever created, and checkout returns checkout_url null.
Flow: ${flow.steps.map((op) => op.name).join(' -> ')}; at any point along it: ${flow.anyTime.map((op) => `${op.name} (${op.title.toLowerCase()})`).join(', ')}. Start after finding a purchasable variant (availability.purchasable true and a price in your market) with the catalog tools (${catalogTools.map((tool) => tool.name).join(', ')}; they work with the shared public key or no key). Create the key (free, ${KEY_LIFETIME_HOURS} h; or POST /sandbox/v1/keys), then configure this MCP client to send "Authorization: Bearer <access_token>" on its requests to this server or, if it cannot set headers, pass the access_token as the sandbox_key argument of every cart tool. ${KEY_TRADE_OFF} ${KEY_NOTE} Call create_cart (currency ${shippingCurrenciesText(config.sandbox.shippingAmounts)}, where a catalog region sells it) with the country and locale you searched with. Checkout needs the ${CHECKOUT_SCOPE} scope; the only shipping option is ${STANDARD_SHIPPING_ID}.
${CART_RESULTS}
Failures are tool errors whose JSON carries the same error strings as the REST API (sandbox_invalid_request naming the argument and the values it accepts, sandbox_unauthorized, sandbox_insufficient_scope with the scope, sandbox_not_found, sandbox_variant_not_purchasable, sandbox_cart_incomplete, sandbox_idempotency_mismatch, sandbox_rate_limited).
Pass idempotency_key to ${idempotent.join(', ')} to make a call safe to retry. ${idempotencyRules(MCP_IDEMPOTENCY)}
To rehearse your recovery from a failure, pass scenario to a cart tool (create_sandbox_key takes ${KEY_SCENARIOS.join(' and ')} only). It acts after the checks every call passes first (key, scope, the cart's owner), and its failures are not stored for an idempotent replay. ${scenarios}
Every request counts against the catalog rate limit (${catalogLimitInWords(config)}). ${cartLimitNote(config.sandbox)}`;
}

/** The two MCP servers of the contract: `/mcp` (discovery) and `/mcp/sandbox` (discovery plus simulated cart). */
export const mcpPlugin = fp<{ config: Config }>(
  async (app: FastifyInstance, { config }) => {
    // Tool definitions, schemas and compiled validators: once per process, here.
    const schemas = new ToolSchemaCompiler(app.getSchemas());
    const discovery = catalogTools(app.catalog, app.changeFeed, schemas);
    const cart = sandboxTools(app.sandbox, schemas);
    const sandbox = [...discovery, ...cart];
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
        instructions: catalogInstructions(config, discovery),
        summary: 'MCP server: read-only product discovery',
        description: `${transport} Speaks protocol revision 2026-07-28 and serves 2025-11-25, 2025-06-18 and 2025-03-26 clients. Tools: ${toolList(discovery)}. No credentials.`,
        tools: discovery,
      });
      registerMcpEndpoint(scope, {
        ...common,
        path: '/sandbox',
        name: 'vetrina-sandbox',
        instructions: sandboxInstructions(config, discovery),
        summary: 'MCP server: simulated cart and checkout',
        description: `${transport} Same revisions as /mcp. Tools: ${toolList(discovery)} (with the shared public key or no key), ${toolList(cart)}. The sandbox key travels in the HTTP Authorization header (Bearer) of each MCP request or, for clients that cannot set headers, in the sandbox_key argument of each cart tool (the header wins when both are present; a key in an argument ends up in the agent's transcript). A cart tool without a sufficient key returns a tool error naming the scope it needs. Cart tools also count against the REST cart limit (${cartLimitText(config.sandbox)}) and share the REST idempotency store. Nothing real is ever created.`,
        tools: sandbox,
      });
    });
  },
  { name: 'mcp', dependencies: ['catalog', 'sandbox'] },
);
