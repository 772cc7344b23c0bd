import { MAX_LOOKUP_IDENTIFIERS } from '../src/catalog/queries/lookup.js';
import { mcpRequestInit } from '../test/support/mcp-json-rpc.js';
import type { QueryWords } from './query-words.js';

/** What a goal of issue 12 holds a scenario to: list and detail reads, searches, or the MCP search. */
export type ScenarioKind = 'list' | 'detail' | 'search' | 'mcp';

export interface ScenarioRequest {
  method: 'GET' | 'POST';
  /** Path and query on the service. */
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface Scenario {
  name: string;
  kind: ScenarioKind;
  request: ScenarioRequest;
  /** For the MCP search: the name of the REST scenario asking the same query. */
  restTwin?: string;
}

const PRODUCTS = '/public/v1/products';
/** The page reached by following next_cursor this many times from the first. */
const CURSOR_STEPS = 4;
/** No compression: autocannon asks for none, and the baselines send the identity bytes. */
const IDENTITY = { 'accept-encoding': 'identity' };

const get = (path: string): ScenarioRequest => ({ method: 'GET', path, headers: IDENTITY });
const search = (query: string) => `${PRODUCTS}?q=${encodeURIComponent(query)}`;

interface ProductPage {
  products: { handle: string }[];
  next_cursor: string | null;
}

async function page(baseUrl: string, path: string): Promise<ProductPage> {
  const response = await fetch(`${baseUrl}${path}`, { headers: IDENTITY });
  if (!response.ok) throw new Error(`GET ${path} answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
  return (await response.json()) as ProductPage;
}

/** The catalog's categories, in tree order (the first is a top-level one). */
async function categories(baseUrl: string): Promise<{ handle: string }[]> {
  const response = await fetch(`${baseUrl}/public/v1/categories`, { headers: IDENTITY });
  if (!response.ok) throw new Error(`GET /public/v1/categories answered ${response.status}`);
  return ((await response.json()) as { categories: { handle: string }[] }).categories;
}

/** The path of the page after `CURSOR_STEPS` next_cursor steps from the first; throws on a catalog too small for it. */
async function cursorPath(baseUrl: string): Promise<string> {
  let path = PRODUCTS;
  for (let step = 0; step < CURSOR_STEPS; step++) {
    const cursor = (await page(baseUrl, path)).next_cursor;
    if (!cursor) throw new Error(`the catalog has fewer than ${CURSOR_STEPS + 1} pages`);
    path = `${PRODUCTS}?cursor=${encodeURIComponent(cursor)}`;
  }
  return path;
}

/**
 * The read scenarios, resolved against a running service (the 5th page's cursor and a
 * handle come from its answers). `quick` keeps the first list page and the common-word
 * search: one list and one search, for CI.
 */
export async function readScenarios(baseUrl: string, words: QueryWords, quick: boolean): Promise<Scenario[]> {
  const list: Scenario = { name: 'list, first page', kind: 'list', request: get(PRODUCTS) };
  const common: Scenario = { name: `search "${words.common}" (common word)`, kind: 'search', request: get(search(words.common)) };
  if (quick) return [list, common];
  const handle = (await page(baseUrl, `${PRODUCTS}?limit=1`)).products[0]!.handle;
  const category = (await categories(baseUrl))[0]!.handle;
  const mcp = mcpRequestInit('tools/call', { name: 'search_catalog', arguments: { query: words.common } });
  return [
    list,
    { name: `list, page ${CURSOR_STEPS + 1} by cursor`, kind: 'list', request: get(await cursorPath(baseUrl)) },
    { name: 'list, market country=US&locale=it', kind: 'list', request: get(`${PRODUCTS}?country=US&locale=it`) },
    {
      name: `list, filtered and sorted (category=${category}, available, sort=price_asc)`,
      kind: 'list',
      request: get(`${PRODUCTS}?category=${category}&available=true&sort=price_asc`),
    },
    { name: 'detail by handle', kind: 'detail', request: get(`${PRODUCTS}/${handle}`) },
    common,
    { name: `search "${words.rare}" (rare word)`, kind: 'search', request: get(search(words.rare)) },
    { name: `search "${words.prefix}" (one-letter prefix)`, kind: 'search', request: get(search(words.prefix)) },
    {
      name: `search_catalog "${words.common}" over /mcp`,
      kind: 'mcp',
      request: { method: 'POST', path: '/mcp', headers: { ...mcp.headers, ...IDENTITY }, body: mcp.body },
      restTwin: common.name,
    },
  ];
}

/** A batch lookup of the SKUs on the first list page (up to the lookup's bound), as a storefront refreshes a cart's lines. */
export async function lookupScenario(baseUrl: string): Promise<Scenario> {
  const response = await fetch(`${baseUrl}${PRODUCTS}`, { headers: IDENTITY });
  if (!response.ok) throw new Error(`GET ${PRODUCTS} answered ${response.status}`);
  const { products } = (await response.json()) as { products: { variants: { sku: string }[] }[] };
  const skus = products.flatMap((product) => product.variants.map((variant) => variant.sku)).slice(0, MAX_LOOKUP_IDENTIFIERS);
  return { name: `lookup of ${skus.length} SKUs`, kind: 'detail', request: get(`/public/v1/lookup?${skus.map((sku) => `sku=${encodeURIComponent(sku)}`).join('&')}`) };
}
