import type { Locale } from '../catalog/model/locales.js';
import { resolveMarket } from '../catalog/queries/market.js';
import type { LiveCatalog } from '../catalog/read-model/live-catalog.js';
import { CatalogReadError } from '../catalog/read-model/read-errors.js';
import type { OpenedFor } from './cart-store.js';
import { SandboxRefusalError } from './refusals.js';
import { DEFAULT_CURRENCY } from './schemas.js';
import { shippingRatesFor } from './shipping.js';

/** The market a cart or a checkout session is opened for, as its creator names it. */
export interface MarketRequest {
  /** ISO 3166-1 alpha-2, any case. */
  country?: string;
  currency?: string;
  locale?: Locale;
}

export interface OpenedMarket {
  currency: string;
  /** Absent when neither a country nor a locale was named. */
  openedFor?: OpenedFor;
}

/**
 * docs/decisions.md, Cart market: a country resolves as in the catalog, so a cart or a
 * session is in the market the shopper saw; without one the currency is the given one or
 * EUR. The currency must be sold by a region and have a shipping amount. Refusals are
 * `invalid_market` and `unsupported_currency`.
 */
export function openMarket(catalog: LiveCatalog, request: MarketRequest, shippingAmounts: Record<string, number>): OpenedMarket {
  const country = request.country?.toUpperCase();
  const currency = country === undefined ? (request.currency ?? DEFAULT_CURRENCY) : catalogMarket(catalog, country, request.currency);
  const supported = sellingCurrencies(catalog, shippingAmounts);
  if (!supported.includes(currency)) {
    const whose = country === undefined ? '' : ` (the currency of country ${country})`;
    throw new SandboxRefusalError(`The sandbox sells in ${supported.join(', ')}; ${currency}${whose} is not one of them.`, {
      kind: 'unsupported_currency',
      currency,
      supported,
    });
  }
  const { locale } = request;
  if (country === undefined && locale === undefined) return { currency };
  return { currency, openedFor: { ...(country && { country }), ...(locale && { locale }) } };
}

/** Currencies a cart or session can be opened in: sold by a region and with a shipping amount. */
export function sellingCurrencies(catalog: LiveCatalog, shippingAmounts: Record<string, number>): string[] {
  // A region an import left without countries is no market (cartMarket skips it too).
  const currencies = new Set([...catalog.regionByCountry.values()].map((region) => region.currency));
  return [...currencies].filter((currency) => shippingRatesFor(currency, shippingAmounts).length > 0);
}

/** The currency of the market a country resolves to in the catalog; a refusal names the field and what it accepts. */
function catalogMarket(catalog: LiveCatalog, country: string, currency: string | undefined): string {
  try {
    return resolveMarket(catalog, { country, currency }).currency;
  } catch (error) {
    if (error instanceof CatalogReadError && error.refusal.kind === 'invalid_market') {
      // No locale is passed here, so the refusal names the country or the currency.
      const { parameter, accepted } = error.refusal;
      const hint = parameter === 'currency' ? `Omit currency, or send ${accepted.join(' or ')}.` : `Served countries: ${accepted.join(', ')}.`;
      throw new SandboxRefusalError(`${error.message} ${hint}`, error.refusal);
    }
    throw error;
  }
}
