import { DEFAULT_LOCALE, type Locale } from '../catalog/model/locales.js';
import { marketContext, type MarketContext } from '../catalog/queries/market.js';
import { variantDisplayName } from '../catalog/queries/render.js';
import type { LiveCatalog } from '../catalog/read-model/live-catalog.js';
import { textIn } from '../catalog/read-model/product.js';
import type { PricedCart, PricedLine } from './cart-pricing.js';
import type { CartLine, OpenedFor } from './cart-store.js';
import type { ShippingRate } from './shipping.js';

/**
 * The pieces of the protocol-neutral views of carts and checkout sessions, for the
 * protocol adapters (UCP, ACP): amounts in minor units of the currency, as both
 * protocols want them, and what each line is as the catalog shows it.
 */

/** What a line's variant is, as the catalog shows it now in the cart's or session's locale. */
export interface LineItemView {
  product_id: string;
  product_handle: string;
  sku: string;
  title: string;
  /** The catalog's `display_name`: option values in option order; null when the product has no options. */
  variant_display_name: string | null;
  image_url: string | null;
}

/** A line that can be bought now, priced from the live catalog (or frozen into an order). */
export interface SoldLineView {
  variant_id: string;
  quantity: number;
  item: LineItemView;
  /** Minor units. */
  unit_price: number;
  /** unit_price × quantity. */
  line_total: number;
}

export interface FulfillmentOptionView {
  id: string;
  title: string;
  /** Minor units of `currency`. */
  amount: number;
  currency: string;
}

/** Minor units: `subtotal` of the lines that can be bought, `fulfillment` of the selected option (0 until one is), and their sum. */
export interface TotalsView {
  subtotal: number;
  fulfillment: number;
  total: number;
}

/** The variant as the catalog serves it now, in `locale`; null when it is not served. */
export function describeVariant(catalog: LiveCatalog, variantId: string, locale: Locale): LineItemView | null {
  const variant = catalog.variantById.get(variantId);
  if (!variant) return null;
  // The catalog holds a variant's product whenever it holds the variant.
  const product = catalog.productById.get(variant.productId)!;
  return {
    product_id: product.id,
    product_handle: product.handle,
    sku: variant.sku,
    title: textIn(product, locale).title,
    variant_display_name: variantDisplayName(variant),
    image_url: product.thumbnail,
  };
}

/** A sellable line priced from `catalog`, in the same synchronous pass as its pricing (so its variant is there). */
export function soldLine(catalog: LiveCatalog, line: PricedLine<CartLine>, locale: Locale): SoldLineView {
  return {
    variant_id: line.variant_id,
    quantity: line.quantity,
    item: describeVariant(catalog, line.variant_id, locale)!,
    unit_price: line.unitPrice,
    line_total: line.unitPrice * line.quantity,
  };
}

export function fulfillmentOption(rate: ShippingRate): FulfillmentOptionView {
  return { id: rate.id, title: rate.name, amount: rate.amount, currency: rate.currency };
}

/** What pricing tells of a cart or a session, beside its lines. */
export interface PricedParts {
  /** The market pricing it; null when no region sells its currency any more. */
  market: MarketContext | null;
  /** The options offered in its currency. */
  fulfillment_options: FulfillmentOptionView[];
  selected_fulfillment_option_id?: string;
  totals: TotalsView;
}

export function pricedParts(priced: PricedCart<CartLine>, currency: string, openedFor: OpenedFor | undefined): PricedParts {
  return {
    market: pricingMarket(priced, currency, localeOf(openedFor)),
    fulfillment_options: priced.rates.map(fulfillmentOption),
    ...(priced.shipping && { selected_fulfillment_option_id: priced.shipping.id }),
    totals: { subtotal: priced.itemTotal, fulfillment: priced.shippingTotal, total: priced.itemTotal + priced.shippingTotal },
  };
}

/** The locale lines are described in: the one opened for, else the catalog's default. */
export function localeOf(openedFor: OpenedFor | undefined): Locale {
  return openedFor?.locale ?? DEFAULT_LOCALE;
}

/** The market pricing a cart or session, in the shape the catalog echoes its own; null when no region sells its currency any more. */
export function pricingMarket({ region, country }: PricedCart<CartLine>, currency: string, locale: Locale): MarketContext | null {
  return region && country !== undefined ? marketContext({ locale, country, currency, region }) : null;
}
