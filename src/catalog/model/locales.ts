import { Type } from 'typebox';

/**
 * The locales the catalog serves (docs/decisions.md, Locales). Adding a locale is adding
 * it here: the query and response schemas, the search index, the catalog file's
 * translations and the MCP answers are all built from this list.
 */
export const LOCALES = ['en', 'it'] as const;
export type Locale = (typeof LOCALES)[number];

/**
 * The locale of a request that names none. Every product has its texts in it (the
 * catalog file requires them), so it is also what the other locales fall back to.
 */
export const DEFAULT_LOCALE = 'en' satisfies Locale;

/** A served locale, as `MarketContext.locale` and `list_markets` echo it. */
export const LocaleCode = Type.Union(LOCALES.map((locale) => Type.Literal(locale)));
