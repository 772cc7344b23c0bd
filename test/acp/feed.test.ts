import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import zlib from 'node:zlib';
import { adminClient, withAdmin } from '../support/admin.js';
import { acpValidator, assertAcpValid } from '../support/acp-validator.js';
import { catalog, category, product, skuVariants, variant } from '../support/catalog-builder.js';
import { useTestApp } from '../support/test-app.js';

const release = acpValidator();
const FEED = 'schema.feed.json';

const CATALOG = {
  ...catalog([
    product('olive-oil', {
      title: 'Olive oil',
      titleIt: 'Olio di oliva',
      categories: ['olive-oils'],
      thumbnail: 'https://images.example/oil.jpg',
      images: [{ url: 'https://images.example/oil-bottle.jpg', alt: 'A bottle' }],
      ...skuVariants([
        variant('OIL-500', { prices: [{ currency: 'EUR', amount: 1250 }, { currency: 'GBP', amount: 1100 }] }),
        variant('OIL-1000', { manage_inventory: true, inventory_quantity: 0, allow_backorder: true, prices: [{ currency: 'EUR', amount: 2100 }, { currency: 'EUR', amount: 1990, region: 'reg_eu' }] }),
        variant('OIL-5000', { manage_inventory: true, inventory_quantity: 0, prices: [{ currency: 'EUR', amount: 8000 }] }),
      ]),
    }),
    product('yen-tea', { variants: [variant('TEA', { prices: [{ currency: 'JPY', amount: 1500 }] })] }),
    product('draft-thing', { status: 'draft' }),
  ]),
  categories: [category('pantry', { titleIt: 'Dispensa' }), category('olive-oils', { parent: 'pantry', title: 'Olive oils', titleIt: 'Oli' })],
};

/** A feed answer's text, whatever its Content-Encoding. */
function text(response: { headers: Record<string, unknown>; rawPayload: Buffer }): string {
  const encoding = response.headers['content-encoding'];
  const bytes = encoding === 'gzip' ? zlib.gunzipSync(response.rawPayload) : encoding === 'br' ? zlib.brotliDecompressSync(response.rawPayload) : response.rawPayload;
  return bytes.toString('utf8');
}

describe('ACP product feed: the document', () => {
  const testApp = useTestApp(withAdmin({ catalog: CATALOG }));
  const get = (url: string, headers: Record<string, string> = {}) => testApp.client.get(url, headers);
  const products = async (url: string) => (await get(url)).data.products as any[];
  /** JSON Lines are no JSON body the contract client can check: the release's schema checks each line. */
  const lines = async (url: string) => {
    const response = await testApp.app.inject({ url });
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers['content-type'], 'application/jsonl; charset=utf-8');
    const all = response.body.split('\n');
    assert.equal(all.pop(), '', 'every line ends with a newline');
    return all.map((line) => JSON.parse(line));
  };

  it('validates against the release: products.json as ProductsResponse, each line of products.jsonl as Product, metadata.json as FeedMetadata', { skip: release.skip }, async () => {
    const validator = release.validator!;
    for (const country of ['IT', 'DE', 'GB', 'US', 'JP']) {
      for (const locale of ['en', 'it']) {
        const json = await get(`/acp/feed/${country}/products.json?locale=${locale}`);
        assert.equal(json.statusCode, 200);
        assertAcpValid(validator, FEED, 'ProductsResponse', json.data, `products.json of ${country} ${locale}`);
        const productLines = await lines(`/acp/feed/${country}/products.jsonl?locale=${locale}`);
        assert.equal(productLines.length, json.data.products.length);
        for (const line of productLines) assertAcpValid(validator, FEED, 'Product', line, `a line of products.jsonl of ${country}`);
        assertAcpValid(validator, FEED, 'FeedMetadata', (await get(`/acp/feed/${country}/metadata.json?locale=${locale}`)).data, `metadata.json of ${country}`);
      }
    }
    const demo = await testApp.app.inject({ url: '/acp/feed/IT/products.json' });
    assert.ok(JSON.parse(demo.body).products.length > 0);
  });

  it('lists every published product, drafts never, and the same products in JSON and JSON Lines', async () => {
    const listed = await products('/acp/feed/IT/products.json');
    const handles = listed.map((entry) => new URL(entry.url).pathname);
    assert.deepEqual(handles.sort(), ['/products/olive-oil', '/products/yen-tea']);
    assert.deepEqual(await lines('/acp/feed/IT/products.jsonl'), listed);
    const publicList = (await get('/public/v1/products?country=IT&limit=20')).data.products.map((entry: any) => entry.id);
    assert.deepEqual(listed.map((entry) => entry.id), publicList, 'the order of /public/v1: newest first');
  });

  it("renders the market: region prices in minor units of its currency, availability from stock, the locale's texts and category paths", async () => {
    const oil = (await products('/acp/feed/IT/products.json')).find((entry) => entry.title === 'Olive oil');
    assert.deepEqual(oil.media, [
      { type: 'image', url: 'https://images.example/oil.jpg' },
      { type: 'image', url: 'https://images.example/oil-bottle.jpg', alt_text: 'A bottle' },
    ]);
    assert.deepEqual(oil.description, { plain: 'About Olive oil.' });
    assert.deepEqual(
      oil.variants.map(({ title, price, availability }: any) => ({ title, price, availability })),
      [
        { title: 'Olive oil - OIL-500', price: { amount: 1250, currency: 'EUR' }, availability: { available: true, status: 'in_stock' } },
        { title: 'Olive oil - OIL-1000', price: { amount: 2100, currency: 'EUR' }, availability: { available: true, status: 'backorder' } },
        { title: 'Olive oil - OIL-5000', price: { amount: 8000, currency: 'EUR' }, availability: { available: false, status: 'out_of_stock' } },
      ],
    );
    assert.deepEqual(oil.variants[0].categories, [{ value: 'pantry > Olive oils', taxonomy: 'merchant' }]);
    assert.deepEqual(oil.variants[0].variant_options, [{ name: 'Variant', value: 'OIL-500' }]);
    const detail = (await get('/public/v1/products/olive-oil?country=IT')).data.product;
    assert.deepEqual(oil.variants.map((entry: any) => entry.id), detail.variants.map((entry: any) => entry.id), 'variant ids are the catalog\'s, the checkout item ids');

    const inGermany = (await products('/acp/feed/DE/products.json')).find((entry) => entry.id === oil.id);
    assert.deepEqual(inGermany.variants[1].price, { amount: 1990, currency: 'EUR' }, "the region's own price wins");

    const inItalian = (await products('/acp/feed/GB/products.json?locale=it')).find((entry) => entry.id === oil.id);
    assert.equal(inItalian.title, 'Olio di oliva');
    assert.deepEqual(inItalian.variants[0].categories, [{ value: 'Dispensa > Oli', taxonomy: 'merchant' }]);
    assert.deepEqual(inItalian.variants[0].price, { amount: 1100, currency: 'GBP' });
    assert.deepEqual(inItalian.variants[1], { ...inItalian.variants[1], availability: { available: false } }, 'no price in the market: not available');
    assert.equal(inItalian.variants[1].price, undefined);

    const tea = (await products('/acp/feed/JP/products.json')).find((entry) => entry.title === 'yen tea');
    assert.deepEqual(tea.variants[0].price, { amount: 1500, currency: 'JPY' }, 'a currency without minor units');
  });

  it('says which feed and catalog version it is: metadata.json, ETag and Last-Modified', async () => {
    const metadata = await get('/acp/feed/gb/metadata.json?locale=it');
    assert.equal(metadata.data.id, 'gb-it');
    assert.equal(metadata.data.target_country, 'GB');
    const feed = await get('/acp/feed/GB/products.json?locale=it');
    assert.equal(new Date(String(feed.headers['last-modified'])).getTime(), Math.floor(Date.parse(metadata.data.updated_at) / 1000) * 1000);
    assert.match(String(feed.headers.etag), /^"acp-feed-\d+-GB-it-products\.json-[A-Za-z0-9_-]+"$/);
  });

  it('is cacheable like the catalog: 304 to If-None-Match per coding and to If-Modified-Since, until the catalog changes', async () => {
    const url = '/acp/feed/IT/products.json';
    const first = await testApp.app.inject({ url });
    assert.equal(first.headers['cache-control'], 'public, max-age=30, stale-while-revalidate=60');
    assert.match(String(first.headers.vary), /Accept-Encoding/);
    const again = await testApp.app.inject({ url, headers: { 'if-none-match': String(first.headers.etag) } });
    assert.equal(again.statusCode, 304);
    assert.equal(again.body, '');
    const since = await testApp.app.inject({ url, headers: { 'if-modified-since': String(first.headers['last-modified']) } });
    assert.equal(since.statusCode, 304);
    const before = await testApp.app.inject({ url, headers: { 'if-modified-since': new Date(Date.parse(String(first.headers['last-modified'])) - 1000).toUTCString() } });
    assert.equal(before.statusCode, 200);

    for (const coding of ['gzip', 'br']) {
      const compressed = await testApp.app.inject({ url, headers: { 'accept-encoding': coding } });
      assert.equal(compressed.headers['content-encoding'], coding);
      assert.equal(compressed.headers.etag, `${String(first.headers.etag).slice(0, -1)}-${coding}"`);
      assert.equal(text(compressed), first.body);
      const notModified = await testApp.app.inject({ url, headers: { 'accept-encoding': coding, 'if-none-match': String(compressed.headers.etag) } });
      assert.equal(notModified.statusCode, 304);
      const otherForm = await testApp.app.inject({ url, headers: { 'accept-encoding': coding, 'if-none-match': String(first.headers.etag) } });
      assert.equal(otherForm.statusCode, 200, "the identity form's tag does not name the compressed bytes");
    }

    const head = await testApp.app.inject({ method: 'HEAD', url });
    assert.equal(head.statusCode, 200);
    assert.equal(head.headers.etag, first.headers.etag);
    assert.equal(head.body, '');
    assert.equal(head.headers['content-length'], undefined, 'the length of a streamed document is not known before it is made');

    const changed = await adminClient(testApp)('POST', '/admin/v1/prices', { rows: [{ sku: 'OIL-500', currency: 'EUR', amount: 1300 }] });
    assert.equal(changed.statusCode, 200, changed.body);
    const after = await testApp.app.inject({ url, headers: { 'if-none-match': String(first.headers.etag) } });
    assert.equal(after.statusCode, 200);
    assert.notEqual(after.headers.etag, first.headers.etag);
    const oil = JSON.parse(after.body).products.find((entry: any) => entry.title === 'Olive oil');
    assert.deepEqual(oil.variants[0].price, { amount: 1300, currency: 'EUR' });
  });

  it('refuses in the release\'s error shape: 404 feed_not_found for a country no region serves, 400 for a malformed country or an unsupported locale', { skip: release.skip }, async () => {
    const cases: [string, number, string, string][] = [
      ['/acp/feed/CH/products.json', 404, 'feed_not_found', 'country'],
      ['/acp/feed/ITA/products.jsonl', 400, 'invalid_request', 'country'],
      ['/acp/feed/I1/metadata.json', 400, 'invalid_request', 'country'],
      ['/acp/feed/IT/products.json?locale=fr', 400, 'invalid_request', 'locale'],
    ];
    for (const [url, status, code, param] of cases) {
      const response = await get(url);
      assert.equal(response.statusCode, status, url);
      assert.deepEqual({ code: response.data.code, param: response.data.param, type: response.data.type }, { code, param, type: 'invalid_request' }, url);
      assert.equal(response.headers['cache-control'], 'no-store');
      assertAcpValid(release.validator!, FEED, 'Error', response.data, url);
    }
  });
});

describe('ACP product feed: the catalog rate limit', () => {
  const testApp = useTestApp({ config: { catalogRateLimit: 2 } });

  it('counts each download against the catalog window, shared with /public/v1, and answers 429 rate_limited past it', async () => {
    assert.equal((await testApp.client.get('/public/v1/products')).statusCode, 200);
    const counted = await testApp.client.get('/acp/feed/IT/metadata.json');
    assert.equal(counted.statusCode, 200);
    assert.equal(counted.headers['ratelimit-remaining'], '0');
    const refused = await testApp.client.get('/acp/feed/IT/products.json');
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.data.code, 'rate_limited');
    assert.ok(Number(refused.headers['retry-after']) > 0);
  });
});
