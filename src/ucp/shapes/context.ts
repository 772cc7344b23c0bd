import Negotiator from 'negotiator';
import { Type, type Static } from 'typebox';
import { DEFAULT_LOCALE, LOCALES } from '../../catalog/model/locales.js';
import { DEFAULT_COUNTRY, resolveMarket, type Market, type MarketContext } from '../../catalog/queries/market.js';
import type { LiveCatalog } from '../../catalog/read-model/live-catalog.js';
import { cartMarket } from '../../sandbox/cart-pricing.js';
import type { MarketRequest } from '../../sandbox/market-opening.js';
import type { UcpMessage } from '../messages.js';

/** Context strings are hints of a few words; `intent` is a sentence. */
const HINT_MAX_LENGTH = 200;
const INTENT_MAX_LENGTH = 2000;

const hint = (description: string, maxLength = HINT_MAX_LENGTH) => Type.Optional(Type.String({ maxLength, description }));

/**
 * UCP's request `context`: provisional buyer signals, never authoritative (checkout is).
 * The market fields pick the market as {@link marketFromContext} says; the others are
 * accepted and not used. Other members are allowed (UCP's context is open).
 */
export const UcpContext = Type.Object(
  {
    address_country: hint(
      `ISO 3166-1 alpha-2 country (case-insensitive) of the buyer: picks the market that serves it, as \`country\` does on /public/v1 (default ${DEFAULT_COUNTRY}). A country no market serves, or another spelling (alpha-3, a name), keeps the default market and is reported in \`messages\`.`,
    ),
    address_region: hint('Accepted; not used.'),
    postal_code: hint('Accepted; not used.'),
    intent: hint('Accepted; not used for ranking.', INTENT_MAX_LENGTH),
    language: hint(
      `BCP 47 language tag: the texts' locale, ${LOCALES.join(' or ')} (\`it-IT\` is \`it\`); any other language gets ${DEFAULT_LOCALE}. Absent: the Accept-Language header decides on REST.`,
    ),
    currency: hint(
      "ISO 4217 currency preference. Each market sells in one currency, so the country's market decides the prices' currency; without a country, the currency picks a market that sells in it. It is also the denomination of `filters.price`: a price filter in another currency than the market's is not applied (reported in `messages`).",
    ),
    eligibility: Type.Optional(
      Type.Array(Type.String({ maxLength: HINT_MAX_LENGTH }), { maxItems: 20, description: 'Buyer benefit claims: none is recognised, so all are ignored.' }),
    ),
  },
  { description: 'Market and localisation hints (UCP context).' },
);
export type UcpContext = Static<typeof UcpContext>;

export interface ResolvedContext {
  market: Market;
  /** Whether amounts the request gives (a price filter) are in the market's currency: the context names none, or the same. */
  amountsInMarketCurrency: boolean;
  /** The hints that were not followed, as messages of the answer. */
  notes: UcpMessage[];
}

/**
 * The market a UCP request is answered in. The context is a hint (UCP overview, Context),
 * so a hint that cannot be followed never fails the request: the answer is in another
 * market and says so. `address_country` picks the market as `country` does on /public/v1;
 * else `currency` picks the market a cart in that currency is priced in (docs/decisions.md,
 * Cart market), so the catalog shows the prices the cart will charge; else the default
 * market. The locale follows `language`, else the Accept-Language header.
 */
export function marketFromContext(catalog: LiveCatalog, context: UcpContext | undefined, acceptLanguage?: string): ResolvedContext {
  const locale = new Negotiator({ headers: { 'accept-language': context?.language ?? acceptLanguage } }).language([...LOCALES]) ?? DEFAULT_LOCALE;
  const named = context?.address_country?.trim().toUpperCase();
  const currency = context?.currency?.trim().toUpperCase();
  const unfollowed: string[] = [];
  let country = named !== undefined && catalog.regionByCountry.has(named) ? named : undefined;
  if (named !== undefined && country === undefined) unfollowed.push(`address_country "${context!.address_country}" is not a served ISO 3166-1 alpha-2 country`);
  if (country === undefined && currency !== undefined) {
    country = cartMarket(catalog, currency, [])?.country;
    if (country === undefined) unfollowed.push(`no market sells in currency "${context!.currency}"`);
  }
  const market = resolveMarket(catalog, { locale, country });
  const notes: UcpMessage[] =
    unfollowed.length === 0
      ? []
      : [
          {
            type: 'info',
            code: 'market_fallback',
            content: `The context's market was not followed: ${unfollowed.join('; ')} (countries served: ${[...catalog.regionByCountry.keys()].join(', ')}). Prices are for ${market.country}, in ${market.currency}.`,
          },
        ];
  return { market, amountsInMarketCurrency: currency === undefined || currency === market.currency, notes };
}

/** The market a cart or checkout is opened for, as the sandbox names it (src/sandbox/market-opening.ts). */
export function marketRequest({ country, currency, locale }: Market): MarketRequest {
  return { country, currency, locale };
}

/** The `context` a cart or checkout answers with: the market pricing it now. */
export const ContextEcho = Type.Object(
  {
    address_country: Type.String({ description: 'The served country whose market prices it: the shipping address\'s once one moved it.' }),
    currency: Type.String(),
    language: Type.String({ description: 'The language of the item titles.' }),
  },
  { description: 'The market pricing it now; absent when no market sells its currency any more.' },
);

export function contextEcho(market: MarketContext | null): Static<typeof ContextEcho> | undefined {
  return market === null ? undefined : { address_country: market.country, currency: market.currency, language: market.locale };
}
