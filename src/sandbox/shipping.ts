import { STANDARD_SHIPPING_ID } from './schemas.js';

export interface ShippingRate {
  id: string;
  name: string;
  /** Minor units of `currency`. */
  amount: number;
  currency: string;
}

/**
 * docs/decisions.md, Shipping: one simulated option with a configured amount per currency. A currency
 * without a configured amount has no option; carts cannot be opened in it.
 */
export function shippingRatesFor(currency: string, amounts: Record<string, number>): ShippingRate[] {
  const amount = amounts[currency];
  if (amount === undefined) return [];
  return [{ id: STANDARD_SHIPPING_ID, name: 'Standard shipping (simulated)', amount, currency }];
}
