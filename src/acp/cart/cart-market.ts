import Negotiator from 'negotiator';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '../../catalog/model/locales.js';
import { DEFAULT_COUNTRY } from '../../catalog/queries/market.js';
import type { LiveCatalog } from '../../catalog/read-model/live-catalog.js';
import { sellingCurrencies, type MarketRequest } from '../../sandbox/market-opening.js';
import type { AcpMessage } from '../checkout/messages.js';
import { AcpProblem } from '../errors.js';

export interface CartMarket {
  /** The country and language the sandbox cart is opened for: its currency is the country's. */
  market: Required<Pick<MarketRequest, 'country' | 'locale'>>;
  /** Said when the locale named a country the sandbox does not sell in. */
  note?: AcpMessage;
}

/**
 * rfc.cart.md, Create Cart: the request names no currency, and the seller picks it from
 * what it knows. Here the locale does (the request's `locale`, else the Accept-Language
 * header's first language): its region subtag picks the market that serves that country
 * (`it-IT` is Italy, in EUR; `en-GB` the United Kingdom, in GBP) and its language the
 * catalog's language (`en` for one the catalog does not have). Without a region, or with
 * one the sandbox does not sell in, the cart is in the default market, and a region not
 * followed is said in an info message. A `locale` that is no BCP 47 tag is 400.
 */
export function cartMarket(catalog: LiveCatalog, shippingAmounts: Record<string, number>, locale: string | undefined, acceptLanguage: string | undefined): CartMarket {
  const tag = locale === undefined ? firstLanguage(acceptLanguage) : parsedTag(locale);
  const language = (LOCALES as readonly string[]).includes(tag?.language ?? '') ? (tag!.language as Locale) : DEFAULT_LOCALE;
  const selling = new Set(sellingCurrencies(catalog, shippingAmounts));
  const sells = (country: string | undefined) => country !== undefined && selling.has(catalog.regionByCountry.get(country)?.currency ?? '');
  const named = tag?.region;
  const country = [named, DEFAULT_COUNTRY, ...catalog.regionByCountry.keys()].find(sells) ?? DEFAULT_COUNTRY;
  const market = { country, locale: language };
  if (named === undefined || named === country) return { market };
  const currency = catalog.regionByCountry.get(country)?.currency;
  return {
    market,
    note: {
      type: 'info',
      content_type: 'plain',
      content: `The sandbox does not sell in ${named}, the country of ${locale === undefined ? 'the Accept-Language header' : `locale ${locale}`}: the cart is priced for ${country}${currency === undefined ? '' : `, in ${currency}`}.`,
      ...(locale !== undefined && { param: '$.locale' }),
    },
  };
}

function parsedTag(locale: string): Intl.Locale {
  try {
    return new Intl.Locale(locale);
  } catch {
    throw new AcpProblem(400, 'invalid_request', `locale ${JSON.stringify(locale)} is not a BCP 47 language tag (such as en-US or it-IT).`, '$.locale');
  }
}

/** The header's preferred language that is a well-formed tag; a malformed header is a hint not followed. */
function firstLanguage(acceptLanguage: string | undefined): Intl.Locale | undefined {
  if (acceptLanguage === undefined) return undefined;
  for (const language of new Negotiator({ headers: { 'accept-language': acceptLanguage } }).languages()) {
    try {
      return new Intl.Locale(language);
    } catch {
      // The next one, then.
    }
  }
  return undefined;
}
