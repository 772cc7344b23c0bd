import type { MarketContext } from '../catalog/queries/market.js';
import type { LiveCatalog } from '../catalog/read-model/live-catalog.js';
import { toMajorUnits } from '../catalog/read-model/pricing.js';
import type { PricedCart, PricedLine } from './cart-pricing.js';
import type { StoredCart } from './cart-store.js';
import { describeVariant, localeOf, pricedParts, pricingMarket, soldLine, type PricedParts, type SoldLineView } from './line-views.js';
import type { SandboxAddressInput, SandboxCartItemView, SandboxMarketCartItemView, SandboxShippingOptionView } from './schemas.js';
import type { ShippingRate } from './shipping.js';

/** How a cart service answers: the cart priced from `catalog`, rendered in the same synchronous pass as the pricing. */
export type CartRenderer<V> = (cart: StoredCart, priced: PricedCart, catalog: LiveCatalog) => V;

/** The cart as the sandbox's REST routes and MCP tools answer it: the contract's SandboxCart, amounts in major units. */
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

export const sandboxCartView: CartRenderer<SandboxCartView> = (cart, priced, catalog) => {
  const major = (minor: number) => toMajorUnits(minor, cart.currency);
  const { shipping_address, opened_for } = cart.contents;
  const line = ({ variant_id, quantity, unitPrice }: PricedLine): SandboxCartItemView => ({ variant_id, quantity, unit_price: major(unitPrice) });
  const locale = localeOf(opened_for);
  return {
    id: cart.id,
    environment: 'sandbox',
    simulated: true,
    currency: cart.currency,
    ...(opened_for && { market: pricingMarket(priced, cart.currency, locale) }),
    // docs/decisions.md, Cart market: a line of a cart opened for a market says what it is, as the catalog shows it in the cart's locale.
    items: opened_for
      ? priced.lines.map((item) => {
          // The line was priced from this catalog in this synchronous pass, so its variant is there.
          const { product_handle, title, variant_display_name, image_url } = describeVariant(catalog, item.variant_id, locale)!;
          return { ...line(item), product_handle, title, variant_display_name, thumbnail: image_url, line_total: major(item.unitPrice * item.quantity) };
        })
      : priced.lines.map(line),
    ...(shipping_address && { shipping_address }),
    ...(priced.shipping && { shipping_option: sandboxShippingOption(priced.shipping) }),
    totals: {
      item_total: major(priced.itemTotal),
      shipping_total: major(priced.shippingTotal),
      grand_total: major(priced.itemTotal + priced.shippingTotal),
    },
  };
};

export function sandboxShippingOption(rate: ShippingRate): SandboxShippingOptionView {
  return { id: rate.id, name: rate.name, amount: toMajorUnits(rate.amount, rate.currency), currency: rate.currency };
}

/**
 * The cart as protocol adapters (UCP's carts) render it: amounts in minor units, the
 * market always, and every line with what it is. Like every cart answer it holds only
 * the lines that can be bought now (docs/decisions.md, Cart market).
 */
export interface ProtocolCartView extends PricedParts {
  id: string;
  environment: 'sandbox';
  simulated: true;
  currency: string;
  lines: SoldLineView[];
  shipping_address?: SandboxAddressInput;
}

export const protocolCartView: CartRenderer<ProtocolCartView> = (cart, priced, catalog) => {
  const { shipping_address, opened_for } = cart.contents;
  return {
    id: cart.id,
    environment: 'sandbox',
    simulated: true,
    currency: cart.currency,
    lines: priced.lines.map((line) => soldLine(catalog, line, localeOf(opened_for))),
    ...(shipping_address && { shipping_address }),
    ...pricedParts(priced, cart.currency, opened_for),
  };
};
