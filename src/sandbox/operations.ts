import { DEFAULT_COUNTRY } from '../catalog/queries/market.js';
import type { SandboxConfig } from '../config.js';
import { IDEMPOTENCY_RETENTION_HOURS } from './idempotency.js';
import { KEY_LIFETIME_HOURS } from './keys.js';
import { cartLimitText, keyLimitText } from './rate-limits.js';
import { DEFAULT_CURRENCY, MAX_QUANTITY } from './schemas.js';
import { CART_SCOPE, CHECKOUT_SCOPE, DEFAULT_SCOPES, SCOPES, type Scope } from './scopes.js';
import { shippingAmountsText, shippingCurrenciesText, STANDARD_SHIPPING_ID, STANDARD_SHIPPING_TEXT } from './shipping.js';

/**
 * What an operation does, for the surfaces that say it (MCP tool annotations): `add`
 * changes the cart again on every call, `set` leaves it as the first call did, `remove`
 * may also take a line out.
 */
export type Effect = 'read' | 'create' | 'add' | 'set' | 'remove';

/**
 * One sandbox operation, described once: every surface (the REST routes, the MCP tools)
 * is an adapter that renders this in its own terms and adds only what is its own
 * (status codes and headers on REST, argument names on MCP).
 */
export interface SandboxOperation {
  /** Its name, and the name of its MCP tool. */
  name: string;
  /** REST summary and MCP title. */
  title: string;
  operationId: string;
  method: 'GET' | 'POST' | 'DELETE';
  /** The REST route under /sandbox; its parameters are the `targets` of the operation, in order. */
  route: string;
  /** The scope a key needs (none: anyone may call it). */
  scope?: Scope;
  /** docs/decisions.md, Scope per route: the status of a key lacking the scope (401 on the explicit routes, 403 for checkout). */
  scopeRefusal?: 401 | 403;
  /**
   * Whether a call takes an idempotency key: `required` where the contract demands one on
   * REST (MCP arguments stay optional, as released), `optional` where a retry may be made
   * safe with one. A key applies to the operation and its targets (the cart, and the line).
   */
  idempotency?: 'required' | 'optional';
  effect: Effect;
  /** The next step of the purchase flow, by operation name. */
  next?: string;
  /** What it does, in words both surfaces use; numbers from configuration rendered from it. */
  describe(config: SandboxConfig): string;
}

const operation = (spec: SandboxOperation) => spec;

const SIMULATED = 'Simulated: nothing real (order, payment, customer, stock reservation) is ever created.';

export const CREATE_KEY = operation({
  name: 'create_sandbox_key',
  title: 'Create a sandbox key',
  operationId: 'createSandboxKey',
  method: 'POST',
  route: '/v1/keys',
  effect: 'create',
  next: 'create_cart',
  describe: (config) =>
    `Issues a free sandbox key, no credentials needed (${keyLimitText(config)}). \`scopes\` may name at most ${SCOPES.length} unique known scopes (${SCOPES.join(', ')}); none named grants ${DEFAULT_SCOPES.join(', ')}. The key expires ${KEY_LIFETIME_HOURS} h after creation, and the carts made with it expire with it. Only a SHA-256 hash of the token is stored: it is shown once, so no idempotency key is honoured (a replay would need the token stored) and every call issues a new key. ${SIMULATED}`,
});

export const CREATE_CART = operation({
  name: 'create_cart',
  title: 'Create a sandbox cart',
  operationId: 'createSandboxCart',
  method: 'POST',
  route: '/v1/carts',
  scope: CART_SCOPE,
  idempotency: 'required',
  effect: 'create',
  next: 'add_to_cart',
  describe: ({ shippingAmounts }) =>
    `Opens an empty simulated cart in \`currency\` (default ${DEFAULT_CURRENCY}; ${shippingCurrenciesText(shippingAmounts)} as the catalog sells them), owned by the calling key and expiring with it; only that key can see it. Pass the country and locale the shopper searched the catalog with: the cart then has the prices the catalog shows for that country (currency defaults to its region's; another currency, or a country no region serves, is sandbox_invalid_request), and every answer adds \`market\` and, per line, product_handle, title (in locale), variant_display_name, thumbnail and line_total (a SandboxMarketCart, as is a cart opened with \`locale\` alone). Without country the market is the currency's region (the region of ${DEFAULT_COUNTRY} where it sells the currency).`,
});

export const GET_CART = operation({
  name: 'get_cart',
  title: 'Get a sandbox cart',
  operationId: 'getSandboxCart',
  method: 'GET',
  route: '/v1/carts/:id',
  scope: CART_SCOPE,
  effect: 'read',
  describe: () => 'The cart with unit prices and totals recalculated from the live catalog now (major units, computed exactly in minor units).',
});

export const ADD_ITEM = operation({
  name: 'add_to_cart',
  title: 'Add a variant to a sandbox cart',
  operationId: 'addSandboxCartItem',
  method: 'POST',
  route: '/v1/carts/:id/items',
  scope: CART_SCOPE,
  idempotency: 'optional',
  effect: 'add',
  next: 'set_shipping_address',
  describe: () =>
    `Adds \`quantity\` (1 to ${MAX_QUANTITY}) of a variant; adding a variant already in the cart adds to its quantity (at most ${MAX_QUANTITY} in all). Only a purchasable variant (in_stock or backorder) of a published product with a price in the cart's market can be added, else sandbox_variant_not_purchasable (unknown, draft, weighted, out of stock or unpriced).`,
});

export const SET_QUANTITY = operation({
  name: 'update_cart_item',
  title: "Set a line's quantity in a sandbox cart",
  operationId: 'setSandboxCartItemQuantity',
  method: 'POST',
  route: '/v1/carts/:id/items/:variant_id',
  scope: CART_SCOPE,
  idempotency: 'optional',
  // Quantity 0 removes the line.
  effect: 'remove',
  describe: () =>
    `Sets the quantity (0 to ${MAX_QUANTITY}) of a variant already in the cart; 0 removes its line. A positive quantity is checked as an addition is: only a purchasable variant priced in the cart's market, else sandbox_variant_not_purchasable. A variant that is not a line of the cart (as the cart answers it) is sandbox_not_found: add it first.`,
});

export const REMOVE_ITEM = operation({
  name: 'remove_from_cart',
  title: 'Remove a variant from a sandbox cart',
  operationId: 'removeSandboxCartItem',
  method: 'DELETE',
  route: '/v1/carts/:id/items',
  scope: CART_SCOPE,
  effect: 'remove',
  describe: () =>
    'Removes the variant and all its quantity. Removing a variant that is not in the cart is not an error: the cart is answered unchanged, so a retry succeeds like the first call.',
});

export const SET_ADDRESS = operation({
  name: 'set_shipping_address',
  title: 'Set the shipping address',
  operationId: 'setSandboxShippingAddress',
  method: 'POST',
  route: '/v1/carts/:id/shipping-address',
  scope: CART_SCOPE,
  idempotency: 'optional',
  effect: 'set',
  next: 'list_shipping_options',
  describe: () =>
    "Replaces the cart's simulated shipping address (name, line_one, city, country of two letters and postal_code required; line_two, state, phone_number optional). When a catalog region serves its country and sells in the cart's currency, that region becomes the cart's market, and its region-specific prices apply from this answer on. An address in any other country is accepted too, and the cart stays in the market it was opened for: its `country`'s region, or its currency's region (`market` of a SandboxMarketCart says which).",
});

export const LIST_SHIPPING = operation({
  name: 'list_shipping_options',
  title: 'List shipping options',
  operationId: 'listSandboxShippingOptions',
  method: 'GET',
  route: '/v1/carts/:id/shipping-options',
  scope: CART_SCOPE,
  effect: 'read',
  next: 'select_shipping_option',
  describe: ({ shippingAmounts }) =>
    `One simulated option, ${STANDARD_SHIPPING_TEXT}, at the amount configured for the cart's currency (${shippingAmountsText(shippingAmounts)} here). A currency whose amount was removed from the configuration after the cart was opened has no option.`,
});

export const SELECT_SHIPPING = operation({
  name: 'select_shipping_option',
  title: 'Select a shipping option',
  operationId: 'selectSandboxShippingOption',
  method: 'POST',
  route: '/v1/carts/:id/shipping-option',
  scope: CART_SCOPE,
  idempotency: 'optional',
  effect: 'set',
  next: 'checkout',
  describe: () => `Selects ${STANDARD_SHIPPING_TEXT}, the only option (\`shipping_option_id\` ${STANDARD_SHIPPING_ID}); its amount is added to the totals.`,
});

export const CHECKOUT = operation({
  name: 'checkout',
  title: 'Simulated checkout',
  operationId: 'checkoutSandboxCart',
  method: 'POST',
  route: '/v1/carts/:id/checkout',
  scope: CHECKOUT_SCOPE,
  scopeRefusal: 403,
  idempotency: 'required',
  effect: 'set',
  describe: () =>
    `A cart with at least one item, a shipping address and a selected shipping option answers \`status: ready_for_checkout\` and \`checkout_url: null\`; otherwise sandbox_cart_incomplete naming what is missing. ${SIMULATED} The cart stays as it is; real payment happens elsewhere in a future production flow.`,
});

/** Every sandbox operation, in the order of the purchase flow. */
export const SANDBOX_OPERATIONS: readonly SandboxOperation[] = [
  CREATE_KEY,
  CREATE_CART,
  GET_CART,
  ADD_ITEM,
  SET_QUANTITY,
  REMOVE_ITEM,
  SET_ADDRESS,
  LIST_SHIPPING,
  SELECT_SHIPPING,
  CHECKOUT,
];

/**
 * The purchase flow as its steps (each operation's `next`, from the key to checkout),
 * and the operations a client may call at any point along it.
 */
export function purchaseFlow(): { steps: SandboxOperation[]; anyTime: SandboxOperation[] } {
  const steps: SandboxOperation[] = [];
  for (let op: SandboxOperation | undefined = CREATE_KEY; op; op = SANDBOX_OPERATIONS.find((candidate) => candidate.name === op!.next)) steps.push(op);
  return { steps, anyTime: SANDBOX_OPERATIONS.filter((op) => !steps.includes(op)) };
}

/** The operations that act on a cart, and so need a key and count against the cart limit. */
export const CART_OPERATIONS = SANDBOX_OPERATIONS.filter((op) => op.scope !== undefined);

/** How a surface names what the idempotency rules speak of. */
export interface IdempotencyTerms {
  /** How its clients send the key: "Idempotency-Key", "idempotency_key". */
  key: string;
  /** Its input, as compared: "request body", "arguments". */
  input: string;
  /** The input of a reused key: "a different request body", "different arguments". */
  otherInput: string;
}

/** The message of sandbox_idempotency_mismatch, in the surface's terms. */
export function idempotencyMismatchMessage({ key, otherInput }: IdempotencyTerms): string {
  return `This ${key} was already used with ${otherInput}; send a new ${key} for a new call.`;
}

/**
 * The idempotency rules every surface honours, in its terms. A key applies to the
 * operation and its targets (the cart, and the line): a REST route with its parameters,
 * a tool with its cart_id (and variant_id).
 */
export function idempotencyRules({ key, input, otherInput }: IdempotencyTerms): string {
  return `${key} makes a call safe to retry: scoped to the sandbox key, the operation and the cart (and line) it acts on (for the shared public key also to the client IP), the first answer is stored for ${IDEMPOTENCY_RETENTION_HOURS} h and returned again for the same ${key} and ${input}; the same ${key} with ${otherInput} is sandbox_idempotency_mismatch; concurrent duplicates have exactly one effect. Invalid requests (sandbox_invalid_request) and the failures of a scenario are not stored.`;
}

/** Where an MCP tool's idempotency keys apply: the tool and its targets (REST routes are scoped by their path). */
export function toolIdempotencyPath(op: SandboxOperation, targets: readonly string[]): string {
  return ['tools', op.name, ...targets.map(encodeURIComponent)].join('/');
}

/** The cart limit every cart operation counts against, whatever the surface. */
export function cartLimitNote(config: SandboxConfig): string {
  return `Cart operations count against the cart limit of the key (${cartLimitText(config)}), REST routes and MCP tools together.`;
}
