import type { LiveCatalog } from '../catalog/read-model/live-catalog.js';
import type { Region } from '../catalog/read-model/product.js';
import { newId } from '../lib/new-id.js';
import type { Db } from '../store/database.js';
import { requireScopeOr403, type SandboxPrincipal } from './auth.js';
import { cartMarket, priceCart, sellability, type PricedCart, type UnsellableKind } from './cart-pricing.js';
import { deleteCart, findOwnedCart, insertCart, mergeLines, updateCart, type CartContents, type CartLine, type StoredCart } from './cart-store.js';
import { sandboxShippingOption, type CartRenderer, type SandboxCartView } from './cart-views.js';
import type { Clock } from './clock.js';
import { cartIncomplete, cartNotFound, invalidRequest, lineNotFound, variantNotPurchasable } from './errors.js';
import { openMarket } from './market-opening.js';
import { refuseIfNothingSellable, SandboxRefusalError } from './refusals.js';
import { failIfRehearsed, refuseIfOutOfStockRehearsed, rehearsedContents, type Scenario } from './scenarios.js';
import { CART_ID_PATTERN, MAX_QUANTITY, type SandboxAddressInput, type SandboxCartInput, type SandboxItemInput, type SandboxShippingOptionView } from './schemas.js';
import { CART_SCOPE, CHECKOUT_SCOPE } from './scopes.js';
import { shippingRatesFor, type ShippingRate } from './shipping.js';

export interface SandboxShippingOptionsView {
  environment: 'sandbox';
  simulated: true;
  options: SandboxShippingOptionView[];
}

export interface CartServiceDeps<V> {
  db: Db;
  clock: Clock;
  /** The catalog as served now; each pricing reads it in one synchronous pass, so a priced cart reflects one state of it. */
  catalog: () => LiveCatalog;
  /** Minor units per currency (docs/decisions.md, Shipping). */
  shippingAmounts: Record<string, number>;
  /** Cart calls per key per minute (0: no limit), as a rehearsed rate_limited states it. */
  cartRateLimit: number;
  /** What the operations answer: the REST contract's cart, or the protocol adapters' (cart-views.ts). */
  render: CartRenderer<V>;
}

/** A line a change of many lines at once did not take, and why: the cart holds only lines it can sell. */
export interface RefusedLine extends CartLine {
  problem: UnsellableKind;
}

/** The answer to a change of many lines at once: the cart, and the lines it did not take. */
export interface CartLinesChange<V> {
  cart: V;
  refused: RefusedLine[];
}

const CART_ID = new RegExp(CART_ID_PATTERN);
/** Concurrent changes to one cart retry; this many lost races in a row means something is wrong. */
const MAX_WRITE_ATTEMPTS = 50;

type CartChange = (contents: CartContents, priced: PricedCart, catalog: LiveCatalog) => CartContents;

/**
 * The sandbox cart operations, shared by the REST routes and the MCP tools, and by the
 * protocol adapters with a renderer of their own. Callers pass the authenticated
 * principal and input already bounded by their schemas; this enforces scopes (403),
 * ownership (404), the scenario the call rehearses and the rules between values.
 */
export class SandboxCartService<V extends object = SandboxCartView> {
  constructor(
    private readonly deps: CartServiceDeps<V>,
    private readonly scenario?: Scenario,
  ) {}

  /** The operations for a call that asked for `scenario` (docs/decisions.md, Scenarios). */
  withScenario(scenario: Scenario | undefined): SandboxCartService<V> {
    return scenario === undefined ? this : new SandboxCartService(this.deps, scenario);
  }

  async createCart(principal: SandboxPrincipal, input: SandboxCartInput = {}): Promise<V> {
    return (await this.openCart(principal, input, [])).cart;
  }

  /**
   * A new cart holding `items` at once (a protocol's create with lines): lines naming the
   * same variant are added up, and those the cart's market cannot sell now are refused
   * and listed, as replaceItems does. With `requireSellableLine`, items none of which can
   * be sold make no cart: `nothing_sellable`, before anything is written.
   */
  async openCart(
    principal: SandboxPrincipal,
    input: SandboxCartInput,
    items: readonly SandboxItemInput[],
    { requireSellableLine = false } = {},
  ): Promise<CartLinesChange<V>> {
    requireScopeOr403(principal, CART_SCOPE);
    failIfRehearsed(this.scenario, this.deps.cartRateLimit);
    const catalog = this.deps.catalog();
    const { currency, openedFor } = this.openedMarket(catalog, input);
    const { lines, refused } = sellableLines(catalog, items, cartMarket(catalog, currency, [openedFor?.country])?.region);
    if (requireSellableLine) refuseIfNothingSellable('cart', [...lines, ...refused]);
    const contents = rehearsedContents<CartContents>(this.scenario, { ...(openedFor && { opened_for: openedFor }), items: lines });
    // Only stored keys can hold cart:write, so there is an expiry, and the cart shares it (docs/decisions.md, Keys).
    const cart = await insertCart(
      this.deps.db,
      { id: newId('sandbox_cart'), keyId: principal.keyId, currency, contents },
      this.deps.clock(),
      principal.expiresAt!,
    );
    return { cart: this.view(cart, catalog), refused };
  }

  async getCart(principal: SandboxPrincipal, cartId: string): Promise<V> {
    requireScopeOr403(principal, CART_SCOPE);
    return this.read(principal, cartId, (cart, catalog) => this.view(cart, catalog));
  }

  /** Adding a variant already in the cart adds to its quantity (docs/decisions.md, Cart market). */
  addItem(principal: SandboxPrincipal, cartId: string, item: SandboxItemInput): Promise<V> {
    return this.change(principal, cartId, (contents, priced, catalog) => {
      this.requirePurchasable(catalog, item.variant_id, priced.region);
      const current = contents.items.find((line) => line.variant_id === item.variant_id);
      const quantity = (current?.quantity ?? 0) + item.quantity;
      if (quantity > MAX_QUANTITY) throw tooMany(item.variant_id, quantity);
      const items = current
        ? contents.items.map((line) => (line === current ? { ...line, quantity } : line))
        : [...contents.items, { variant_id: item.variant_id, quantity }];
      return { ...contents, items };
    });
  }

  /**
   * Replaces every line at once (a protocol's full update of a cart's lines): lines
   * naming the same variant are added up (at most MAX_QUANTITY, else 400), and those the
   * cart's market cannot sell now are left out and listed in `refused`.
   */
  async replaceItems(principal: SandboxPrincipal, cartId: string, items: readonly SandboxItemInput[]): Promise<CartLinesChange<V>> {
    let refused: RefusedLine[] = [];
    const cart = await this.change(principal, cartId, (contents, priced, catalog) => {
      const sellable = sellableLines(catalog, items, priced.region);
      refused = sellable.refused;
      return { ...contents, items: sellable.lines };
    });
    return { cart, refused };
  }

  /**
   * docs/decisions.md, Setting a quantity: a positive quantity is checked as an addition is
   * (422), then the variant must be a line of the cart (404); 0 removes the line.
   */
  setItemQuantity(principal: SandboxPrincipal, cartId: string, variantId: string, quantity: number): Promise<V> {
    return this.change(principal, cartId, (contents, priced, catalog) => {
      if (quantity > 0) this.requirePurchasable(catalog, variantId, priced.region);
      if (!contents.items.some((line) => line.variant_id === variantId)) throw lineNotFound(cartId, variantId);
      const items =
        quantity === 0 ? withoutVariant(contents.items, variantId) : contents.items.map((line) => (line.variant_id === variantId ? { ...line, quantity } : line));
      return { ...contents, items };
    });
  }

  /** Removing a variant that is not in the cart changes nothing and is not an error (DELETE is idempotent). */
  removeItem(principal: SandboxPrincipal, cartId: string, variantId: string): Promise<V> {
    return this.change(principal, cartId, (contents) => ({ ...contents, items: withoutVariant(contents.items, variantId) }));
  }

  setShippingAddress(principal: SandboxPrincipal, cartId: string, address: SandboxAddressInput): Promise<V> {
    return this.change(principal, cartId, (contents) => ({
      ...contents,
      shipping_address: { ...address, country: address.country.toUpperCase() },
    }));
  }

  async listShippingOptions(principal: SandboxPrincipal, cartId: string): Promise<SandboxShippingOptionsView> {
    requireScopeOr403(principal, CART_SCOPE);
    return this.read(principal, cartId, (cart) => ({
      environment: 'sandbox',
      simulated: true,
      options: this.ratesFor(cart.currency).map(sandboxShippingOption),
    }));
  }

  selectShippingOption(principal: SandboxPrincipal, cartId: string, optionId: string): Promise<V> {
    return this.change(principal, cartId, (contents, priced) => {
      if (!priced.rates.some((rate) => rate.id === optionId)) {
        throw invalidRequest(`Shipping option ${optionId} is not offered in this cart's currency.`);
      }
      return { ...contents, shipping_option_id: optionId };
    });
  }

  /** docs/decisions.md, Checkout: a simulated checkout; nothing is created anywhere, and the cart stays as it is. */
  async checkout(principal: SandboxPrincipal, cartId: string): Promise<V & { status: 'ready_for_checkout'; checkout_url: null }> {
    requireScopeOr403(principal, CHECKOUT_SCOPE);
    return this.read(principal, cartId, (cart, catalog) => {
      const priced = this.price(cart, catalog);
      const missing = [
        ...(priced.lines.length === 0 ? ['at least one item'] : []),
        ...(cart.contents.shipping_address ? [] : ['a shipping address']),
        ...(priced.shipping ? [] : ['a shipping option']),
      ];
      if (missing.length > 0) throw cartIncomplete(missing);
      return { ...this.deps.render(cart, priced, catalog), status: 'ready_for_checkout' as const, checkout_url: null };
    });
  }

  /**
   * Deletes the cart and answers it as it was (a protocol's cancel): later calls on it
   * are 404, as for a cart that never existed. A checkout session made from it keeps
   * its own copy of the lines.
   */
  async cancelCart(principal: SandboxPrincipal, cartId: string): Promise<V> {
    requireScopeOr403(principal, CART_SCOPE);
    return this.untilWritten(cartId, async () => {
      const { stored, cart } = await this.rehearsedCart(principal, cartId);
      const answered = this.view(cart, this.deps.catalog());
      return (await deleteCart(this.deps.db, stored)) ? answered : undefined;
    });
  }

  /** A variant a line may hold at a positive quantity (422 else), unless the call rehearses out_of_stock. */
  private requirePurchasable(catalog: LiveCatalog, variantId: string, region: Region | undefined): void {
    refuseIfOutOfStockRehearsed(this.scenario, variantId);
    const sale = sellability(catalog, variantId, region);
    if ('reason' in sale) throw variantNotPurchasable(sale.reason);
  }

  /** The market a new cart is opened for; a refusal is a sandbox_invalid_request in the refusal's words. */
  private openedMarket(catalog: LiveCatalog, input: SandboxCartInput) {
    try {
      return openMarket(catalog, input, this.deps.shippingAmounts);
    } catch (error) {
      if (error instanceof SandboxRefusalError) throw invalidRequest(error.message);
      throw error;
    }
  }

  private ratesFor(currency: string): ShippingRate[] {
    return shippingRatesFor(currency, this.deps.shippingAmounts);
  }

  private async ownedCart(principal: SandboxPrincipal, cartId: string): Promise<StoredCart> {
    const cart = CART_ID.test(cartId) ? await findOwnedCart(this.deps.db, cartId, principal.keyId, this.deps.clock()) : undefined;
    if (!cart) throw cartNotFound(cartId);
    return cart;
  }

  /**
   * The caller's cart as this call's scenario leaves it (docs/decisions.md, Scenarios).
   * After the ownership check, so a scenario cannot probe another key's carts, a
   * rehearsed failure throws; price_changed marks `cart`, which the call writes only if
   * it succeeds. `stored` is the cart as read, for that conditional write.
   */
  private async rehearsedCart(principal: SandboxPrincipal, cartId: string): Promise<{ stored: StoredCart; cart: StoredCart }> {
    const stored = await this.ownedCart(principal, cartId);
    failIfRehearsed(this.scenario, this.deps.cartRateLimit);
    const contents = rehearsedContents(this.scenario, stored.contents);
    return { stored, cart: contents === stored.contents ? stored : { ...stored, contents } };
  }

  private price(cart: StoredCart, catalog: LiveCatalog): PricedCart {
    return priceCart(catalog, cart.currency, cart.contents, this.ratesFor(cart.currency));
  }

  private view(cart: StoredCart, catalog: LiveCatalog): V {
    return this.deps.render(cart, this.price(cart, catalog), catalog);
  }

  /**
   * Read, change, write with optimistic concurrency: a write that lost a race re-reads
   * and re-applies, so concurrent changes to one cart all land. Lines no longer
   * sellable are dropped before the change applies.
   */
  private change(principal: SandboxPrincipal, cartId: string, apply: CartChange): Promise<V> {
    requireScopeOr403(principal, CART_SCOPE);
    return this.untilWritten(cartId, async () => {
      const { stored, cart } = await this.rehearsedCart(principal, cartId);
      const catalog = this.deps.catalog();
      const priced = this.price(cart, catalog);
      const live = { ...cart.contents, items: priced.lines.map(({ variant_id, quantity }) => ({ variant_id, quantity })) };
      const saved = await updateCart(this.deps.db, stored, apply(live, priced, catalog), this.deps.clock());
      return saved && this.view(saved, catalog);
    });
  }

  /**
   * A call that changes nothing, but for the mark of a price_changed scenario: that is
   * written only once `answer` succeeded, and a write that lost a race answers again.
   */
  private async read<T extends object>(principal: SandboxPrincipal, cartId: string, answer: (cart: StoredCart, catalog: LiveCatalog) => T): Promise<T> {
    return this.untilWritten(cartId, async () => {
      const { stored, cart } = await this.rehearsedCart(principal, cartId);
      const answered = answer(cart, this.deps.catalog());
      if (cart === stored) return answered;
      return (await updateCart(this.deps.db, stored, cart.contents, this.deps.clock())) && answered;
    });
  }

  /** Runs `attempt` again while it lost a race to another write of the cart (undefined). */
  private async untilWritten<T extends object>(cartId: string, attempt: () => Promise<T | undefined>): Promise<T> {
    for (let attempts = 1; ; attempts++) {
      const result = await attempt();
      if (result) return result;
      if (attempts === MAX_WRITE_ATTEMPTS) throw new Error(`Cart ${cartId} kept changing during ${MAX_WRITE_ATTEMPTS} attempts`);
    }
  }
}

/** 400 for a line above MAX_QUANTITY once lines of the same variant are added up. */
function tooMany(variantId: string, quantity: number) {
  return invalidRequest(`The cart would hold ${quantity} of variant ${variantId}; at most ${MAX_QUANTITY} per variant.`);
}

/** `items` as cart lines, one per variant (400 past MAX_QUANTITY), split into those the market sells now and the others. */
function sellableLines(catalog: LiveCatalog, items: readonly SandboxItemInput[], region: Region | undefined): { lines: CartLine[]; refused: RefusedLine[] } {
  const lines: CartLine[] = [];
  const refused: RefusedLine[] = [];
  for (const line of mergeLines(items)) {
    if (line.quantity > MAX_QUANTITY) throw tooMany(line.variant_id, line.quantity);
    const sale = sellability(catalog, line.variant_id, region);
    if ('problem' in sale) refused.push({ ...line, problem: sale.problem });
    else lines.push(line);
  }
  return { lines, refused };
}

function withoutVariant(items: CartLine[], variantId: string): CartLine[] {
  return items.filter((line) => line.variant_id !== variantId);
}
