import { Type } from 'typebox';
import type { CatalogService } from '../catalog/queries/catalog-service.js';
import type { ChangeFeed } from '../catalog/queries/change-feed.js';
import { handleField } from '../catalog/model/handle.js';
import { DEFAULT_LOCALE, LOCALES, LocaleCode } from '../catalog/model/locales.js';
import { LOOKUP_BOUNDS_RULE, lookupFields, MAX_LOOKUP_IDENTIFIERS } from '../catalog/queries/lookup.js';
import { DEFAULT_COUNTRY } from '../catalog/queries/market.js';
import { changeFeedFields, filterFields, marketFields, queryFields, taxonomyFields } from '../catalog/public-api/query-schemas.js';
import { CategoryList, CollectionList } from '../catalog/public-api/schemas.js';
import { publicApiErrors, refusalProblem } from '../catalog/public-api/errors.js';
import { CatalogReadError, type ReadRefusal } from '../catalog/read-model/read-errors.js';
import type { ErrorSurface } from '../http/error-surface.js';
import type { ToolSchemaCompiler } from './json-schema.js';
import { defineTool, type ToolDefinition } from './tool.js';

/**
 * The catalog's envelope and codes, as REST answers them, with the read refusals
 * hinted in tool and argument names.
 */
const catalogToolErrors: ErrorSurface = {
  ...publicApiErrors,
  recognise: (error) => (error instanceof CatalogReadError ? refusalProblem(error, toolHint(error.refusal)) : undefined),
};

function toolHint(refusal: ReadRefusal): string {
  switch (refusal.kind) {
    case 'invalid_market':
      return marketHint(refusal);
    case 'invalid_cursor':
      return refusal.reason === 'other_list'
        ? 'This cursor belongs to another search: pass it only with the query, filters, sort, locale, country and currency it came with, or omit cursor to start from the first page.'
        : 'Pass the next_cursor of the previous search_catalog result unchanged as cursor, with the same query, filters, sort, locale, country and currency.';
    case 'cursor_with_offset':
      // search_catalog takes no offset; the refusal is hinted all the same, like every kind.
      return 'Pass cursor alone to page on.';
    case 'unknown_taxonomy':
      return `Pass ${refusal.parameter} handles from list_categories, which lists the categories and collections.`;
    case 'inverted_price_range':
      return 'Pass price_min at most price_max (both in major units of the market currency), or only one of them.';
    case 'lookup_bounds':
      return refusal.given === 0
        ? `Pass at least one identifier in product_id, variant_id or sku (${LOOKUP_BOUNDS_RULE}).`
        : `Split the identifiers over several lookup_catalog calls (${LOOKUP_BOUNDS_RULE}).`;
    case 'product_not_found':
      return 'Find the product and its handle with search_catalog (query).';
    case 'invalid_feed_cursor':
      return 'Pass the next_cursor of a previous get_catalog_changes result unchanged as since, or omit since for the cursor of now.';
    case 'changes_expired':
      return 'Call get_catalog_changes without since for the cursor of now, read the products again with search_catalog, then pass that cursor as since.';
  }
}

function marketHint({ parameter, malformed, accepted }: Extract<ReadRefusal, { kind: 'invalid_market' }>): string {
  if (parameter === 'locale') return `Pass locale as one of ${accepted.join(', ')}, or omit it.`;
  if (parameter === 'currency') return `Omit currency, or pass ${accepted.join(' or ')}, the currency of the country's region.`;
  const served = `list_markets lists the countries served (${accepted.join(', ')})`;
  return malformed ? `Pass country as two letters, e.g. ${DEFAULT_COUNTRY}; ${served}.` : `Pass a served country as country, or omit it for ${DEFAULT_COUNTRY}; ${served}.`;
}

const READ_ONLY = { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false };

const MARKET_NOTE = `Market: country (ISO-2, default ${DEFAULT_COUNTRY}) picks the region; currency defaults to that region's and any other currency is REGION_NOT_FOUND; locale ${LOCALES.join(' or ')} (default ${DEFAULT_LOCALE}), falling back to ${DEFAULT_LOCALE}.`;

/**
 * search_catalog, get_product, lookup_catalog, list_markets, list_categories and get_catalog_changes: read-only
 * discovery over the same service as REST. Built once; the MCP endpoint counts every
 * request against the catalog limit.
 */
export function catalogTools(catalog: CatalogService, feed: ChangeFeed, schemas: ToolSchemaCompiler): ToolDefinition[] {
  return [
    defineTool(catalogToolErrors, {
      name: 'search_catalog',
      title: 'Search the catalog',
      description: `Searches published products by free text over title and handle (case- and accent-insensitive, word prefixes) and returns a page of products with variants, the calculated price in the market and availability (in_stock, backorder, out_of_stock; purchasable). Omit query to browse newest first. Narrow with category, collection, tag (arrays of handles), available and price_min/price_max (major units of the market currency); order with sort. Use next_cursor from the result as cursor for the next page (same query, filters, sort and market). ${MARKET_NOTE} Next: get_product for one product's full detail, or add a purchasable variant's id to a sandbox cart.`,
      input: schemas.input(
        Type.Object(
          { query: queryFields.q, ...marketFields, limit: queryFields.limit, cursor: queryFields.cursor, ...filterFields },
          { additionalProperties: false },
        ),
      ),
      output: schemas.output(Type.Ref('ProductList')),
      annotations: READ_ONLY,
      run: async (args, { request }) => ({ ...(await catalog.listProducts({ ...args, q: args.query })), request_id: request.id }),
    }),

    defineTool(catalogToolErrors, {
      name: 'get_product',
      title: 'Get one product',
      description: `Returns one published product by handle with all variants, option combinations, calculated prices in the market and availability. Unknown, draft or weighted products are PRODUCT_NOT_FOUND. ${MARKET_NOTE} Next: pick a purchasable variant (availability.purchasable and a non-null price) for a sandbox cart.`,
      input: schemas.input(
        Type.Object(
          {
            handle: handleField('The product handle, e.g. from search_catalog.'),
            ...marketFields,
          },
          { additionalProperties: false },
        ),
      ),
      output: schemas.output(Type.Ref('ProductDetail')),
      annotations: READ_ONLY,
      run: (args, { request }) => ({ ...catalog.getProduct(args.handle, args), request_id: request.id }),
    }),

    defineTool(catalogToolErrors, {
      name: 'lookup_catalog',
      title: 'Look up products by id, variant id or SKU',
      description: `Looks up published products by product_id, variant_id or sku (each a list), up to ${MAX_LOOKUP_IDENTIFIERS} identifiers of all kinds together per call. Returns each matched product once, as search_catalog shows it (variants, calculated price in the market, availability), what each identifier matched (matches: type, value, product_id, variant_id) and the identifiers that matched nothing (not_found: unknown, draft or weighted products). ${MARKET_NOTE} Use it to refresh the prices and availability of products or cart lines you already know.`,
      input: schemas.input(Type.Object({ ...lookupFields, ...marketFields }, { additionalProperties: false })),
      output: schemas.output(Type.Ref('ProductLookup')),
      annotations: READ_ONLY,
      run: (args, { request }) => ({ ...catalog.lookup(args), request_id: request.id }),
    }),

    defineTool(catalogToolErrors, {
      name: 'list_markets',
      title: 'List markets',
      description:
        'Lists the regions the catalog sells in: id, name, currency and the countries each serves, plus the default market and the locales. Use it to choose country/currency for search_catalog, get_product and sandbox carts (create_cart takes the same country; a cart opened with a currency alone uses that currency\'s region).',
      input: schemas.input(Type.Object({}, { additionalProperties: false })),
      output: schemas.output(MarketList),
      annotations: READ_ONLY,
      run: () => catalog.markets(),
    }),

    defineTool(catalogToolErrors, {
      name: 'list_categories',
      title: 'List categories and collections',
      description: `Lists the catalog's category tree (in tree order, each parent before its children: handle, title in the locale, parent handle, depth) and its collections, each with product_count, the number of products in the market (a category counts the products of its subcategories too, each once). With available true, only products that can be bought in the market are counted; false, only the others. To browse one, pass its handle as category or collection to search_catalog. ${MARKET_NOTE}`,
      input: schemas.input(Type.Object(taxonomyFields, { additionalProperties: false })),
      output: schemas.output(TaxonomyListing),
      annotations: READ_ONLY,
      run: async (args, { request }) => ({ ...(await catalog.listTaxonomy(args)), request_id: request.id }),
    }),

    defineTool(catalogToolErrors, {
      name: 'get_catalog_changes',
      title: 'What changed in the catalog',
      description:
        "The catalog's changes after since, oldest first: product id, handle, kinds (content, price, availability, published, withdrawn) and the product as search_catalog shows it now (null: no longer served). Without since: no changes and next_cursor, the cursor of now; keep it and pass it as since on your next look. While has_more, call again with next_cursor.",
      input: schemas.input(Type.Object(changeFeedFields, { additionalProperties: false })),
      output: schemas.output(Type.Ref('ChangeFeed')),
      annotations: READ_ONLY,
      run: async (args, { request }) => ({ ...(await feed.changes(args)), request_id: request.id }),
    }),
  ];
}

const MarketList = Type.Object(
  {
    regions: Type.Array(
      Type.Object({
        id: Type.String(),
        name: Type.String(),
        currency: Type.String(),
        countries: Type.Array(Type.String()),
      }),
    ),
    default_market: Type.Object({ locale: LocaleCode, country: Type.String() }),
    locales: Type.Array(LocaleCode),
  },
  { additionalProperties: false },
);

/** The two taxonomy answers of REST in one: GET /public/v1/categories and GET /public/v1/collections. */
const TaxonomyListing = Type.Object(
  {
    categories: CategoryList.properties.categories,
    collections: CollectionList.properties.collections,
    context: Type.Ref('MarketContext'),
    request_id: CategoryList.properties.request_id,
  },
  { additionalProperties: false },
);
