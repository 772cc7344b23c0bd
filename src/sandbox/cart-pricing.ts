import { DEFAULT_COUNTRY } from '../catalog/market.js';
import { availabilityOf, minorPriceIn } from '../catalog/read-model/pricing.js';
import type { LiveCatalog, Region } from '../catalog/read-model/live-catalog.js';
import type { CartContents, CartLine } from './cart-store.js';
import { changedUnitPrice } from './scenarios.js';
import type { ShippingRate } from './shipping.js';

/**
 * docs/decisions.md, Cart market: the region of the address's country when it sells in the cart's
 * currency, else the region of the default country (IT) for its currency, else the
 * first region selling that currency. Undefined when no region sells it.
 */
export function cartRegion(catalog: LiveCatalog, currency: string, country?: string): Region | undefined {
  for (const candidate of [country, DEFAULT_COUNTRY]) {
    const region = candidate === undefined ? undefined : catalog.regionByCountry.get(candidate);
    if (region?.currency === currency) return region;
  }
  return catalog.regions.find((region) => region.currency === currency);
}

export type Sellability = { unitPrice: number } | { reason: string };

/**
 * Whether a variant can be in a cart of this market, and at what unit price (minor
 * units). The live catalog holds only published, non-weighted products, so draft and
 * weighted variants are "not in the catalog" like unknown ones.
 */
export function sellability(catalog: LiveCatalog, variantId: string, region: Region | undefined): Sellability {
  const variant = catalog.variantById.get(variantId);
  if (!variant) return { reason: `Variant ${variantId} is not in the published catalog.` };
  if (!availabilityOf(variant).purchasable) return { reason: `Variant ${variantId} is out of stock.` };
  const unitPrice = region ? minorPriceIn(variant, region) : null;
  if (unitPrice === null) return { reason: `Variant ${variantId} has no price in the cart's market.` };
  return { unitPrice };
}

export interface PricedLine extends CartLine {
  unitPrice: number;
}

export interface PricedCart {
  region: Region | undefined;
  /** The lines still sellable in the market, priced now. */
  lines: PricedLine[];
  /** The shipping options offered in the cart's currency, and the selected one if still offered. */
  rates: ShippingRate[];
  shipping: ShippingRate | undefined;
  /** Minor units: sums of integers, so no floating-point error can creep in. */
  itemTotal: number;
  shippingTotal: number;
}

/** Prices a cart's contents from the live catalog (raised where it rehearsed price_changed); nothing of this is ever stored. */
export function priceCart(
  catalog: LiveCatalog,
  currency: string,
  contents: CartContents,
  rates: ShippingRate[],
): PricedCart {
  const region = cartRegion(catalog, currency, contents.shipping_address?.country);
  const lines: PricedLine[] = [];
  for (const line of contents.items) {
    const sale = sellability(catalog, line.variant_id, region);
    if ('unitPrice' in sale) lines.push({ ...line, unitPrice: contents.price_changed ? changedUnitPrice(sale.unitPrice) : sale.unitPrice });
  }
  const shipping = rates.find((rate) => rate.id === contents.shipping_option_id);
  return {
    region,
    lines,
    rates,
    shipping,
    itemTotal: lines.reduce((sum, line) => sum + line.unitPrice * line.quantity, 0),
    shippingTotal: shipping?.amount ?? 0,
  };
}
