import { Type, type Static, type TObject, type TProperties } from 'typebox';
import { DEFAULT_COUNTRY } from '../catalog/market.js';
import { admitKeyWithScope } from '../sandbox/admission.js';
import type { SandboxPrincipal } from '../sandbox/auth.js';
import type { SandboxCartService } from '../sandbox/cart-service.js';
import { missingKey, sandboxErrors } from '../sandbox/errors.js';
import { IDEMPOTENCY_RETENTION_HOURS } from '../sandbox/idempotency.js';
import { KEY_LIFETIME_HOURS } from '../sandbox/keys.js';
import { cartLimitText, keyLimitText } from '../sandbox/rate-limits.js';
import { KEY_SCENARIOS, scenarioParameter, SCENARIOS, type Scenario } from '../sandbox/scenarios.js';
import {
  DEFAULT_CURRENCY,
  idempotencyKey,
  MAX_QUANTITY,
  SandboxAddress,
  SandboxCartAnswer,
  SandboxCartRequest,
  SandboxItemQuantityRequest,
  SandboxItemRequest,
  SandboxKeyRequest,
  SandboxKeyResponse,
  SandboxShippingOptionRequest,
  SandboxShippingOptions,
} from '../sandbox/schemas.js';
import { CART_SCOPE, CHECKOUT_SCOPE, DEFAULT_SCOPES, SCOPES, type Scope } from '../sandbox/scopes.js';
import type { SandboxServices } from '../sandbox/services.js';
import { shippingAmountsText, shippingCurrenciesText, STANDARD_SHIPPING_ID, STANDARD_SHIPPING_TEXT } from '../sandbox/shipping.js';
import { TOKEN_PREFIX, TOKEN_SHAPE } from '../sandbox/tokens.js';
import type { ToolSchemaCompiler } from './json-schema.js';
import { defineTool, RenderedToolError, type ToolContext, type ToolDefinition } from './tool.js';

const SIMULATED = 'Simulated: nothing real (order, payment, customer, stock reservation) is ever created.';

/** How an agent hands its key to a cart tool, and what passing it as an argument costs. */
export const KEY_TRADE_OFF = `A key passed as sandbox_key becomes part of the conversation (the agent's transcript and context, and whatever logs the client keeps); send the Authorization header instead where the client can. The header wins when both are present. Sandbox keys expire after ${KEY_LIFETIME_HOURS} hours and reach only simulated carts.`;

const KEY_NOTE = `Needs a sandbox key with that scope: in the HTTP Authorization header of the MCP request ("Bearer ${TOKEN_PREFIX}...") or, for a client that cannot set headers, as the sandbox_key argument. Without it the tool error is sandbox_unauthorized or sandbox_insufficient_scope, naming the scope. Carts are visible only to the key that created them (another key gets sandbox_not_found).`;

const NO_KEY_SENT =
  'This tool needs a sandbox key: pass sandbox_key (the access_token from create_sandbox_key) or send Authorization: Bearer <access_token> on the MCP request.';

const IDEMPOTENCY_KEY_REUSED =
  'This idempotency_key was already used with different arguments; pass a new idempotency_key for a new call.';

const WRITES = { readOnlyHint: false, idempotentHint: false, destructiveHint: false, openWorldHint: false };

/** What a cart tool runs with: the admitted key, and the cart operations as the call's scenario shapes them. */
interface CartCall {
  principal: SandboxPrincipal;
  carts: SandboxCartService;
}

/**
 * The sandbox cart tools of `/mcp/sandbox`. Each authenticates the request's bearer key
 * (or its sandbox_key argument) and calls the same services as the REST routes, with the
 * same gate, rate limit per key and idempotency store; failures carry the REST
 * `SandboxError` bodies. Arguments are the REST request schemas under the tools' names.
 */
export function sandboxTools(sandbox: SandboxServices, schemas: ToolSchemaCompiler): ToolDefinition[] {
  const { config } = sandbox;
  const cartOutput = schemas.output(SandboxCartAnswer);
  const cartId = Type.String({ minLength: 1, maxLength: 64, description: 'The cart id from create_cart (`sandbox_cart_...`).' });
  const idempotencyKeyArg = Type.Optional(
    idempotencyKey(
      `Optional: makes a retry safe. The first result is stored for ${IDEMPOTENCY_RETENTION_HOURS} h and returned again for the same key and arguments; other arguments under the same key are sandbox_idempotency_mismatch.`,
    ),
  );
  const sandboxKey = Type.Optional(
    Type.String({
      pattern: TOKEN_SHAPE.source,
      description: `The access_token of create_sandbox_key, for clients that cannot send the Authorization header. ${KEY_TRADE_OFF}`,
    }),
  );
  const scenarioArg = scenarioParameter(SCENARIOS);
  const { variant_id: variantId, quantity } = SandboxItemRequest.properties;
  const cartLimit = `Counts against the cart limit of the key (${cartLimitText(config)}), together with the REST cart routes.`;

  /** The header wins; a blank header counts as none, so sandbox_key can stand in for it. */
  const admit = (context: ToolContext, scope: Scope, key: string | undefined): Promise<SandboxPrincipal> => {
    const header = context.request.headers.authorization;
    const authorization = header?.trim() ? header : key === undefined ? undefined : `Bearer ${key}`;
    if (authorization === undefined) throw missingKey(scope, NO_KEY_SENT);
    return admitKeyWithScope(sandbox, context.request, context.reply, scope, authorization);
  };

  /**
   * Runs through the idempotency store when the agent sent a key, like the REST POSTs:
   * business errors are recorded too, so a retry gets the same answer.
   */
  const idempotent = async (
    principal: SandboxPrincipal,
    operation: string,
    key: string | undefined,
    args: unknown,
    work: () => Promise<object>,
  ): Promise<object> => {
    if (key === undefined) return work();
    const outcome = await sandbox.runIdempotently({
      scope: { keyId: principal.keyId, idempotencyKey: key, method: 'MCP', path: `tools/${operation}` },
      input: args,
      mismatchMessage: IDEMPOTENCY_KEY_REUSED,
      successStatus: 200,
      run: work,
    });
    return outcome.statusCode >= 400 ? new RenderedToolError(outcome.body) : outcome.body;
  };

  /** A cart tool: its arguments plus sandbox_key; it runs once the key is admitted with `scope`. */
  const cartTool = <P extends TProperties>(spec: {
    name: string;
    title: string;
    description: string;
    scope: Scope;
    args: P;
    output?: ReturnType<ToolSchemaCompiler['output']>;
    annotations: typeof WRITES;
    run(args: Static<TObject<P>>, call: CartCall): Promise<object>;
  }) =>
    defineTool(sandboxErrors, {
      name: spec.name,
      title: spec.title,
      description: `${spec.description} Scope: ${spec.scope}. ${KEY_NOTE} ${cartLimit}`,
      input: schemas.input(Type.Object({ ...spec.args, sandbox_key: sandboxKey, scenario: scenarioArg }, { additionalProperties: false })),
      output: spec.output ?? cartOutput,
      annotations: spec.annotations,
      run: (args, context) => {
        const { sandbox_key, scenario, ...own } = args as Static<TObject<P>> & { sandbox_key?: string; scenario?: Scenario };
        return sandbox.whenAvailable(async () =>
          spec.run(own as Static<TObject<P>>, { principal: await admit(context, spec.scope, sandbox_key), carts: sandbox.carts.withScenario(scenario) }),
        );
      },
    });

  return [
    defineTool(sandboxErrors, {
      name: 'create_sandbox_key',
      title: 'Create a sandbox key',
      description: `Issues a free sandbox key valid for ${KEY_LIFETIME_HOURS} hours (no credentials needed; ${keyLimitText(config)}). Scopes: ${SCOPES.join(', ')}; omit scopes to get ${DEFAULT_SCOPES.join(', ')}. The token is shown once. Next: send it as "Authorization: Bearer <access_token>" on requests to this server (reconnect with that header) or, if this client cannot set headers, pass it as the sandbox_key argument of the cart tools; then call create_cart. ${KEY_TRADE_OFF} ${SIMULATED}`,
      input: schemas.input(
        Type.Object({ ...SandboxKeyRequest.properties, scenario: scenarioParameter(KEY_SCENARIOS) }, { additionalProperties: false }),
      ),
      output: schemas.output(SandboxKeyResponse),
      annotations: WRITES,
      run: (args, { request, reply }) =>
        sandbox.whenAvailable(async () => {
          await sandbox.rateLimits.keys(request, reply);
          return sandbox.issueKey(args.scopes, args.scenario);
        }),
    }),

    cartTool({
      name: 'create_cart',
      title: 'Create a sandbox cart',
      description: `Opens an empty simulated cart in a currency (default ${DEFAULT_CURRENCY}; ${shippingCurrenciesText(config.shippingAmounts)} as the catalog sells them). Pass the country and locale you searched the catalog with: the cart is then priced as search_catalog and get_product showed that country (currency defaults to its region's; another currency, or a country no region serves, is sandbox_invalid_request), and every answer adds market and, per line, product_handle, title (in locale), variant_display_name, thumbnail and line_total, enough to show the cart. Without country the market is the currency's region (the region of ${DEFAULT_COUNTRY} where it sells the currency). A shipping address in another country whose region sells the cart's currency moves the cart there; any other address leaves its market as it is. Next: add_to_cart with a purchasable variant id from search_catalog or get_product.`,
      scope: CART_SCOPE,
      args: { ...SandboxCartRequest.properties, idempotency_key: idempotencyKeyArg },
      annotations: WRITES,
      run: ({ idempotency_key, ...input }, { principal, carts }) =>
        idempotent(principal, 'create_cart', idempotency_key, input, () => carts.createCart(principal, input)),
    }),

    cartTool({
      name: 'get_cart',
      title: 'Get a sandbox cart',
      description: 'Returns the cart with live unit prices from the catalog and totals (major units, computed exactly in minor units).',
      scope: CART_SCOPE,
      args: { cart_id: cartId },
      annotations: { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false },
      run: ({ cart_id }, { principal, carts }) => carts.getCart(principal, cart_id),
    }),

    cartTool({
      name: 'add_to_cart',
      title: 'Add a variant to a sandbox cart',
      description: `Adds quantity (1 to ${MAX_QUANTITY}) of a variant; adding a variant already in the cart adds to its quantity (at most ${MAX_QUANTITY} in all). Only purchasable variants with a price in the cart's market can be added, else sandbox_variant_not_purchasable (unknown, draft, weighted, out of stock or unpriced). Next: set_shipping_address.`,
      scope: CART_SCOPE,
      args: { cart_id: cartId, variant_id: variantId, quantity, idempotency_key: idempotencyKeyArg },
      annotations: WRITES,
      run: ({ cart_id, idempotency_key, ...item }, { principal, carts }) =>
        idempotent(principal, `add_to_cart/${cart_id}`, idempotency_key, item, () => carts.addItem(principal, cart_id, item)),
    }),

    cartTool({
      name: 'update_cart_item',
      title: "Set a line's quantity in a sandbox cart",
      description: `Sets the quantity (0 to ${MAX_QUANTITY}) of a variant already in the cart; 0 removes its line. A positive quantity needs a purchasable variant priced in the cart's market, as add_to_cart does (else sandbox_variant_not_purchasable); a variant that is not in the cart is sandbox_not_found (use add_to_cart).`,
      scope: CART_SCOPE,
      args: { cart_id: cartId, variant_id: variantId, ...SandboxItemQuantityRequest.properties, idempotency_key: idempotencyKeyArg },
      annotations: { readOnlyHint: false, idempotentHint: true, destructiveHint: true, openWorldHint: false },
      run: ({ cart_id, idempotency_key, variant_id, quantity }, { principal, carts }) =>
        idempotent(principal, `update_cart_item/${cart_id}/${variant_id}`, idempotency_key, { quantity }, () =>
          carts.setItemQuantity(principal, cart_id, variant_id, quantity),
        ),
    }),

    cartTool({
      name: 'remove_from_cart',
      title: 'Remove a variant from a sandbox cart',
      description: "Removes a variant's line from the cart; removing a variant that is not in the cart changes nothing.",
      scope: CART_SCOPE,
      args: { cart_id: cartId, variant_id: variantId },
      annotations: { readOnlyHint: false, idempotentHint: true, destructiveHint: true, openWorldHint: false },
      run: ({ cart_id, variant_id }, { principal, carts }) => carts.removeItem(principal, cart_id, variant_id),
    }),

    cartTool({
      name: 'set_shipping_address',
      title: 'Set the shipping address',
      description: `Sets the cart's (simulated) shipping address: name, line_one, city, country (two letters), postal_code required; line_two, state, phone_number optional. Next: list_shipping_options.`,
      scope: CART_SCOPE,
      args: { cart_id: cartId, address: schemas.standalone(SandboxAddress) },
      annotations: { readOnlyHint: false, idempotentHint: true, destructiveHint: false, openWorldHint: false },
      run: ({ cart_id, address }, { principal, carts }) => carts.setShippingAddress(principal, cart_id, address),
    }),

    cartTool({
      name: 'list_shipping_options',
      title: 'List shipping options',
      description: `Lists the shipping options for the cart's currency: one, ${STANDARD_SHIPPING_TEXT}, at the amount configured for the currency (${shippingAmountsText(config.shippingAmounts)} here). Next: select_shipping_option.`,
      scope: CART_SCOPE,
      args: { cart_id: cartId },
      output: schemas.output(SandboxShippingOptions),
      annotations: { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false },
      run: ({ cart_id }, { principal, carts }) => carts.listShippingOptions(principal, cart_id),
    }),

    cartTool({
      name: 'select_shipping_option',
      title: 'Select a shipping option',
      description: `Selects the cart's shipping option (only ${STANDARD_SHIPPING_ID} exists); its amount enters the totals. Next: checkout.`,
      scope: CART_SCOPE,
      args: { cart_id: cartId, ...SandboxShippingOptionRequest.properties },
      annotations: { readOnlyHint: false, idempotentHint: true, destructiveHint: false, openWorldHint: false },
      run: ({ cart_id, shipping_option_id }, { principal, carts }) => carts.selectShippingOption(principal, cart_id, shipping_option_id),
    }),

    cartTool({
      name: 'checkout',
      title: 'Simulated checkout',
      description: `Simulates checkout: a cart with at least one item, a shipping address and a shipping option returns status ready_for_checkout and checkout_url null; otherwise sandbox_cart_incomplete names what is missing. ${SIMULATED} Real payment happens elsewhere in a future production flow.`,
      scope: CHECKOUT_SCOPE,
      args: { cart_id: cartId, idempotency_key: idempotencyKeyArg },
      annotations: { readOnlyHint: false, idempotentHint: true, destructiveHint: false, openWorldHint: false },
      run: ({ cart_id, idempotency_key }, { principal, carts }) =>
        idempotent(principal, `checkout/${cart_id}`, idempotency_key, {}, () => carts.checkout(principal, cart_id)),
    }),
  ];
}
