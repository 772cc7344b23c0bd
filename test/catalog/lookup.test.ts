import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import zlib from 'node:zlib';
import { MAX_LOOKUP_IDENTIFIERS } from '../../src/catalog/queries/lookup.js';
import { adminClient, importOverHttp, withAdmin } from '../support/admin.js';
import { assertProblem, UUID } from '../support/catalog-assertions.js';
import { catalog, day, product, skuVariants, variant } from '../support/catalog-builder.js';
import { McpTestClient } from '../support/mcp-client.js';
import { startTestApp, useTestApp, type TestApp } from '../support/test-app.js';

const LOOKUP = '/public/v1/lookup';

/** The olive oil's 500 ml costs 12.90 in Italy and 13.90 in the rest of the EU region (Germany). */
const OLIVE_OIL = product('olive-oil', {
  created_at: day(4),
  titleIt: 'Olio di oliva',
  ...skuVariants([
    variant('OIL-500', { prices: [{ currency: 'EUR', amount: 1290 }, { currency: 'EUR', amount: 1390, region: 'reg_eu' }] }),
    variant('OIL-1000', { prices: [{ currency: 'EUR', amount: 2290 }] }),
  ]),
});
const HONEY = product('honey', { created_at: day(3), variants: [variant('HONEY')] });
/** A SKU with a comma: SKUs are never split. */
const PASTA = product('pasta', { created_at: day(2), variants: [variant('PASTA,500')] });
/** A product whose handle is the lookup route's last segment: both stay reachable. */
const NAMED_LOOKUP = product('lookup', { created_at: day(1), variants: [variant('LOOKUP-1')] });
const DRAFT = product('saffron-draft', { status: 'draft', variants: [variant('SAFFRON')] });
const WEIGHTED = product('truffle-by-weight', { weighted: true, variants: [variant('TRUFFLE')] });
const PRODUCTS = [OLIVE_OIL, HONEY, PASTA, NAMED_LOOKUP, DRAFT, WEIGHTED];

interface LookupArgs {
  product_id?: string[];
  variant_id?: string[];
  sku?: string[];
  locale?: string;
  country?: string;
  currency?: string;
}

/** A lookup's answer without its request id, or its error (status 400 on REST). */
type Outcome = { answer: any; error?: undefined } | { answer?: undefined; error: { code: string; message: string; hint: string } };

interface Surface {
  name: string;
  lookup(args: LookupArgs): Promise<Outcome>;
}

const withoutRequestId = ({ request_id: _, ...rest }: any) => rest;

/** The query string of a lookup: each value of a list as a parameter of its own. */
function lookupUrl(args: LookupArgs): string {
  const query = new URLSearchParams();
  for (const [name, values] of Object.entries(args)) for (const value of [values].flat()) query.append(name, value);
  return `${LOOKUP}?${query}`;
}

function restSurface(testApp: TestApp): Surface {
  return {
    name: 'REST',
    lookup: async (args) => {
      const response = await testApp.client.get(lookupUrl(args));
      if (response.statusCode === 200) {
        assert.match(response.data.request_id, UUID);
        return { answer: withoutRequestId(response.data) };
      }
      assertProblem(response, 400, response.data.error.code);
      return { error: response.data.error };
    },
  };
}

function mcpSurface(client: () => McpTestClient): Surface {
  return {
    name: 'MCP',
    lookup: async (args) => {
      const outcome = await client().call('lookup_catalog', { ...args });
      if (outcome.isError) return { error: outcome.data.error };
      assert.match(outcome.data.request_id, UUID);
      return { answer: withoutRequestId(outcome.data) };
    },
  };
}

/** The app with the lookup's catalog and the admin API, and each surface over it. */
function lookupApp() {
  const testApp = useTestApp(withAdmin({ catalog: PRODUCTS }));
  let base = '';
  let mcp: McpTestClient | undefined;
  before(async () => {
    base = await testApp.app.listen({ port: 0, host: '127.0.0.1' });
    mcp = await McpTestClient.connect(`${base}/mcp`);
  });
  after(() => mcp?.close());
  return { testApp, base: () => base, surfaces: [restSurface(testApp), mcpSurface(() => mcp!)] };
}

/** Ids as the store holds them, of served and unserved products alike. */
async function productId(testApp: TestApp, handle: string): Promise<string> {
  return (await testApp.store.db.selectFrom('products').select('id').where('handle', '=', handle).executeTakeFirstOrThrow()).id;
}

/** A product as the list route renders it in a market. */
async function listed(testApp: TestApp, handle: string, market = ''): Promise<any> {
  const list = await testApp.client.get(`/public/v1/products?limit=20${market}`);
  const found = list.data.products.find((entry: { handle: string }) => entry.handle === handle);
  assert.ok(found, `${handle} is not listed`);
  return found;
}

async function found(surface: Surface, args: LookupArgs): Promise<any> {
  const outcome = await surface.lookup(args);
  assert.equal(outcome.error, undefined, JSON.stringify(outcome.error));
  return outcome.answer;
}

async function refused(surface: Surface, args: LookupArgs, code: string): Promise<{ message: string; hint: string }> {
  const outcome = await surface.lookup(args);
  assert.ok(outcome.error, `${surface.name} answered ${JSON.stringify(outcome.answer)?.slice(0, 200)}`);
  assert.equal(outcome.error.code, code, outcome.error.message);
  return outcome.error;
}

const handles = (answer: any) => answer.products.map((entry: { handle: string }) => entry.handle);
const IT = { locale: 'en', country: 'IT', currency: 'EUR', region_id: 'reg_it' };

describe('batch lookup by product id, variant id or SKU, over REST and MCP (docs/decisions.md, Batch lookup)', () => {
  const { testApp, base, surfaces } = lookupApp();

  for (const surface of surfaces) {
    describe(surface.name, () => {
      it('by product id: the product exactly as the list renders it, matched with no variant', async () => {
        const id = await productId(testApp, 'olive-oil');
        const answer = await found(surface, { product_id: [id] });
        assert.deepEqual(answer.products, [await listed(testApp, 'olive-oil')]);
        assert.deepEqual(answer.matches, [{ type: 'product_id', value: id, product_id: id, variant_id: null }]);
        assert.deepEqual(answer.not_found, []);
        assert.deepEqual(answer.context, IT);
      });

      it('by variant id: the variant\'s product, matched with that variant', async () => {
        const [honey, variantId] = [await productId(testApp, 'honey'), await testApp.variantId('HONEY')];
        const answer = await found(surface, { variant_id: [variantId] });
        assert.deepEqual(answer.products, [await listed(testApp, 'honey')]);
        assert.deepEqual(answer.matches, [{ type: 'variant_id', value: variantId, product_id: honey, variant_id: variantId }]);
      });

      it('by SKU, exactly (a comma is part of the SKU; another case is another SKU)', async () => {
        const pasta = await productId(testApp, 'pasta');
        const answer = await found(surface, { sku: ['PASTA,500', 'PASTA', '500', 'honey'] });
        assert.deepEqual(handles(answer), ['pasta']);
        assert.deepEqual(answer.matches, [{ type: 'sku', value: 'PASTA,500', product_id: pasta, variant_id: await testApp.variantId('PASTA,500') }]);
        assert.deepEqual(answer.not_found, ['PASTA', '500', 'honey'].map((value) => ({ type: 'sku', value })));
      });

      it('mixed: each product once, in the order of its first match (product ids, then variant ids, then SKUs)', async () => {
        const [oil, honey, pasta] = [await productId(testApp, 'olive-oil'), await productId(testApp, 'honey'), await productId(testApp, 'pasta')];
        const [oil1000, pastaVariant] = [await testApp.variantId('OIL-1000'), await testApp.variantId('PASTA,500')];
        const answer = await found(surface, { sku: ['HONEY', 'OIL-1000'], variant_id: [pastaVariant], product_id: [oil] });
        assert.deepEqual(handles(answer), ['olive-oil', 'pasta', 'honey']);
        assert.deepEqual(answer.matches, [
          { type: 'product_id', value: oil, product_id: oil, variant_id: null },
          { type: 'variant_id', value: pastaVariant, product_id: pasta, variant_id: pastaVariant },
          { type: 'sku', value: 'HONEY', product_id: honey, variant_id: await testApp.variantId('HONEY') },
          { type: 'sku', value: 'OIL-1000', product_id: oil, variant_id: oil1000 },
        ]);
      });

      it('duplicates: an identifier given twice is answered once, a product matched twice is shown once', async () => {
        const oil = await productId(testApp, 'olive-oil');
        const answer = await found(surface, { sku: ['OIL-500', 'OIL-500', 'NOPE', 'NOPE'], product_id: [oil, oil] });
        assert.deepEqual(handles(answer), ['olive-oil']);
        assert.deepEqual(answer.matches.map((match: any) => [match.type, match.value]), [['product_id', oil], ['sku', 'OIL-500']]);
        assert.deepEqual(answer.not_found, [{ type: 'sku', value: 'NOPE' }]);
      });

      it('names every identifier that matched nothing: unknown, or of a draft or weighted product', async () => {
        const [draft, weighted] = [await productId(testApp, 'saffron-draft'), await productId(testApp, 'truffle-by-weight')];
        const [draftVariant, weightedVariant] = [await testApp.variantId('SAFFRON'), await testApp.variantId('TRUFFLE')];
        const args = {
          product_id: ['prod_000000000000000000000000', draft, weighted],
          variant_id: ['variant_000000000000000000000000', draftVariant, weightedVariant],
          sku: ['NO-SUCH-SKU', 'SAFFRON', 'TRUFFLE', 'HONEY'],
        };
        const answer = await found(surface, args);
        assert.deepEqual(handles(answer), ['honey']);
        assert.deepEqual(answer.matches.map((match: any) => match.value), ['HONEY']);
        const notFound = [
          ...args.product_id.map((value) => ({ type: 'product_id', value })),
          ...args.variant_id.map((value) => ({ type: 'variant_id', value })),
          ...args.sku.slice(0, 3).map((value) => ({ type: 'sku', value })),
        ];
        assert.deepEqual(answer.not_found, notFound);
        const nothing = await found(surface, { product_id: [draft] });
        assert.deepEqual([nothing.products, nothing.matches, nothing.not_found], [[], [], [{ type: 'product_id', value: draft }]]);
      });

      it(`${MAX_LOOKUP_IDENTIFIERS} identifiers in total are looked up; ${MAX_LOOKUP_IDENTIFIERS + 1} are INVALID_QUERY naming the parameters`, async () => {
        const skus = Array.from({ length: MAX_LOOKUP_IDENTIFIERS - 1 }, (_, i) => `SKU-${i}`);
        const answer = await found(surface, { sku: skus, product_id: [await productId(testApp, 'honey')] });
        assert.deepEqual(handles(answer), ['honey']);
        assert.equal(answer.not_found.length, MAX_LOOKUP_IDENTIFIERS - 1);

        const tooMany = await refused(surface, { sku: skus, product_id: ['prod_a'], variant_id: ['variant_a'] }, 'INVALID_QUERY');
        assert.match(tooMany.message, new RegExp(`product_id, variant_id and sku hold ${MAX_LOOKUP_IDENTIFIERS + 1} together`));
        assert.match(tooMany.hint, new RegExp(`1 to ${MAX_LOOKUP_IDENTIFIERS} identifiers`));
        const oneKind = await refused(surface, { sku: [...skus, 'SKU-X', 'SKU-Y'] }, 'INVALID_QUERY');
        assert.match(oneKind.message, /\bsku\b/);
      });

      it('no identifier at all is INVALID_QUERY naming the parameters, the market alone too', async () => {
        for (const args of [{}, { country: 'DE' }, { sku: [] }]) {
          const error = await refused(surface, args, 'INVALID_QUERY');
          assert.match(error.message, /product_id, variant_id or sku/, JSON.stringify(args));
        }
      });

      it('a malformed identifier is INVALID_QUERY naming its parameter', async () => {
        const cases: [LookupArgs, string][] = [
          [{ sku: [''] }, 'sku'],
          [{ sku: ['HONEY', 'S'.repeat(101)] }, 'sku'],
          [{ product_id: ['p'.repeat(129)] }, 'product_id'],
          [{ variant_id: [''] }, 'variant_id'],
        ];
        for (const [args, parameter] of cases) {
          const error = await refused(surface, args, 'INVALID_QUERY');
          assert.match(error.message, new RegExp(`\\b${parameter}\\b`), JSON.stringify(args).slice(0, 80));
        }
        assert.equal((await found(surface, { sku: ['S'.repeat(100)] })).not_found.length, 1, '100 characters is a SKU');
      });

      it('prices, texts and context of the market asked for, as the list gives them there; an invalid market is REGION_NOT_FOUND', async () => {
        const italy = await found(surface, { sku: ['OIL-500'] });
        const germany = await found(surface, { sku: ['OIL-500'], country: 'de', locale: 'it' });
        assert.equal(italy.products[0].variants[0].price.amount, 12.9);
        assert.equal(germany.products[0].variants[0].price.amount, 13.9);
        assert.equal(germany.products[0].title, 'Olio di oliva');
        assert.deepEqual(germany.context, { locale: 'it', country: 'DE', currency: 'EUR', region_id: 'reg_eu' });
        assert.deepEqual(germany.products, [await listed(testApp, 'olive-oil', '&country=DE&locale=it')]);
        assert.deepEqual(germany.matches, italy.matches);
        for (const market of [{ country: 'CN' }, { country: 'IT', currency: 'USD' }, { locale: 'fr' }]) {
          await refused(surface, { sku: ['OIL-500'], ...market }, 'REGION_NOT_FOUND');
        }
      });
    });
  }

  it('REST and both MCP servers give the same answer to the same lookup', async () => {
    const args = { sku: ['OIL-500', 'NOPE'], variant_id: [await testApp.variantId('HONEY')], country: 'DE' };
    const rest = await found(surfaces[0]!, args);
    const sandbox = await McpTestClient.connect(`${base()}/mcp/sandbox`);
    try {
      assert.deepEqual(await found(mcpSurface(() => sandbox), args), rest);
    } finally {
      await sandbox.close();
    }
    assert.deepEqual(await found(surfaces[1]!, args), rest);
  });
});

describe('batch lookup follows the live catalog: admin writes and imports show at once', () => {
  const { testApp, surfaces } = lookupApp();
  const admin = (...args: Parameters<ReturnType<typeof adminClient>>) => adminClient(testApp)(...args);
  const importFile = async (products: ReturnType<typeof product>[]) => {
    const job = await importOverHttp(testApp, catalog(products));
    assert.equal(job.status, 'succeeded', JSON.stringify(job));
  };
  const priceOf = (answer: any, sku: string) =>
    answer.products.flatMap((entry: any) => entry.variants).find((entry: any) => entry.sku === sku)?.price?.amount;

  for (const surface of surfaces) {
    it(`${surface.name}: a price, a status and a new product changed by the admin API`, async () => {
      const prices = await admin('POST', '/admin/v1/prices', { rows: [{ sku: 'OIL-1000', currency: 'EUR', amount: 2490 }] });
      assert.equal(prices.statusCode, 200, prices.body);
      assert.equal(priceOf(await found(surface, { sku: ['OIL-1000'] }), 'OIL-1000'), 24.9);

      assert.equal((await admin('PATCH', '/admin/v1/products/honey', { status: 'draft' })).statusCode, 200);
      assert.deepEqual((await found(surface, { sku: ['HONEY'] })).not_found, [{ type: 'sku', value: 'HONEY' }]);
      assert.equal((await admin('PATCH', '/admin/v1/products/honey', { status: 'published' })).statusCode, 200);
      assert.deepEqual(handles(await found(surface, { sku: ['HONEY'] })), ['honey']);

      const sku = `FIGS-${surface.name}`;
      assert.deepEqual((await found(surface, { sku: [sku] })).products, []);
      const { handle, ...body } = product(`figs-${surface.name.toLowerCase()}`, { variants: [variant(sku)] });
      assert.equal((await admin('PUT', `/admin/v1/products/${handle}`, body)).statusCode, 201);
      assert.deepEqual(handles(await found(surface, { sku: [sku] })), [handle]);
    });

    it(`${surface.name}: a re-import that moves a SKU to another product moves its SKU and variant id lookups with it`, async () => {
      const variantId = await testApp.variantId('OIL-500');
      const [oil, honey] = [await productId(testApp, 'olive-oil'), await productId(testApp, 'honey')];
      const owner = async () => {
        const answer = await found(surface, { sku: ['OIL-500'], variant_id: [variantId] });
        assert.deepEqual(answer.not_found, []);
        return answer.matches.map((match: any) => match.product_id);
      };
      assert.deepEqual(await owner(), [oil, oil]);
      const oilWithout500 = { ...OLIVE_OIL, ...skuVariants([variant('OIL-1000')]) };
      await importFile([oilWithout500, { ...HONEY, ...skuVariants([variant('HONEY'), variant('OIL-500')]) }]);
      assert.equal(await testApp.variantId('OIL-500'), variantId, 'the import keeps the variant id');
      assert.deepEqual(await owner(), [honey, honey]);
      await importFile([OLIVE_OIL, HONEY]);
      assert.deepEqual(await owner(), [oil, oil]);
    });
  }
});

describe('GET /public/v1/lookup over HTTP', () => {
  const testApp = useTestApp(withAdmin({ catalog: PRODUCTS, config: { catalogCache: { maxAgeSeconds: 45, staleWhileRevalidateSeconds: 90 } } }));
  const get = (url: string, headers: Record<string, string> = {}) => testApp.app.inject({ url, headers });

  it('carries a strong ETag and the configured Cache-Control, answers 304 while unchanged, and a new ETag once a shown product changes', async () => {
    const url = lookupUrl({ sku: ['OIL-500', 'HONEY'] });
    const first = await get(url);
    assert.equal(first.statusCode, 200);
    assert.equal(first.headers['cache-control'], 'public, max-age=45, stale-while-revalidate=90');
    assert.match(String(first.headers.vary), /Accept-Encoding/i);
    const etag = String(first.headers.etag);
    assert.match(etag, /^"[A-Za-z0-9_-]+"$/);
    assert.equal((await get(url, { 'if-none-match': etag })).statusCode, 304);

    // A change to a product the answer does not show leaves it alone.
    await adminClient(testApp)('POST', '/admin/v1/prices', { rows: [{ sku: 'PASTA,500', currency: 'EUR', amount: 990 }] });
    assert.equal((await get(url, { 'if-none-match': etag })).statusCode, 304);

    await adminClient(testApp)('POST', '/admin/v1/prices', { rows: [{ sku: 'HONEY', currency: 'EUR', amount: 990 }] });
    const changed = await get(url, { 'if-none-match': etag });
    assert.equal(changed.statusCode, 200);
    assert.notEqual(changed.headers.etag, etag);
    assert.equal(changed.json().products[1].variants[0].price.amount, 9.9);
  });

  it('answers compressed when asked, the same JSON as uncompressed', async () => {
    const url = lookupUrl({ sku: ['OIL-500', 'HONEY', 'PASTA,500'] });
    const plain = await get(url);
    for (const [coding, decode] of [['br', zlib.brotliDecompressSync], ['gzip', zlib.gunzipSync]] as const) {
      const response = await get(url, { 'accept-encoding': coding });
      assert.equal(response.headers['content-encoding'], coding);
      assert.deepEqual(withoutRequestId(JSON.parse(decode(response.rawPayload).toString())), withoutRequestId(plain.json()));
    }
  });

  it('takes repeated parameters as lists and never splits a SKU at a comma', async () => {
    const answer = (await testApp.client.get(`${LOOKUP}?sku=PASTA,500&sku=HONEY&sku=HONEY,PASTA`)).data;
    assert.deepEqual(handles(answer), ['pasta', 'honey']);
    assert.deepEqual(answer.not_found, [{ type: 'sku', value: 'HONEY,PASTA' }]);
  });

  it('leaves a product whose handle is "lookup" at /public/v1/products/lookup', async () => {
    assert.equal((await testApp.client.get('/public/v1/products/lookup')).data.product.handle, 'lookup');
    assert.deepEqual(handles((await testApp.client.get(`${LOOKUP}?sku=LOOKUP-1`)).data), ['lookup']);
  });

  it('/openapi.json documents the parameters with their bounds and the ProductLookup answer', async () => {
    const doc = (await testApp.client.get('/openapi.json')).data;
    const operation = doc.paths[LOOKUP].get;
    const parameters = Object.fromEntries(operation.parameters.map((p: any) => [p.name, p.schema]));
    assert.deepEqual(Object.keys(parameters), ['product_id', 'variant_id', 'sku', 'locale', 'country', 'currency']);
    for (const name of ['product_id', 'variant_id', 'sku']) assert.equal(parameters[name].maxItems, MAX_LOOKUP_IDENTIFIERS, name);
    assert.deepEqual([parameters.sku.items.minLength, parameters.sku.items.maxLength], [1, 100]);
    assert.match(operation.description, new RegExp(`up to ${MAX_LOOKUP_IDENTIFIERS} identifiers`));
    assert.equal(operation.responses['200'].content['application/json'].schema.$ref, '#/components/schemas/ProductLookup');
    for (const status of ['400', '429', '500']) {
      assert.equal(operation.responses[status].content['application/json'].schema.$ref, '#/components/schemas/PublicApiError', status);
    }
    assert.deepEqual(doc.components.schemas.ProductLookup.properties.products.items, { $ref: '#/components/schemas/Product' });
  });
});

describe('GET /public/v1/lookup counts against the catalog rate limit', () => {
  const LIMIT = 3;
  let testApp: TestApp;
  before(async () => {
    testApp = await startTestApp({ catalog: PRODUCTS, config: { catalogRateLimit: LIMIT } });
  });
  after(() => testApp.close());
  const from = (remoteAddress: string, url: string) => testApp.client.request({ method: 'GET', url, remoteAddress });

  it('shares the window of the other catalog routes, then 429 RATE_LIMITED with Retry-After', async () => {
    const url = lookupUrl({ sku: ['HONEY'] });
    assert.equal((await from('10.0.0.1', '/public/v1/products')).statusCode, 200);
    for (let i = 2; i <= LIMIT; i++) {
      const response = await from('10.0.0.1', url);
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers['ratelimit-remaining'], String(LIMIT - i));
    }
    const limited = await from('10.0.0.1', url);
    assertProblem(limited, 429, 'RATE_LIMITED');
    assert.equal(limited.headers['retry-after'], limited.headers['ratelimit-reset']);
    assert.equal((await from('10.0.0.2', url)).statusCode, 200);
  });

  it('/openapi.json states the configured limit on its RateLimit-Limit header', async () => {
    const { responses } = (await testApp.client.get('/openapi.json')).data.paths[LOOKUP].get;
    for (const status of ['200', '429']) {
      assert.match(responses[status].headers['RateLimit-Limit'].description, new RegExp(`\\b${LIMIT} requests per client IP per minute\\b`));
    }
  });
});

describe('lookup_catalog as an MCP tool', () => {
  let testApp: TestApp;
  let base: string;
  before(async () => {
    testApp = await startTestApp({ catalog: PRODUCTS });
    base = await testApp.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(() => testApp.close());

  for (const path of ['/mcp', '/mcp/sandbox']) {
    it(`${path} lists it read-only, its description naming the limit, with lists of bounded identifiers and no outputSchema (its answer is ProductLookup)`, async () => {
      const mcp = await McpTestClient.connect(`${base}${path}`);
      try {
        const tool = (await mcp.client.listTools()).tools.find((entry) => entry.name === 'lookup_catalog');
        assert.ok(tool, 'lookup_catalog is listed');
        assert.deepEqual([tool.annotations?.readOnlyHint, tool.annotations?.destructiveHint], [true, false]);
        assert.match(tool.description ?? '', new RegExp(`up to ${MAX_LOOKUP_IDENTIFIERS} identifiers`));
        const properties = tool.inputSchema.properties as Record<string, any>;
        for (const name of ['product_id', 'variant_id', 'sku']) {
          assert.deepEqual([properties[name].type, properties[name].maxItems], ['array', MAX_LOOKUP_IDENTIFIERS], name);
        }
        assert.equal(tool.outputSchema, undefined);
      } finally {
        await mcp.close();
      }
    });
  }

  it('a single string where a list is expected, or an unknown argument, is INVALID_QUERY naming it', async () => {
    const mcp = await McpTestClient.connect(`${base}/mcp`);
    try {
      const single = await mcp.call('lookup_catalog', { sku: 'HONEY' });
      assert.equal(single.isError, true);
      assert.equal(single.data.error.code, 'INVALID_QUERY');
      assert.match(single.data.error.message, new RegExp(`\\bsku must be a list of at most ${MAX_LOOKUP_IDENTIFIERS} items`));
      const unknown = await mcp.call('lookup_catalog', { skus: ['HONEY'] });
      assert.equal(unknown.data.error.code, 'INVALID_QUERY');
      assert.match(unknown.data.error.message, /skus is not accepted/);
    } finally {
      await mcp.close();
    }
  });
});
