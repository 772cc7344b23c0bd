import type { McpServer } from '@modelcontextprotocol/server';
import { Type, type TSchema } from 'typebox';
import { sandboxErrorBody, sandboxUnavailable } from '../http/error-handler.js';
import { HttpProblem } from '../http/problem.js';
import { admitCartCall } from '../sandbox/admission.js';
import type { SandboxPrincipal } from '../sandbox/auth.js';
import { sandboxDisabled } from '../sandbox/errors.js';
import { recordCall } from '../sandbox/recorded-call.js';
import { isStoreUnavailable } from '../store/store-unavailable.js';
import type { SandboxServices } from '../sandbox/sandbox-plugin.js';
import { SandboxAddress, SandboxKeyRequest, SandboxKeyResponse, SandboxShippingOptions } from '../sandbox/schemas.js';
import { CART_SCOPE, CHECKOUT_SCOPE, type Scope } from '../sandbox/scopes.js';
import { inlineRefs, toolSchema } from './json-schema.js';
import { runTool, type ErrorRenderer, type ToolContext } from './tool-result.js';

export interface SandboxToolDeps {
  sandbox: SandboxServices;
  /** When the sandbox is switched off, its tools answer sandbox_disabled like its routes. */
  enabled: boolean;
  sharedSchemas: Record<string, unknown>;
}

const renderSandboxError: ErrorRenderer = (problem) => sandboxErrorBody(problem);

const SIMULATED = 'Simulated: nothing real (order, payment, customer, stock reservation) is ever created.';
const KEY_NOTE =
  'Needs a sandbox key with the scope named below in the HTTP Authorization header of the MCP request ("Bearer sbx_test_..."); without it the tool error is sandbox_unauthorized or sandbox_insufficient_scope, naming the scope. Carts are visible only to the key that created them (another key gets sandbox_not_found).';

/**
 * The sandbox cart tools of `/mcp/sandbox`. Each authenticates the request's bearer key
 * and calls the same services as the REST routes, with the same rate limit per key and
 * the same idempotency store; failures carry the REST `SandboxError` bodies.
 */
export function registerSandboxTools(server: McpServer, deps: SandboxToolDeps, context: ToolContext): void {
  const { sandbox, sharedSchemas } = deps;
  const standalone = <T extends TSchema>(schema: T) => inlineRefs(schema, sharedSchemas);
  const cartOutput = toolSchema(standalone(Type.Ref('SandboxCart')));
  const cartId = Type.String({ minLength: 1, maxLength: 64, description: 'The cart id from create_cart (`sandbox_cart_...`).' });
  const idempotencyKey = Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      description:
        'Optional: makes a retry safe. The first result is stored for 24 h and returned again for the same key and arguments; other arguments under the same key are sandbox_idempotency_mismatch.',
    }),
  );
  const run = (work: () => Promise<object>) =>
    runTool(context, renderSandboxError, async () => {
      if (!deps.enabled) throw sandboxDisabled();
      try {
        return await work();
      } catch (error) {
        throw isStoreUnavailable(error) ? sandboxUnavailable() : error;
      }
    });

  const principalFor = (scope: Scope): Promise<SandboxPrincipal> =>
    admitCartCall(sandbox, context.request, context.reply, scope);

  /**
   * Runs through the idempotency store when the agent sent a key, like the REST POSTs:
   * business errors are recorded too, so a retry gets the same answer.
   */
  const idempotent = async (
    principal: SandboxPrincipal,
    tool: string,
    key: string | undefined,
    args: unknown,
    work: () => Promise<object>,
  ): Promise<object> => {
    if (key === undefined) return work();
    const scope = { keyId: principal.keyId, idempotencyKey: key, method: 'MCP', path: `tools/${tool}` };
    const outcome = await sandbox.runIdempotently(scope, args, () => recordCall(200, work));
    const body = JSON.parse(outcome.body) as { error: string; message: string; scope?: string };
    if (outcome.statusCode >= 400) {
      throw new HttpProblem(outcome.statusCode, body.error, body.message, body.scope ? { scope: body.scope } : {});
    }
    return body;
  };

  server.registerTool(
    'create_sandbox_key',
    {
      title: 'Create a sandbox key',
      description: `Issues a free sandbox key valid for 24 hours (no credentials needed; 20 per client IP per hour). Scopes: catalog:read, cart:write, checkout:create; omit scopes to get all three. The token is shown once. Next: the MCP client must send it as "Authorization: Bearer <access_token>" on requests to this server (reconnect with that header), then call create_cart. ${SIMULATED}`,
      inputSchema: toolSchema(standalone(SandboxKeyRequest)),
      outputSchema: toolSchema(standalone(SandboxKeyResponse)),
      annotations: { readOnlyHint: false, idempotentHint: false, destructiveHint: false, openWorldHint: false },
    },
    async (args) =>
      run(async () => {
        await sandbox.rateLimits.keys(context.request, context.reply);
        return sandbox.issueKey(args.scopes);
      }),
  );

  server.registerTool(
    'create_cart',
    {
      title: 'Create a sandbox cart',
      description: `Opens an empty simulated cart in a currency (default EUR; EUR, GBP, USD or CHF as the catalog sells them). The cart's market is that currency's region (IT for EUR until a shipping address in another EUR country is set). Scope: cart:write. ${KEY_NOTE} Next: add_to_cart with a purchasable variant id from search_catalog or get_product.`,
      inputSchema: toolSchema(
        Type.Object(
          { currency: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217, default EUR.' })), idempotency_key: idempotencyKey },
          { additionalProperties: false },
        ),
      ),
      outputSchema: cartOutput,
      annotations: { readOnlyHint: false, idempotentHint: false, destructiveHint: false, openWorldHint: false },
    },
    async ({ idempotency_key, ...input }) =>
      run(async () => {
        const principal = await principalFor(CART_SCOPE);
        return idempotent(principal, 'create_cart', idempotency_key, input, () => sandbox.carts.createCart(principal, input));
      }),
  );

  server.registerTool(
    'get_cart',
    {
      title: 'Get a sandbox cart',
      description: `Returns the cart with live unit prices from the catalog and totals (major units, computed exactly in minor units). Scope: cart:write. ${KEY_NOTE}`,
      inputSchema: toolSchema(Type.Object({ cart_id: cartId }, { additionalProperties: false })),
      outputSchema: cartOutput,
      annotations: { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false },
    },
    async ({ cart_id }) => run(async () => sandbox.carts.getCart(await principalFor(CART_SCOPE), cart_id)),
  );

  server.registerTool(
    'add_to_cart',
    {
      title: 'Add a variant to a sandbox cart',
      description: `Adds quantity (1 to 99) of a variant; adding a variant already in the cart adds to its quantity (at most 99 in all). Only purchasable variants with a price in the cart's market can be added, else sandbox_variant_not_purchasable (unknown, draft, weighted, out of stock or unpriced). Scope: cart:write. ${KEY_NOTE} Next: set_shipping_address.`,
      inputSchema: toolSchema(
        Type.Object(
          {
            cart_id: cartId,
            variant_id: Type.String({ minLength: 1, maxLength: 128, description: 'A variant id from the catalog (`variants[].id`).' }),
            quantity: Type.Integer({ minimum: 1, maximum: 99 }),
            idempotency_key: idempotencyKey,
          },
          { additionalProperties: false },
        ),
      ),
      outputSchema: cartOutput,
      annotations: { readOnlyHint: false, idempotentHint: false, destructiveHint: false, openWorldHint: false },
    },
    async ({ cart_id, idempotency_key, ...item }) =>
      run(async () => {
        const principal = await principalFor(CART_SCOPE);
        return idempotent(principal, `add_to_cart/${cart_id}`, idempotency_key, item, () =>
          sandbox.carts.addItem(principal, cart_id, item),
        );
      }),
  );

  server.registerTool(
    'remove_from_cart',
    {
      title: 'Remove a variant from a sandbox cart',
      description: `Removes a variant's line from the cart; removing a variant that is not in the cart changes nothing. Scope: cart:write. ${KEY_NOTE}`,
      inputSchema: toolSchema(
        Type.Object(
          { cart_id: cartId, variant_id: Type.String({ minLength: 1, maxLength: 128 }) },
          { additionalProperties: false },
        ),
      ),
      outputSchema: cartOutput,
      annotations: { readOnlyHint: false, idempotentHint: true, destructiveHint: true, openWorldHint: false },
    },
    async ({ cart_id, variant_id }) => run(async () => sandbox.carts.removeItem(await principalFor(CART_SCOPE), cart_id, variant_id)),
  );

  server.registerTool(
    'set_shipping_address',
    {
      title: 'Set the shipping address',
      description: `Sets the cart's (simulated) shipping address: name, line_one, city, country (two letters), postal_code required; line_two, state, phone_number optional. Scope: cart:write. ${KEY_NOTE} Next: list_shipping_options.`,
      inputSchema: toolSchema(Type.Object({ cart_id: cartId, address: standalone(SandboxAddress) }, { additionalProperties: false })),
      outputSchema: cartOutput,
      annotations: { readOnlyHint: false, idempotentHint: true, destructiveHint: false, openWorldHint: false },
    },
    async ({ cart_id, address }) =>
      run(async () => sandbox.carts.setShippingAddress(await principalFor(CART_SCOPE), cart_id, address)),
  );

  server.registerTool(
    'list_shipping_options',
    {
      title: 'List shipping options',
      description: `Lists the shipping options for the cart's currency: one, sandbox_standard ("Standard shipping (simulated)"), at a fixed amount. Scope: cart:write. ${KEY_NOTE} Next: select_shipping_option.`,
      inputSchema: toolSchema(Type.Object({ cart_id: cartId }, { additionalProperties: false })),
      outputSchema: toolSchema(standalone(SandboxShippingOptions)),
      annotations: { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false },
    },
    async ({ cart_id }) => run(async () => sandbox.carts.listShippingOptions(await principalFor(CART_SCOPE), cart_id)),
  );

  server.registerTool(
    'select_shipping_option',
    {
      title: 'Select a shipping option',
      description: `Selects the cart's shipping option (only sandbox_standard exists); its amount enters the totals. Scope: cart:write. ${KEY_NOTE} Next: checkout.`,
      inputSchema: toolSchema(
        Type.Object(
          { cart_id: cartId, shipping_option_id: Type.Literal('sandbox_standard', { description: 'The only shipping option.' }) },
          { additionalProperties: false },
        ),
      ),
      outputSchema: cartOutput,
      annotations: { readOnlyHint: false, idempotentHint: true, destructiveHint: false, openWorldHint: false },
    },
    async ({ cart_id, shipping_option_id }) =>
      run(async () => sandbox.carts.selectShippingOption(await principalFor(CART_SCOPE), cart_id, shipping_option_id)),
  );

  server.registerTool(
    'checkout',
    {
      title: 'Simulated checkout',
      description: `Simulates checkout: a cart with at least one item, a shipping address and a shipping option returns status ready_for_checkout and checkout_url null; otherwise sandbox_cart_incomplete names what is missing. Scope: checkout:create. ${KEY_NOTE} ${SIMULATED} Real payment happens elsewhere in a future production flow.`,
      inputSchema: toolSchema(Type.Object({ cart_id: cartId, idempotency_key: idempotencyKey }, { additionalProperties: false })),
      outputSchema: cartOutput,
      annotations: { readOnlyHint: false, idempotentHint: true, destructiveHint: false, openWorldHint: false },
    },
    async ({ cart_id, idempotency_key }) =>
      run(async () => {
        const principal = await principalFor(CHECKOUT_SCOPE);
        return idempotent(principal, `checkout/${cart_id}`, idempotency_key, {}, () => sandbox.carts.checkout(principal, cart_id));
      }),
  );
}
