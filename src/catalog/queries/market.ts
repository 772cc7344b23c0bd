import { DEFAULT_LOCALE, LOCALES, type Locale } from '../model/locales.js';
import { CatalogReadError, type MarketParameter } from '../read-model/read-errors.js';
import type { LiveCatalog } from '../read-model/live-catalog.js';
import type { Region } from '../read-model/product.js';

export interface MarketInput {
  locale?: string | undefined;
  country?: string | undefined;
  currency?: string | undefined;
}

export interface Market {
  locale: Locale;
  country: string;
  currency: string;
  region: Region;
}

export interface MarketContext {
  locale: Locale;
  country: string;
  currency: string;
  region_id: string;
}

export const DEFAULT_COUNTRY = 'IT';

/**
 * docs/decisions.md, Markets: the country picks its region, the currency defaults to the region's,
 * and any other currency, unserved country or malformed value is an invalid market.
 */
export function resolveMarket(catalog: LiveCatalog, input: MarketInput): Market {
  const locale = (input.locale ?? DEFAULT_LOCALE).toLowerCase();
  if (!(LOCALES as readonly string[]).includes(locale)) {
    throw invalidMarket(`Unsupported locale "${input.locale}".`, 'locale', false, LOCALES);
  }
  const country = (input.country ?? DEFAULT_COUNTRY).toUpperCase();
  const served = [...catalog.regionByCountry.keys()];
  if (!/^[A-Z]{2}$/.test(country)) {
    throw invalidMarket(`"${input.country}" is not an ISO 3166-1 alpha-2 country code.`, 'country', true, served);
  }
  const region = catalog.regionByCountry.get(country);
  if (!region) {
    throw invalidMarket(`No region serves country ${country}.`, 'country', false, served);
  }
  const currency = (input.currency ?? region.currency).toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency)) {
    throw invalidMarket(`"${input.currency}" is not an ISO 4217 currency code.`, 'currency', true, [region.currency]);
  }
  if (currency !== region.currency) {
    throw invalidMarket(`Country ${country} is sold in ${region.currency}, not ${currency}.`, 'currency', false, [region.currency]);
  }
  return { locale: locale as Locale, country, currency, region };
}

export function marketContext(market: Market): MarketContext {
  return { locale: market.locale, country: market.country, currency: market.currency, region_id: market.region.id };
}

function invalidMarket(message: string, parameter: MarketParameter, malformed: boolean, accepted: readonly string[]): CatalogReadError {
  return new CatalogReadError(message, { kind: 'invalid_market', parameter, malformed, accepted });
}
