import type { McpServer } from '@modelcontextprotocol/server';
import { Type } from 'typebox';
import type { CatalogService } from '../catalog/catalog-service.js';
import { marketFields, queryFields } from '../catalog/query-schemas.js';
import { HANDLE_PATTERN } from '../catalog/routes/get-product.js';
import { catalogErrorBody } from '../http/error-handler.js';
import type { RateLimitCheck } from '../http/rate-limit.js';
import { inlineRefs, toolSchema } from './json-schema.js';
import { runTool, type ErrorRenderer, type ToolContext } from './tool-result.js';

export interface CatalogToolDeps {
  catalog: CatalogService;
  /** The catalog routes' limit: a tool call counts like a REST request. */
  rateLimit: RateLimitCheck;
  sharedSchemas: Record<string, unknown>;
}

const renderCatalogError: ErrorRenderer = (problem, { request }) => catalogErrorBody(problem, request.id);

const READ_ONLY = { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false };

const MARKET_NOTE =
  'Market: country (ISO-2, default IT) picks the region; currency defaults to that region\'s and any other currency is REGION_NOT_FOUND; locale en or it (default en), falling back to English.';

/** search_catalog, get_product and list_markets: read-only discovery over the same service as REST. */
export function registerCatalogTools(server: McpServer, deps: CatalogToolDeps, context: ToolContext): void {
  const { catalog, rateLimit, sharedSchemas } = deps;
  const output = (name: string) => toolSchema(inlineRefs(Type.Ref(name), sharedSchemas));
  const counted = async <T>(work: () => T) => {
    await rateLimit(context.request, context.reply);
    return work();
  };

  server.registerTool(
    'search_catalog',
    {
      title: 'Search the catalog',
      description: `Searches published products by free text over title and handle (case- and accent-insensitive, word prefixes) and returns a page of products with variants, the calculated price in the market and availability (in_stock, backorder, out_of_stock; purchasable). Omit query to browse newest first. Use next_cursor from the result as cursor for the next page (same query and market). ${MARKET_NOTE} Next: get_product for one product's full detail, or add a purchasable variant's id to a sandbox cart.`,
      inputSchema: toolSchema(
        Type.Object(
          { query: queryFields.q, ...marketFields, limit: queryFields.limit, cursor: queryFields.cursor },
          { additionalProperties: false },
        ),
      ),
      outputSchema: output('ProductList'),
      annotations: READ_ONLY,
    },
    async (args) =>
      runTool(context, renderCatalogError, () =>
        counted(() => ({ ...catalog.listProducts({ ...args, q: args.query }), request_id: context.request.id })),
      ),
  );

  server.registerTool(
    'get_product',
    {
      title: 'Get one product',
      description: `Returns one published product by handle with all variants, option combinations, calculated prices in the market and availability. Unknown, draft or weighted products are PRODUCT_NOT_FOUND. ${MARKET_NOTE} Next: pick a purchasable variant (availability.purchasable and a non-null price) for a sandbox cart.`,
      inputSchema: toolSchema(
        Type.Object(
          {
            handle: Type.String({ minLength: 1, maxLength: 200, pattern: HANDLE_PATTERN, description: 'The product handle, e.g. from search_catalog.' }),
            ...marketFields,
          },
          { additionalProperties: false },
        ),
      ),
      outputSchema: output('ProductDetail'),
      annotations: READ_ONLY,
    },
    async (args) =>
      runTool(context, renderCatalogError, () =>
        counted(() => ({ ...catalog.getProduct(args.handle, args), request_id: context.request.id })),
      ),
  );

  server.registerTool(
    'list_markets',
    {
      title: 'List markets',
      description:
        'Lists the regions the catalog sells in: id, name, currency and the countries each serves, plus the default market and the locales. Use it to choose country/currency for search_catalog, get_product and sandbox carts (a cart in a currency uses that currency\'s region).',
      inputSchema: toolSchema(Type.Object({}, { additionalProperties: false })),
      outputSchema: toolSchema(MarketList),
      annotations: READ_ONLY,
    },
    async () =>
      runTool(context, renderCatalogError, () =>
        counted(() => ({
          regions: catalog.snapshot.regions.map(({ id, name, currency, countries }) => ({ id, name, currency, countries })),
          default_market: { locale: 'en', country: 'IT' },
          locales: ['en', 'it'],
        })),
      ),
  );
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
    default_market: Type.Object({ locale: Type.String(), country: Type.String() }),
    locales: Type.Array(Type.String()),
  },
  { additionalProperties: false },
);
