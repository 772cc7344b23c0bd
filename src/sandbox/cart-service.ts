import { DEFAULT_LOCALE, type Locale } from '../catalog/model/locales.js';
import { textIn } from '../catalog/read-model/product.js';
import { marketContext, resolveMarket, type Market, type MarketContext } from '../catalog/queries/market.js';
import { CatalogReadError } from '../catalog/read-model/read-errors.js';
import { toMajorUnits } from '../catalog/read-model/pricing.js';
import type { LiveCatalog } from '../catalog/read-model/live-catalog.js';
import type { Region } from '../catalog/read-model/product.js';
import { variantDisplayName } from '../catalog/queries/render.js';
import { newId } from '../lib/new-id.js';
import type { Db } from '../store/database.js';
import { requireScopeOr403, type SandboxPrincipal } from './auth.js';
import { priceCart, sellability, type PricedCart, type PricedLine } from './cart-pricing.js';
import { findOwnedCart, insertCart, updateCart, type CartContents, type CartLine, type OpenedFor, type StoredCart } from './cart-store.js';
import type { Clock } from './clock.js';
import { cartIncomplete, cartNotFound, invalidRequest, lineNotFound, variantNotPurchasable } from './errors.js';
import { failIfRehearsed, refuseIfOutOfStockRehearsed, rehearsedContents, type Scenario } from './scenarios.js';
import {
  CART_ID_PATTERN,
  DEFAULT_CURRENCY,
  MAX_QUANTITY,
  type SandboxAddressInput,
  type SandboxCartInput,
  type SandboxCartItemView,
  type SandboxItemInput,
  type SandboxMarketCartItemView,
  type SandboxShippingOptionView,
} from './schemas.js';
import { CART_SCOPE, CHECKOUT_SCOPE } from './scopes.js';
import { shippingRatesFor, type ShippingRate } from './shipping.js';

export interface SandboxCartView {
  id: string;
  environment: 'sandbox';
  simulated: true;
  currency: string;
  /** Only for a cart opened for a market, whose lines are then SandboxMarketCartItems. */
  market?: MarketContext | null;
  items: SandboxCartItemView[] | SandboxMarketCartItemView[];
  shipping_address?: SandboxAddressInput;
  shipping_option?: SandboxShippingOptionView;
  totals: { item_total: number; shipping_total: number; grand_total: number };
  status?: 'ready_for_checkout';
  checkout_url?: null;
}

export interface SandboxShippingOptionsView {
  environment: 'sandbox';
  simulated: true;
  options: SandboxShippingOptionView[];
}

export interface CartServiceDeps {
  db: Db;
  clock: Clock;
  /** The catalog as served now; each pricing reads it in one synchronous pass, so a priced cart reflects one state of it. */
  catalog: () => LiveCatalog;
  /** Minor units per currency (docs/decisions.md, Shipping). */
  shippingAmounts: Record<string, number>;
  /** Cart calls per key per minute (0: no limit), as a rehearsed rate_limited states it. */
  cartRateLimit: number;
}

const CART_ID = new RegExp(CART_ID_PATTERN);
/** Concurrent changes to one cart retry; this many lost races in a row means something is wrong. */
const MAX_WRITE_ATTEMPTS = 50;

type CartChange = (contents: CartContents, priced: PricedCart, catalog: LiveCatalog) => CartContents;

/**
 * The sandbox cart operations, shared by the REST routes and the MCP tools. Callers
 * pass the authenticated principal and input already bounded by their schemas; this
 * enforces scopes (403), ownership (404), the scenario the call rehearses and the rules
 * between values.
 */
export class SandboxCartService {
  constructor(
    private readonly deps: CartServiceDeps,
    private readonly scenario?: Scenario,
  ) {}

  /** The operations for a call that asked for `scenario` (docs/decisions.md, Scenarios). */
  withScenario(scenario: Scenario | undefined): SandboxCartService {
    return scenario === undefined ? this : new SandboxCartService(this.deps, scenario);
  }

  async createCart(principal: SandboxPrincipal, input: SandboxCartInput = {}): Promise<SandboxCartView> {
    requireScopeOr403(principal, CART_SCOPE);
    failIfRehearsed(this.scenario, this.deps.cartRateLimit);
    const catalog = this.deps.catalog();
    const country = input.country?.toUpperCase();
    // docs/decisions.md, Cart market: a country resolves as in the catalog, so the cart is in the market the shopper saw.
    const currency = country === undefined ? (input.currency ?? DEFAULT_CURRENCY) : catalogMarket(catalog, country, input.currency).currency;
    const supported = this.supportedCurrencies(catalog);
    if (!supported.includes(currency)) {
      const whose = country === undefined ? '' : ` (the currency of country ${country})`;
      throw invalidRequest(`The sandbox sells in ${supported.join(', ')}; ${currency}${whose} is not one of them.`);
    }
    const { locale } = input;
    const openedFor: OpenedFor | undefined =
      country === undefined && locale === undefined ? undefined : { ...(country && { country }), ...(locale && { locale }) };
    const now = this.deps.clock();
    // Only stored keys can hold cart:write, so there is an expiry, and the cart shares it (docs/decisions.md, Keys).
    const cart = await insertCart(
      this.deps.db,
      {
        id: newId('sandbox_cart'),
        keyId: principal.keyId,
        currency,
        contents: rehearsedContents<CartContents>(this.scenario, { ...(openedFor && { opened_for: openedFor }), items: [] }),
      },
      now,
      principal.expiresAt!,
    );
    return this.view(cart, catalog);
  }

  async getCart(principal: SandboxPrincipal, cartId: string): Promise<SandboxCartView> {
    requireScopeOr403(principal, CART_SCOPE);
    return this.read(principal, cartId, (cart, catalog) => this.view(cart, catalog));
  }

  /** Adding a variant already in the cart adds to its quantity (docs/decisions.md, Cart market). */
  addItem(principal: SandboxPrincipal, cartId: string, item: SandboxItemInput): Promise<SandboxCartView> {
    return this.change(principal, cartId, (contents, priced, catalog) => {
      this.requirePurchasable(catalog, item.variant_id, priced.region);
      const current = contents.items.find((line) => line.variant_id === item.variant_id);
      const quantity = (current?.quantity ?? 0) + item.quantity;
      if (quantity > MAX_QUANTITY) {
        throw invalidRequest(`The cart would hold ${quantity} of variant ${item.variant_id}; at most ${MAX_QUANTITY} per variant.`);
      }
      const items = current
        ? contents.items.map((line) => (line === current ? { ...line, quantity } : line))
        : [...contents.items, { variant_id: item.variant_id, quantity }];
      return { ...contents, items };
    });
  }

  /**
   * docs/decisions.md, Setting a quantity: a positive quantity is checked as an addition is
   * (422), then the variant must be a line of the cart (404); 0 removes the line.
   */
  setItemQuantity(principal: SandboxPrincipal, cartId: string, variantId: string, quantity: number): Promise<SandboxCartView> {
    return this.change(principal, cartId, (contents, priced, catalog) => {
      if (quantity > 0) this.requirePurchasable(catalog, variantId, priced.region);
      if (!contents.items.some((line) => line.variant_id === variantId)) throw lineNotFound(cartId, variantId);
      const items =
        quantity === 0 ? withoutVariant(contents.items, variantId) : contents.items.map((line) => (line.variant_id === variantId ? { ...line, quantity } : line));
      return { ...contents, items };
    });
  }

  /** Removing a variant that is not in the cart changes nothing and is not an error (DELETE is idempotent). */
  removeItem(principal: SandboxPrincipal, cartId: string, variantId: string): Promise<SandboxCartView> {
    return this.change(principal, cartId, (contents) => ({ ...contents, items: withoutVariant(contents.items, variantId) }));
  }

  setShippingAddress(principal: SandboxPrincipal, cartId: string, address: SandboxAddressInput): Promise<SandboxCartView> {
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
      options: this.ratesFor(cart.currency).map(renderRate),
    }));
  }

  selectShippingOption(principal: SandboxPrincipal, cartId: string, optionId: string): Promise<SandboxCartView> {
    return this.change(principal, cartId, (contents, priced) => {
      if (!priced.rates.some((rate) => rate.id === optionId)) {
        throw invalidRequest(`Shipping option ${optionId} is not offered in this cart's currency.`);
      }
      return { ...contents, shipping_option_id: optionId };
    });
  }

  /** docs/decisions.md, Checkout: a simulated checkout; nothing is created anywhere, and the cart stays as it is. */
  async checkout(principal: SandboxPrincipal, cartId: string): Promise<SandboxCartView> {
    requireScopeOr403(principal, CHECKOUT_SCOPE);
    return this.read(principal, cartId, (cart, catalog) => {
      const priced = this.price(cart, catalog);
      const missing = [
        ...(priced.lines.length === 0 ? ['at least one item'] : []),
        ...(cart.contents.shipping_address ? [] : ['a shipping address']),
        ...(priced.shipping ? [] : ['a shipping option']),
      ];
      if (missing.length > 0) throw cartIncomplete(missing);
      return { ...render(cart, priced, catalog), status: 'ready_for_checkout' as const, checkout_url: null };
    });
  }

  /** A variant a line may hold at a positive quantity (422 else), unless the call rehearses out_of_stock. */
  private requirePurchasable(catalog: LiveCatalog, variantId: string, region: Region | undefined): void {
    refuseIfOutOfStockRehearsed(this.scenario, variantId);
    const sale = sellability(catalog, variantId, region);
    if ('reason' in sale) throw variantNotPurchasable(sale.reason);
  }

  /** Currencies a cart can be opened in: sold by a region and with a shipping amount. */
  private supportedCurrencies(catalog: LiveCatalog): string[] {
    // A region an import left without countries is no market (cartMarket skips it too).
    const currencies = new Set([...catalog.regionByCountry.values()].map((region) => region.currency));
    return [...currencies].filter((currency) => this.ratesFor(currency).length > 0);
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

  private view(cart: StoredCart, catalog: LiveCatalog): SandboxCartView {
    return render(cart, this.price(cart, catalog), catalog);
  }

  /**
   * Read, change, write with optimistic concurrency: a write that lost a race re-reads
   * and re-applies, so concurrent changes to one cart all land. Lines no longer
   * sellable are dropped before the change applies.
   */
  private change(principal: SandboxPrincipal, cartId: string, apply: CartChange): Promise<SandboxCartView> {
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

/** The market a country resolves to in the catalog; a refusal is a sandbox_invalid_request naming the field and what it accepts. */
function catalogMarket(catalog: LiveCatalog, country: string, currency: string | undefined): Market {
  try {
    return resolveMarket(catalog, { country, currency });
  } catch (error) {
    if (error instanceof CatalogReadError && error.refusal.kind === 'invalid_market') {
      // The cart passes no locale here, so the refusal names the country or the currency.
      const { parameter, accepted } = error.refusal;
      const hint = parameter === 'currency' ? `Omit currency, or send ${accepted.join(' or ')}.` : `Served countries: ${accepted.join(', ')}.`;
      throw invalidRequest(`${error.message} ${hint}`);
    }
    throw error;
  }
}

function withoutVariant(items: CartLine[], variantId: string): CartLine[] {
  return items.filter((line) => line.variant_id !== variantId);
}

/** Renders the cart priced from `catalog`, in the same synchronous pass as the pricing. */
function render(cart: StoredCart, priced: PricedCart, catalog: LiveCatalog): SandboxCartView {
  const major = (minor: number) => toMajorUnits(minor, cart.currency);
  const { shipping_address, opened_for } = cart.contents;
  const line = ({ variant_id, quantity, unitPrice }: PricedLine): SandboxCartItemView => ({ variant_id, quantity, unit_price: major(unitPrice) });
  const locale = opened_for?.locale ?? DEFAULT_LOCALE;
  return {
    id: cart.id,
    environment: 'sandbox',
    simulated: true,
    currency: cart.currency,
    ...(opened_for && { market: pricingMarket(priced, cart.currency, locale) }),
    items: opened_for
      ? priced.lines.map((item) => ({
          ...line(item),
          ...describeLine(catalog, item.variant_id, locale),
          line_total: major(item.unitPrice * item.quantity),
        }))
      : priced.lines.map(line),
    ...(shipping_address && { shipping_address }),
    ...(priced.shipping && { shipping_option: renderRate(priced.shipping) }),
    totals: {
      item_total: major(priced.itemTotal),
      shipping_total: major(priced.shippingTotal),
      grand_total: major(priced.itemTotal + priced.shippingTotal),
    },
  };
}

/** The market pricing a cart, in the shape the catalog echoes its own; null when no region sells the cart's currency any more. */
function pricingMarket({ region, country }: PricedCart, currency: string, locale: Locale): MarketContext | null {
  return region && country !== undefined ? marketContext({ locale, country, currency, region }) : null;
}

/** docs/decisions.md, Cart market: what a line of a cart opened for a market is, as the catalog shows it in the cart's locale. */
function describeLine(catalog: LiveCatalog, variantId: string, locale: Locale) {
  // The line was priced from this catalog in this synchronous pass, so its variant and product are there.
  const variant = catalog.variantById.get(variantId)!;
  const product = catalog.productById.get(variant.productId)!;
  return {
    product_handle: product.handle,
    title: textIn(product, locale).title,
    variant_display_name: variantDisplayName(variant),
    thumbnail: product.thumbnail,
  };
}

function renderRate(rate: ShippingRate): SandboxShippingOptionView {
  return { id: rate.id, name: rate.name, amount: toMajorUnits(rate.amount, rate.currency), currency: rate.currency };
}
