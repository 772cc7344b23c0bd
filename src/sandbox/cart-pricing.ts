import { DEFAULT_COUNTRY } from '../catalog/queries/market.js';
import { availabilityOf } from '../catalog/model/availability.js';
import { minorPriceIn } from '../catalog/read-model/pricing.js';
import type { LiveCatalog } from '../catalog/read-model/live-catalog.js';
import type { Region } from '../catalog/read-model/product.js';
import type { CartLine, OpenedFor } from './cart-store.js';
import { changedUnitPrice } from './scenarios.js';
import type { ShippingRate } from './shipping.js';

/** The market that prices a cart: a served country and the region serving it. */
export interface CartMarket {
  country: string;
  region: Region;
}

/**
 * docs/decisions.md, Cart market: the first of `countries` (the shipping address's, then the
 * one the cart was opened for) whose region sells in the cart's currency, else the default
 * country (IT) if its region does, else the first region selling the currency, priced as its
 * first country. Undefined when no region serving a country sells the currency.
 */
export function cartMarket(catalog: LiveCatalog, currency: string, countries: readonly (string | undefined)[]): CartMarket | undefined {
  for (const country of [...countries, DEFAULT_COUNTRY]) {
    if (country === undefined) continue;
    const region = catalog.regionByCountry.get(country);
    if (region?.currency === currency) return { country, region };
  }
  // In region order, then country order: a region an import left with no country is no market.
  for (const [country, region] of catalog.regionByCountry) {
    if (region.currency === currency) return { country, region };
  }
  return undefined;
}

/** Why a variant cannot be sold in a market, as data each surface words in its own terms. */
export type UnsellableKind = 'unknown_item' | 'out_of_stock' | 'not_priced';

export type Sellability = { unitPrice: number } | { problem: UnsellableKind; reason: string };

/**
 * Whether a variant can be in a cart of this market, and at what unit price (minor
 * units). The live catalog holds only published, non-weighted products, so draft and
 * weighted variants are "not in the catalog" like unknown ones.
 */
export function sellability(catalog: LiveCatalog, variantId: string, region: Region | undefined): Sellability {
  const variant = catalog.variantById.get(variantId);
  if (!variant) return { problem: 'unknown_item', reason: `Variant ${variantId} is not in the published catalog.` };
  if (!availabilityOf(variant).purchasable) return { problem: 'out_of_stock', reason: `Variant ${variantId} is out of stock.` };
  const unitPrice = region ? minorPriceIn(variant, region) : null;
  if (unitPrice === null) return { problem: 'not_priced', reason: `Variant ${variantId} has no price in the cart's market.` };
  return { unitPrice };
}

export type PricedLine<L extends CartLine = CartLine> = L & { unitPrice: number };

/** A line the market cannot sell now, and why. */
export interface UnsellableLine<L extends CartLine = CartLine> {
  line: L;
  /** Its place among the contents' lines. */
  index: number;
  problem: UnsellableKind;
}

/** What pricing reads of a cart or a checkout session: its lines and the choices that decide its market and shipping. */
export interface PricedContents<L extends CartLine = CartLine> {
  opened_for?: OpenedFor;
  items: readonly L[];
  shipping_address?: { country: string };
  shipping_option_id?: string;
  price_changed?: true;
}

export interface PricedCart<L extends CartLine = CartLine> {
  region: Region | undefined;
  /** The served country whose market `region` is (docs/decisions.md, Cart market). */
  country: string | undefined;
  /** The lines still sellable in the market, priced now. */
  lines: PricedLine<L>[];
  /** The others, in the contents' order. */
  unsellable: UnsellableLine<L>[];
  /** The shipping options offered in the cart's currency, and the selected one if still offered. */
  rates: ShippingRate[];
  shipping: ShippingRate | undefined;
  /** Minor units: sums of integers, so no floating-point error can creep in. */
  itemTotal: number;
  shippingTotal: number;
}

/** Prices a cart's contents from the live catalog (raised where it rehearsed price_changed); nothing of this is ever stored. */
export function priceCart<L extends CartLine>(
  catalog: LiveCatalog,
  currency: string,
  contents: PricedContents<L>,
  rates: ShippingRate[],
): PricedCart<L> {
  const market = cartMarket(catalog, currency, [contents.shipping_address?.country, contents.opened_for?.country]);
  const region = market?.region;
  const lines: PricedLine<L>[] = [];
  const unsellable: UnsellableLine<L>[] = [];
  for (const [index, line] of contents.items.entries()) {
    const sale = sellability(catalog, line.variant_id, region);
    if ('unitPrice' in sale) lines.push({ ...line, unitPrice: contents.price_changed ? changedUnitPrice(sale.unitPrice) : sale.unitPrice });
    else unsellable.push({ line, index, problem: sale.problem });
  }
  const shipping = rates.find((rate) => rate.id === contents.shipping_option_id);
  return {
    region,
    country: market?.country,
    lines,
    unsellable,
    rates,
    shipping,
    itemTotal: lines.reduce((sum, line) => sum + line.unitPrice * line.quantity, 0),
    shippingTotal: shipping?.amount ?? 0,
  };
}
