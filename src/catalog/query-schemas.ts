import { Type } from 'typebox';
import { MAX_CURSOR_LENGTH } from './cursor.js';
import { DEFAULT_LOCALE, LOCALES } from './locales.js';
import { DEFAULT_COUNTRY } from './market.js';

/** The bounds of the list query (docs/decisions.md, Invalid queries); past them a query is INVALID_QUERY. */
const MAX_QUERY_LENGTH = 120;
const MAX_PAGE_SIZE = 20;
/** The page size of a request that names none. */
export const DEFAULT_LIMIT = 10;
const MAX_OFFSET = 1000;

/** The bounds in words, for the hint of an invalid query. */
export const QUERY_BOUNDS_RULE = `q up to ${MAX_QUERY_LENGTH} characters, limit 1 to ${MAX_PAGE_SIZE}, offset 0 to ${MAX_OFFSET}, cursor up to ${MAX_CURSOR_LENGTH} characters`;

/**
 * The catalog's input fields with their bounds and documented behaviour, shared by the
 * REST query strings and the MCP tools' input schemas so both accept the same values.
 * All are optional; their defaults are applied by the catalog service.
 */
export const marketFields = {
  locale: Type.Optional(
    Type.String({
      maxLength: 8,
      description: `${LOCALES.join(' or ')} (case-insensitive); default ${DEFAULT_LOCALE}. Texts fall back to ${DEFAULT_LOCALE} when a translation is missing.`,
    }),
  ),
  country: Type.Optional(
    Type.String({
      minLength: 2,
      maxLength: 2,
      description: `ISO 3166-1 alpha-2 (case-insensitive); default ${DEFAULT_COUNTRY}. Picks the region that serves the country.`,
    }),
  ),
  currency: Type.Optional(
    Type.String({
      minLength: 3,
      maxLength: 3,
      description:
        "ISO 4217 (case-insensitive); defaults to the region's currency. A currency other than the region's is REGION_NOT_FOUND.",
    }),
  ),
};

export const queryFields = {
  q: Type.Optional(
    Type.String({
      maxLength: MAX_QUERY_LENGTH,
      description:
        'Free text over the title (in the requested locale) and the handle. Case- and accent-insensitive, matches word prefixes. Results are ordered by relevance: exact handle, then titles containing every query word as a whole word, then partial (word-prefix) matches; ties newest first.',
    }),
  ),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_LIMIT, description: `Page size, 1 to ${MAX_PAGE_SIZE}.` }),
  ),
  offset: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: MAX_OFFSET,
      description: `Position of the first product, 0 to ${MAX_OFFSET}. Cannot be combined with cursor (INVALID_QUERY).`,
    }),
  ),
  cursor: Type.Optional(
    Type.String({
      maxLength: MAX_CURSOR_LENGTH,
      description:
        'Opaque next_cursor of the previous page; preferred for paging. Valid only with the same q and market; walking it visits every matching product exactly once, even while products are added or repriced.',
    }),
  ),
};
