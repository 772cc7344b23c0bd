import type { FastifyRequest } from 'fastify';
import { LOCALES } from '../catalog/model/locales.js';
import { DEFAULT_LIMIT } from '../catalog/queries/catalog-service.js';
import { DEFAULT_COUNTRY } from '../catalog/queries/market.js';
import { MAX_LOOKUP_IDENTIFIERS } from '../catalog/queries/lookup.js';
import { MAX_PAGE_SIZE } from '../catalog/public-api/query-schemas.js';
import type { UcpOperation, UcpOperationKit } from './operation.js';
import {
  UcpGetProductRequest,
  UcpGetProductResult,
  UcpLookupRequest,
  UcpLookupResult,
  UcpSearchRequest,
  UcpSearchResult,
} from './shapes/catalog-schemas.js';
import { asUcpRefusal, UcpCatalog } from './shapes/catalog.js';
import { ROOT_CAPABILITIES } from './version.js';

const MARKET = `Prices are in minor units, in the market context.address_country picks (else the market carts in context.currency are priced in, else ${DEFAULT_COUNTRY}'s); texts in context.language (else Accept-Language), ${LOCALES.join(' or ')}. A context that names no served market is answered in the default market with a market_fallback message.`;

/** Runs a catalog read, wording the catalog's refusals as UCP protocol errors. */
async function read<T>(run: () => T | Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw asUcpRefusal(error);
  }
}

const acceptLanguage = (request: FastifyRequest) => request.headers['accept-language'];

/**
 * UCP's catalog operations (dev.ucp.shopping.catalog.search and .lookup): keyless reads
 * of the live catalog, through the same service, rules and rate limit as /public/v1.
 */
export function catalogOperations({ catalog }: UcpOperationKit): UcpOperation<any>[] {
  const ucp = new UcpCatalog(catalog);
  const search: UcpOperation<UcpSearchRequest> = {
    name: 'search_catalog',
    title: 'Search the catalog',
    description: `Searches the published products by free text (query: title and handle, case- and accent-insensitive, word prefixes) and filters: categories (category handles, with their subcategories), price (minor units, min and max, inclusive), available (ours: true for what can be bought). A search needs a query word or a filter. Answers products priced in the market, each with its variants (the featured one first: the first that can be bought) and their availability, a page at a time: pagination.limit (default ${DEFAULT_LIMIT}, at most ${MAX_PAGE_SIZE}) and the pagination.cursor of the previous page. ${MARKET}`,
    capability: ROOT_CAPABILITIES.catalogSearch,
    method: 'POST',
    path: '/catalog/search',
    payload: { name: 'catalog', schema: UcpSearchRequest },
    result: UcpSearchResult,
    requiredOnOutcome: { products: [] },
    errors: {
      400: 'invalid_profile_url: the UCP-Agent header is missing or malformed; invalid_request: the request does not match the schema, names neither a query word nor a filter, has filters.price.min above max, or a pagination.cursor of another search.',
    },
    readOnly: true,
    run: ({ payload }, { request }) => read(() => ucp.search(payload, acceptLanguage(request))),
  };
  const lookup: UcpOperation<UcpLookupRequest> = {
    name: 'lookup_catalog',
    title: 'Look up products by id, variant id or SKU',
    description: `Resolves up to ${MAX_LOOKUP_IDENTIFIERS} identifiers (ids): each a product id (answered with its featured variant, match "featured"), a variant id or a SKU (that variant, match "exact"); each product once, each variant with the inputs that resolved to it. Identifiers that name nothing are not_found messages; those not sold in the market or outside the filters are item_unavailable messages. Filters as search_catalog's. ${MARKET}`,
    capability: ROOT_CAPABILITIES.catalogLookup,
    method: 'POST',
    path: '/catalog/lookup',
    payload: { name: 'catalog', schema: UcpLookupRequest },
    result: UcpLookupResult,
    requiredOnOutcome: { products: [] },
    errors: {
      400: `invalid_profile_url: the UCP-Agent header is missing or malformed; invalid_request: the request does not match the schema, or has filters.price.min above max; request_too_large: more than ${MAX_LOOKUP_IDENTIFIERS} ids.`,
    },
    readOnly: true,
    run: ({ payload }, { request }) => read(() => ucp.lookup(payload, acceptLanguage(request))),
  };
  const getProduct: UcpOperation<UcpGetProductRequest> = {
    name: 'get_product',
    title: 'Get one product in detail',
    description: `One product by product id, variant id or SKU, with the variants matching the effective selections (featured first) and, per option value, whether a variant with it and the other selections exists and can be bought. selected narrows by option values; when no variant matches them all, the lowest-priority ones (preferences, highest first) that match nothing are dropped. A variant id or SKU selects that variant's options. An id that names nothing is the outcome not_found, one not sold in the market or outside the filters item_unavailable (ucp.status error). ${MARKET}`,
    capability: ROOT_CAPABILITIES.catalogLookup,
    method: 'POST',
    path: '/catalog/product',
    payload: { name: 'catalog', schema: UcpGetProductRequest },
    result: UcpGetProductResult,
    errors: {
      400: 'invalid_profile_url: the UCP-Agent header is missing or malformed; invalid_request: the request does not match the schema, names an option twice in selected, or has filters.price.min above max.',
    },
    readOnly: true,
    run: ({ payload }, { request }) => read(() => ucp.getProduct(payload, acceptLanguage(request))),
  };
  return [search, lookup, getProduct];
}
