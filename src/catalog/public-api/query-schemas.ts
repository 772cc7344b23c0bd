import { Type } from 'typebox';
import { MAX_CURSOR_LENGTH } from '../queries/cursor.js';
import { MAX_FEED_CURSOR_LENGTH } from '../queries/change-feed.js';
import { DEFAULT_LOCALE, LOCALES } from '../model/locales.js';
import { DEFAULT_COUNTRY } from '../queries/market.js';
import { TAXONOMY_HANDLE_MAX_LENGTH } from '../model/taxonomy.js';
import { HANDLE_PATTERN } from '../model/handle.js';
import { DEFAULT_LIMIT } from '../queries/catalog-service.js';
import { SORT_ORDERS } from '../read-model/query.js';

/** The bounds of the list query (docs/decisions.md, Invalid queries); past them a query is INVALID_QUERY. */
export const MAX_QUERY_LENGTH = 120;
export const MAX_PAGE_SIZE = 20;
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
        'Opaque next_cursor of the previous page; preferred for paging. Valid only with the same q, market, filters and sort; walking it visits every matching product exactly once, even while products are added or repriced (in the price orders, a product whose own price changes moves to its new place).',
    }),
  ),
};

/** Values per repeated filter parameter (`category=a&category=b`). */
export const MAX_FILTER_VALUES = 10;
/** The highest price bound accepted, in major units: beyond every price a catalog file can hold. */
const MAX_PRICE_BOUND = 10_000_000;

/** The filter parameters' rule in words, for the hint of an invalid one. */
export const FILTER_RULE = `category, collection and tag take handles (lowercase letters, digits, single hyphens; up to ${MAX_FILTER_VALUES} values each, repeated); available is true or false; price_min and price_max are prices in the market currency, 0 to ${MAX_PRICE_BOUND}, price_min not above price_max; sort is one of ${SORT_ORDERS.join(', ')}`;

const handles = (what: string) =>
  Type.Optional(
    Type.Array(Type.String({ pattern: HANDLE_PATTERN, maxLength: TAXONOMY_HANDLE_MAX_LENGTH }), {
      minItems: 1,
      maxItems: MAX_FILTER_VALUES,
      description: `${what} Repeat the parameter for several values (up to ${MAX_FILTER_VALUES}): a product matching any of them matches.`,
    }),
  );

const priceBound = (which: string) =>
  Type.Optional(
    Type.Number({
      minimum: 0,
      maximum: MAX_PRICE_BOUND,
      description: `${which} price in major units of the market currency (e.g. 12.5), inclusive: a product matches when any of its variants has a price in the market within the bounds.`,
    }),
  );

/**
 * Filters and sort, on the list route and search_catalog. Each filter narrows the result
 * (filters combine with AND, the values of one filter with OR), and all of them combine
 * with q, the market and both kinds of paging; a cursor is valid only for the filters and
 * sort it was issued with.
 */
export const filterFields = {
  category: handles('Category handle (GET /public/v1/categories lists them): products in the category or any category below it. An unknown handle is INVALID_QUERY.'),
  collection: handles('Collection handle (GET /public/v1/collections lists them). An unknown handle is INVALID_QUERY.'),
  tag: handles('Tag: products carrying it.'),
  available: Type.Optional(
    Type.Boolean({
      description: 'true: only products with a variant that can be bought in the market (purchasable, with a price there); false: only products with none.',
    }),
  ),
  price_min: priceBound('Lowest'),
  price_max: priceBound('Highest'),
  sort: Type.Optional(
    Type.Enum([...SORT_ORDERS], {
      description:
        'Order of the results: relevance (the default with q; without q the same as newest), newest (created_at descending, the default without q), price_asc and price_desc (by the lowest variant price in the market, price_range.minimum; products without a price there come last either way), title (A to Z in the requested locale, case- and accent-insensitive). Ties are broken newest first, then by id.',
    }),
  ),
};

/**
 * The query of the taxonomy lists (GET /public/v1/categories and /collections, and
 * list_categories): the market, and `available` to count only the products that can (or
 * cannot) be bought in it.
 */
export const taxonomyFields = { ...marketFields, available: filterFields.available };

/** The change feed's cursor: `next_cursor` of a previous answer, or a change's `cursor`. */
export const sinceField = Type.Optional(
  Type.String({
    minLength: 1,
    maxLength: MAX_FEED_CURSOR_LENGTH,
    description:
      'Opaque feed position: a previous next_cursor, or the cursor of the last change handled; omit it for the cursor of now. Too old: CHANGES_EXPIRED.',
  }),
);

/** The change feed's query (GET /public/v1/changes and get_catalog_changes): where to start, the page size, the market to render in. */
export const changeFeedFields = { since: sinceField, limit: queryFields.limit, ...marketFields };
