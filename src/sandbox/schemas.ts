import { Type, type Static } from 'typebox';
import { DEFAULT_LOCALE, LOCALES } from '../catalog/model/locales.js';
import { DEFAULT_COUNTRY } from '../catalog/queries/market.js';
import { SANDBOX_ERROR_CODES } from './errors.js';
import { KEY_LIFETIME_HOURS } from './keys.js';
import { KEY_SCENARIOS, SCENARIOS } from './scenarios.js';
import { CART_SCOPE, CHECKOUT_SCOPE, DEFAULT_SCOPES, PUBLIC_KEY_SCOPES, SCOPES } from './scopes.js';
import { STANDARD_SHIPPING_ID } from './shipping.js';
import { TOKEN_PREFIX, TOKEN_RANDOM_LENGTH } from './tokens.js';

/**
 * The sandbox resources of the contract, each with an `$id` equal to its
 * contract name: routes refer to them with `Type.Ref`, and `/openapi.json` lists them
 * under that name. "No additional properties" in the contract is
 * `additionalProperties: false` here, and the validator rejects (never strips) extras.
 */

export const MAX_QUANTITY = 99;
export const CART_ID_PATTERN = '^sandbox_cart_[0-9a-f]{24}$';
export const DEFAULT_CURRENCY = 'EUR';

const ScopeName = Type.Enum([...SCOPES], { description: 'A sandbox scope.' });
/** A variant id as a request names it; `description` says what it is for. */
export const VARIANT_ID_MAX_LENGTH = 128;
export const variantId = (description = 'A variant id from the catalog (`variants[].id`).') =>
  Type.String({ minLength: 1, maxLength: VARIANT_ID_MAX_LENGTH, description });
/** An idempotency key, in a header (REST) or an argument (MCP); `description` says how it is honoured there. */
export const idempotencyKey = (description: string) => Type.String({ minLength: 1, maxLength: 255, description });
const Quantity = Type.Integer({ minimum: 1, maximum: MAX_QUANTITY });
const ShippingOptionId = Type.Literal(STANDARD_SHIPPING_ID, { description: 'The only shipping option of the sandbox.' });

export const SandboxKeyRequest = Type.Object(
  {
    scopes: Type.Optional(
      Type.Array(ScopeName, {
        maxItems: SCOPES.length,
        uniqueItems: true,
        description: `Scopes to grant: at most ${SCOPES.length}, unique, known (else 400). Omitted or empty: ${DEFAULT_SCOPES.join(', ')}.`,
      }),
    ),
  },
  { $id: 'SandboxKeyRequest', additionalProperties: false },
);

export const SandboxKeyResponse = Type.Object(
  {
    environment: Type.Literal('sandbox'),
    token_type: Type.Literal('Bearer'),
    access_token: Type.String({
      pattern: `^${TOKEN_PREFIX}`,
      description: `\`${TOKEN_PREFIX}\` followed by ${TOKEN_RANDOM_LENGTH} random base62 characters. Shown once: only its SHA-256 hash is stored.`,
    }),
    expires_at: Type.String({
      format: 'date-time',
      description: `${KEY_LIFETIME_HOURS} hours after creation. Carts made with the key expire with it.`,
    }),
    scopes: Type.Array(ScopeName, { description: 'The granted scopes.' }),
    available_scopes: Type.Array(ScopeName),
  },
  { $id: 'SandboxKeyResponse' },
);

/** How the sandbox docs name a cart opened for a market, whose answers say more than the contract's. */
const MARKET_CART = 'A cart opened with `country` or `locale` answers as SandboxMarketCart';

export const SandboxCartRequest = Type.Object(
  {
    currency: Type.Optional(
      Type.String({
        pattern: '^[A-Z]{3}$',
        // No `default`: it depends on `country`, and generated clients would send a fixed one.
        examples: [DEFAULT_CURRENCY],
        description: `The cart currency (ISO 4217): default the currency of \`country\`'s region when \`country\` is given, else ${DEFAULT_CURRENCY}. It must be sold by a catalog region and have a configured sandbox shipping amount, and with \`country\` be the currency of that country's region, else 400.`,
      }),
    ),
    country: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z]{2}$',
        examples: [DEFAULT_COUNTRY],
        description: `The shopper's country (ISO 3166-1 alpha-2, case-insensitive, echoed upper-case in \`market\`): the cart is priced in the market of the region serving it, as the catalog shows that \`country\`, until a shipping address moves it (see SandboxAddress). A country no catalog region serves is 400. ${MARKET_CART}.`,
      }),
    ),
    locale: Type.Optional(
      Type.Enum([...LOCALES], {
        type: 'string',
        description: `The language of the lines' titles, ${LOCALES.join(' or ')} (default ${DEFAULT_LOCALE}), falling back to ${DEFAULT_LOCALE} where a product has no translation, as in the catalog. ${MARKET_CART}.`,
      }),
    ),
  },
  { $id: 'SandboxCartRequest', additionalProperties: false },
);

export const SandboxItemRequest = Type.Object(
  { variant_id: variantId(), quantity: Quantity },
  { $id: 'SandboxItemRequest', additionalProperties: false },
);

export const SandboxItemQuantityRequest = Type.Object(
  {
    quantity: Type.Integer({
      minimum: 0,
      maximum: MAX_QUANTITY,
      description: `The line's new quantity, 0 to ${MAX_QUANTITY}; 0 removes the line.`,
    }),
  },
  { $id: 'SandboxItemQuantityRequest', additionalProperties: false },
);

export const SandboxAddress = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 256 }),
    line_one: Type.String({ minLength: 1, maxLength: 120 }),
    line_two: Type.Optional(Type.String({ maxLength: 120 })),
    city: Type.String({ minLength: 1, maxLength: 80 }),
    state: Type.Optional(Type.String({ maxLength: 80 })),
    country: Type.String({
      pattern: '^[A-Za-z]{2}$',
      description: 'ISO 3166-1 alpha-2, case-insensitive on input, stored upper-case.',
    }),
    postal_code: Type.String({ minLength: 1, maxLength: 20 }),
    phone_number: Type.Optional(Type.String({ maxLength: 40 })),
  },
  {
    $id: 'SandboxAddress',
    additionalProperties: false,
    description:
      "A simulated shipping address. When a catalog region serves its country and sells in the cart's currency, that region becomes the cart's market (its region-specific prices apply). Any other country is accepted too, and leaves the cart in the market it was opened for.",
  },
);

export const SandboxShippingOptionRequest = Type.Object(
  { shipping_option_id: ShippingOptionId },
  { $id: 'SandboxShippingOptionRequest', additionalProperties: false },
);

export const SandboxEmptyRequest = Type.Object({}, { $id: 'SandboxEmptyRequest', additionalProperties: false });

/**
 * The contract's body is a `oneOf` discriminated by `action`, which Ajv (option
 * `discriminator`) validates by looking at `action` first, so a wrong action gets one
 * clear error. Each branch is a named component: a discriminator can only select
 * branches by reference (the document's `mapping` is derived from their `action`).
 */
const closed = ($id: string, description: string) => ({ $id, additionalProperties: false, description });
const actionBranches = [
  Type.Object(
    { action: Type.Literal('add_item'), variant_id: variantId(), quantity: Quantity },
    closed('SandboxAddItemAction', `Same as POST /sandbox/v1/carts/{id}/items (needs ${CART_SCOPE}).`),
  ),
  Type.Object(
    { action: Type.Literal('set_shipping_address'), address: Type.Ref('SandboxAddress') },
    closed('SandboxSetShippingAddressAction', `Same as POST /sandbox/v1/carts/{id}/shipping-address (needs ${CART_SCOPE}).`),
  ),
  Type.Object(
    { action: Type.Literal('select_shipping_option'), shipping_option_id: ShippingOptionId },
    closed('SandboxSelectShippingOptionAction', `Same as POST /sandbox/v1/carts/{id}/shipping-option (needs ${CART_SCOPE}).`),
  ),
  Type.Object(
    { action: Type.Literal('checkout_link') },
    closed('SandboxCheckoutLinkAction', `Same as POST /sandbox/v1/carts/{id}/checkout (needs ${CHECKOUT_SCOPE}).`),
  ),
];
export type SandboxAction = Static<(typeof actionBranches)[number]>;

export const SandboxActionRequest = Type.Unsafe<SandboxAction>({
  $id: 'SandboxActionRequest',
  description: 'Body of the deprecated compatibility route: exactly one of four actions, discriminated by `action`.',
  // Ajv applies a discriminator to objects only; without this an array would pass.
  type: 'object',
  // TypeBox does not type the `$id` an object schema was given.
  oneOf: actionBranches.map((branch) => Type.Ref((branch as unknown as { $id: string }).$id)),
  discriminator: { propertyName: 'action' },
});

export const SandboxCartItem = Type.Object(
  {
    variant_id: Type.String(),
    quantity: Quantity,
    unit_price: Type.Number({
      minimum: 0,
      description: "Major units, from the live catalog price in the cart's market at the time of this response (raised on a cart that rehearsed the price_changed scenario); never stored.",
    }),
  },
  { $id: 'SandboxCartItem' },
);

export const SandboxShippingOption = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    amount: Type.Number({ description: "Major units; the amount configured for the cart's currency." }),
    currency: Type.String(),
  },
  { $id: 'SandboxShippingOption' },
);

const MajorAmount = Type.Number({ minimum: 0 });

export const SandboxCart = Type.Object(
  {
    id: Type.String({ pattern: CART_ID_PATTERN }),
    environment: Type.Literal('sandbox'),
    simulated: Type.Literal(true),
    currency: Type.String({ pattern: '^[A-Z]{3}$' }),
    items: Type.Array(Type.Ref('SandboxCartItem')),
    shipping_address: Type.Optional(Type.Ref('SandboxAddress')),
    shipping_option: Type.Optional(Type.Ref('SandboxShippingOption')),
    totals: Type.Object(
      { item_total: MajorAmount, shipping_total: MajorAmount, grand_total: MajorAmount },
      { description: 'Computed in integer minor units and served in major units, so three items at 0.10 total exactly 0.3.' },
    ),
    status: Type.Optional(Type.Literal('ready_for_checkout', { description: 'Only on a successful checkout answer.' })),
    // A string type too, though the sandbox only ever sends null: generators drop a property that can only be null.
    checkout_url: Type.Optional(
      Type.Union([Type.String({ format: 'uri' }), Type.Null()], {
        description:
          'Only on a checkout answer (POST /sandbox/v1/carts/{id}/checkout, or checkout_link on the compatibility route), and then always null: nothing real is paid in the sandbox. Typed as a URI or null because a production checkout is to give the payment page here.',
      }),
    ),
  },
  {
    $id: 'SandboxCart',
    description: `A simulated cart. Its market is the region of its shipping address's country when that region sells in the cart's currency; else the region of the country it was opened for (\`country\`); else its currency's region (the region of ${DEFAULT_COUNTRY} when it sells the currency). Unit prices and totals are recalculated from the live catalog on every read and change; a line whose variant stops being purchasable or priced in the market is left out, and removed for good by the next change to the cart. ${MARKET_CART}: the same fields, plus the market and what each line is.`,
  },
);

const nullableText = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

export const SandboxMarketCartItem = Type.Object(
  {
    ...SandboxCartItem.properties,
    product_handle: Type.String({ description: "The product's handle, as in /public/v1/products/{handle}." }),
    title: Type.String({ description: `The product's title in the cart's locale, falling back to ${DEFAULT_LOCALE}.` }),
    variant_display_name: nullableText("The variant's option values in option order, as the catalog's `display_name`; null when the product has no options."),
    thumbnail: nullableText("The product's image address; null when there is none."),
    line_total: Type.Number({ minimum: 0, description: 'unit_price × quantity, computed in integer minor units and served in major units.' }),
  },
  { $id: 'SandboxMarketCartItem', description: 'A line of a SandboxMarketCart: a SandboxCartItem that also says what it is, so it can be shown as it is.' },
);

export const SandboxMarketCart = Type.Object(
  {
    ...SandboxCart.properties,
    items: Type.Array(Type.Ref('SandboxMarketCartItem')),
    market: Type.Union([Type.Ref('MarketContext'), Type.Null()], {
      description:
        "The market pricing the cart now, in the shape of the catalog's `context`: the cart's locale, its currency, and the country and region that set its prices (the shipping address's once it moves the cart). Null when no region sells the cart's currency any more.",
    }),
  },
  {
    $id: 'SandboxMarketCart',
    description: 'A SandboxCart opened for a market (`country` or `locale` on creation): every answer about it says which market prices it, and what each line is.',
  },
);

/** What the cart routes and tools answer: a SandboxCart, which is a SandboxMarketCart for a cart opened for a market. */
export const SandboxCartAnswer = Type.Union([Type.Ref('SandboxCart'), Type.Ref('SandboxMarketCart')], {
  // An object either way; the MCP SDK would wrap a result whose schema does not say so at its root.
  type: 'object',
});

export const SandboxShippingOptions = Type.Object(
  {
    environment: Type.Literal('sandbox'),
    simulated: Type.Literal(true),
    options: Type.Array(Type.Ref('SandboxShippingOption')),
  },
  { $id: 'SandboxShippingOptions' },
);

export const SandboxError = Type.Object(
  {
    error: Type.Enum([...SANDBOX_ERROR_CODES]),
    message: Type.String(),
    scope: Type.Optional(ScopeName),
    retry_after: Type.Optional(Type.Integer({ description: 'Seconds; same as the Retry-After header.' })),
  },
  {
    $id: 'SandboxError',
    description:
      'Sandbox error. sandbox_unauthorized (401: no, malformed, unknown or expired key), sandbox_insufficient_scope (401 on explicit cart routes, 403 on checkout and the compatibility route; `scope` names the missing scope), sandbox_invalid_request (400), sandbox_not_found (404: unknown cart or another key\'s cart; or, setting a quantity, a variant that is not in the cart), sandbox_variant_not_purchasable (422), sandbox_cart_incomplete (422), sandbox_idempotency_mismatch (422), sandbox_rate_limited (429), sandbox_disabled (503), sandbox_unavailable (503: the store is unreachable; retry after `retry_after` seconds), sandbox_internal_error (500). Bodies never contain stack traces or SQL.',
  },
);

export const SandboxDiscovery = Type.Object(
  {
    environment: Type.Literal('sandbox'),
    status: Type.Literal('available'),
    simulated: Type.Literal(true),
    free: Type.Literal(true),
    key_issuance: Type.Object(
      {
        endpoint: Type.String({ format: 'uri' }),
        method: Type.Literal('POST'),
        lifetime_seconds: Type.Integer({ description: `Keys expire this long after creation (${KEY_LIFETIME_HOURS} h).` }),
        default_scopes: Type.Array(ScopeName, { description: 'Granted when the request names no scope.' }),
        rate_limit: Type.Union(
          [
            Type.Object({
              limit: Type.Integer(),
              window_seconds: Type.Integer(),
              per: Type.Literal('client_ip'),
            }),
            Type.Null(),
          ],
          { description: 'Key issuance limit; null when switched off.' },
        ),
        public_key: Type.Object(
          {
            access_token: Type.String({ description: 'A shared, well-known key; never stored in the database.' }),
            scopes: Type.Array(ScopeName),
          },
          { description: `The shared public sandbox key: ${PUBLIC_KEY_SCOPES.join(', ')} only, it cannot create or change carts.` },
        ),
      },
      { description: 'How to obtain a sandbox key.' },
    ),
    available_scopes: Type.Array(ScopeName),
    openapi_url: Type.String({ format: 'uri' }),
    mcp_url: Type.String({ format: 'uri' }),
    scenarios: Type.Array(Type.Object({ name: Type.Enum([...SCENARIOS]), description: Type.String() }), {
      description: `Failures a client can ask for on purpose, to rehearse its recovery: send a name as the Sandbox-Scenario header of any cart route, or as the \`scenario\` argument of an MCP cart tool. Key issuance (POST /sandbox/v1/keys, create_sandbox_key) takes ${KEY_SCENARIOS.join(' and ')}. Any other value is 400 sandbox_invalid_request.`,
    }),
  },
  { $id: 'SandboxDiscovery' },
);

export type SandboxAddressInput = Static<typeof SandboxAddress>;
export type SandboxCartInput = Static<typeof SandboxCartRequest>;
export type SandboxItemInput = Static<typeof SandboxItemRequest>;
export type SandboxShippingOptionView = Static<typeof SandboxShippingOption>;
export type SandboxCartItemView = Static<typeof SandboxCartItem>;
export type SandboxMarketCartItemView = Static<typeof SandboxMarketCartItem>;

export const sandboxSchemas = [
  SandboxKeyRequest,
  SandboxKeyResponse,
  SandboxCartRequest,
  SandboxItemRequest,
  SandboxItemQuantityRequest,
  SandboxAddress,
  SandboxShippingOptionRequest,
  SandboxEmptyRequest,
  ...actionBranches,
  SandboxActionRequest,
  SandboxCartItem,
  SandboxShippingOption,
  SandboxCart,
  SandboxMarketCartItem,
  SandboxMarketCart,
  SandboxShippingOptions,
  SandboxError,
  SandboxDiscovery,
];
