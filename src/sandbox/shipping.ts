import { fractionDigits } from '../catalog/read-model/pricing.js';

export const STANDARD_SHIPPING_ID = 'sandbox_standard';
const STANDARD_SHIPPING_NAME = 'Standard shipping (simulated)';

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
  return [{ id: STANDARD_SHIPPING_ID, name: STANDARD_SHIPPING_NAME, amount, currency }];
}

/** The standard option as the descriptions name it: `sandbox_standard` ("Standard shipping (simulated)"). */
export const STANDARD_SHIPPING_TEXT = `\`${STANDARD_SHIPPING_ID}\` ("${STANDARD_SHIPPING_NAME}")`;

/** The configured amounts as the descriptions state them: "4.90 EUR, 4.50 GBP". */
export function shippingAmountsText(amounts: Record<string, number>): string {
  return Object.entries(amounts)
    .map(([currency, minor]) => {
      const digits = fractionDigits(currency);
      return `${(minor / 10 ** digits).toFixed(digits)} ${currency}`;
    })
    .join(', ');
}

/** The currencies a cart can be opened in, as far as the configuration decides: those with a shipping amount. */
export function shippingCurrenciesText(amounts: Record<string, number>): string {
  return Object.keys(amounts).join(', ');
}
