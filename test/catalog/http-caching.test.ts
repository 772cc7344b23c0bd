import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import zlib from 'node:zlib';
import { adminClient, withAdmin } from '../support/admin.js';
import { useTestApp } from '../support/test-app.js';

const LIST = '/public/v1/products?limit=20';
const DETAIL = '/public/v1/products/caffe-espresso-blend';
const STRONG_ETAG = /^"[A-Za-z0-9_-]+"$/;

/** The JSON an answer carries, whatever its Content-Encoding. */
function decoded(response: { headers: Record<string, unknown>; rawPayload: Buffer }): any {
  const encoding = response.headers['content-encoding'];
  const bytes =
    encoding === 'gzip' ? zlib.gunzipSync(response.rawPayload) : encoding === 'br' ? zlib.brotliDecompressSync(response.rawPayload) : response.rawPayload;
  return JSON.parse(bytes.toString('utf8'));
}

const withoutRequestId = ({ request_id: _, ...rest }: any) => rest;

describe('HTTP caching of catalog reads', () => {
  const testApp = useTestApp(withAdmin({ config: { catalogCache: { maxAgeSeconds: 45, staleWhileRevalidateSeconds: 90 } } }));
  const get = (url: string, headers: Record<string, string> = {}) => testApp.app.inject({ url, headers });

  for (const url of [LIST, DETAIL]) {
    it(`${url} carries a strong ETag, the configured Cache-Control and Vary: Accept-Encoding`, async () => {
      const response = await get(url);
      assert.equal(response.statusCode, 200);
      assert.match(String(response.headers.etag), STRONG_ETAG);
      assert.equal(response.headers['cache-control'], 'public, max-age=45, stale-while-revalidate=90');
      assert.match(String(response.headers.vary), /Accept-Encoding/i);
    });

    it(`${url} answers 304 to If-None-Match with its ETag, with the validators and no body`, async () => {
      const first = await get(url);
      const again = await get(url, { 'if-none-match': String(first.headers.etag), origin: 'https://shop.example' });
      assert.equal(again.statusCode, 304);
      assert.equal(again.body, '');
      assert.equal(again.headers.etag, first.headers.etag);
      assert.equal(again.headers['cache-control'], first.headers['cache-control']);
      assert.equal(again.headers['access-control-allow-origin'], '*');
      assert.ok(again.headers['x-request-id']);

      const listed = await get(url, { 'if-none-match': `"elsewhere", W/${first.headers.etag}` });
      assert.equal(listed.statusCode, 304, 'a weak form of the tag in a list matches too');
      assert.equal((await get(url, { 'if-none-match': '"elsewhere"' })).statusCode, 200);
      const unquoted = String(first.headers.etag).slice(1, -1);
      assert.equal((await get(url, { 'if-none-match': unquoted })).statusCode, 200, 'an entity tag is quoted');
      assert.equal((await get(url, { 'if-none-match': `Z${unquoted}Z` })).statusCode, 200);
      for (const odd of ['', '"', 'W/', ',', '""', 'x'.repeat(10_000), 'ÿ']) {
        assert.equal((await get(url, { 'if-none-match': odd })).statusCode, 200, JSON.stringify(odd.slice(0, 20)));
      }
    });
  }

  it('gives the same answer the same ETag across requests, though each carries its own request id', async () => {
    const [a, b] = [await get(LIST), await get(LIST)];
    assert.notEqual(a.json().request_id, b.json().request_id);
    assert.equal(a.headers.etag, b.headers.etag);
    assert.deepEqual(withoutRequestId(a.json()), withoutRequestId(b.json()));
  });

  it('gives another query, page or market another ETag', async () => {
    const tags = await Promise.all(
      [LIST, `${LIST}&country=DE`, `${LIST}&locale=it`, `${LIST}&offset=1`, '/public/v1/products?limit=5', '/public/v1/products?q=caffe'].map(
        async (url) => (await get(url)).headers.etag,
      ),
    );
    assert.equal(new Set(tags).size, tags.length, tags.join(' '));
  });

  it('moves the ETag of every answer showing a product when the product changes, and of no other', async () => {
    const listBefore = await get(LIST);
    const [changed, unchanged] = listBefore.json().products.map((product: any) => `/public/v1/products/${product.handle}`);
    const detailBefore = await get(changed);
    const otherBefore = await get(unchanged);
    const variant = detailBefore.json().product.variants[0];

    const admin = adminClient(testApp);
    const patched = await admin('PATCH', `/admin/v1/variants/${variant.id}`, { prices: [{ currency: 'EUR', amount: Math.round(variant.price.amount * 100) + 100 }] });
    assert.equal(patched.statusCode, 200, patched.body);

    const detailAfter = await get(changed, { 'if-none-match': String(detailBefore.headers.etag) });
    assert.equal(detailAfter.statusCode, 200, 'the old ETag no longer matches');
    assert.notEqual(detailAfter.headers.etag, detailBefore.headers.etag);
    assert.equal(detailAfter.json().product.variants[0].price.amount, variant.price.amount + 1);

    const listAfter = await get(LIST);
    assert.notEqual(listAfter.headers.etag, listBefore.headers.etag);

    const otherAfter = await get(unchanged, { 'if-none-match': String(otherBefore.headers.etag) });
    assert.equal(otherAfter.statusCode, 304, 'a product that did not change keeps its ETag');
  });

  it('does not let caches keep errors: 400, 404 and 429 answers are no-store', async () => {
    for (const url of ['/public/v1/products?limit=0', '/public/v1/products/no-such-product', '/public/v1/products?country=JP']) {
      const response = await get(url);
      assert.ok(response.statusCode >= 400, url);
      assert.equal(response.headers['cache-control'], 'no-store', url);
      assert.equal(response.headers.etag, undefined, url);
    }
  });
});

describe('max-age 0: every cache revalidates', () => {
  const testApp = useTestApp({ config: { catalogCache: { maxAgeSeconds: 0, staleWhileRevalidateSeconds: 60 } } });

  it('answers Cache-Control: no-cache and still revalidates with the ETag', async () => {
    const response = await testApp.app.inject({ url: LIST });
    assert.equal(response.headers['cache-control'], 'no-cache');
    const again = await testApp.app.inject({ url: LIST, headers: { 'if-none-match': String(response.headers.etag) } });
    assert.equal(again.statusCode, 304);
  });
});

describe('compression', () => {
  const testApp = useTestApp();
  const get = (url: string, headers: Record<string, string> = {}) => testApp.app.inject({ url, headers });

  for (const url of [LIST, DETAIL, '/openapi.json']) {
    it(`${url}: gzip and br bodies decode to the same JSON as the plain one`, async () => {
      const plain = await get(url);
      assert.equal(plain.headers['content-encoding'], undefined);
      const expected = withoutRequestId(plain.json());
      for (const coding of ['gzip', 'br']) {
        const response = await get(url, { 'accept-encoding': coding });
        assert.equal(response.statusCode, 200);
        assert.equal(response.headers['content-encoding'], coding);
        assert.ok(response.rawPayload.length < plain.rawPayload.length / 2, `${coding} is smaller`);
        assert.equal(Number(response.headers['content-length']), response.rawPayload.length);
        const body = decoded(response);
        assert.deepEqual(withoutRequestId(body), expected);
        if (url !== '/openapi.json') assert.equal(body.request_id, response.headers['x-request-id'], 'the tail is this answer own');
        assert.notEqual(response.headers.etag, plain.headers.etag, 'each coding has its own strong validator');
        const revalidated = await get(url, { 'accept-encoding': coding, 'if-none-match': String(response.headers.etag) });
        assert.equal(revalidated.statusCode, 304);
      }
    });
  }

  it('answers 304 only to the tag of the form the request would get: a cache never gets a 304 for bytes it does not hold', async () => {
    const gzip = await get(LIST, { 'accept-encoding': 'gzip' });
    const asBrotli = await get(LIST, { 'accept-encoding': 'br', 'if-none-match': String(gzip.headers.etag) });
    assert.equal(asBrotli.statusCode, 200);
    assert.equal(asBrotli.headers['content-encoding'], 'br');
    const plain = await get(LIST, { 'if-none-match': String(gzip.headers.etag) });
    assert.equal(plain.statusCode, 200);
    const both = await get(LIST, { 'accept-encoding': 'br', 'if-none-match': `${gzip.headers.etag}, ${asBrotli.headers.etag}` });
    assert.equal(both.statusCode, 304);
    assert.equal(both.headers.etag, asBrotli.headers.etag);
  });

  it('prefers br, honours q-values and answers identity when nothing acceptable is offered', async () => {
    assert.equal((await get(LIST, { 'accept-encoding': 'GZIP' })).headers['content-encoding'], 'gzip', 'codings are case-insensitive');
    assert.equal((await get(LIST, { 'accept-encoding': 'gzip, deflate, br' })).headers['content-encoding'], 'br');
    assert.equal((await get(LIST, { 'accept-encoding': 'br;q=0.1, gzip' })).headers['content-encoding'], 'gzip');
    assert.equal((await get(LIST, { 'accept-encoding': 'deflate' })).headers['content-encoding'], undefined);
    assert.equal((await get(LIST, { 'accept-encoding': 'identity' })).headers['content-encoding'], undefined);
  });

  it('leaves bodies under about 1 KB uncompressed', async () => {
    const empty = await get('/public/v1/products?q=zzzzqqq', { 'accept-encoding': 'gzip, br' });
    assert.equal(empty.json().count, 0);
    assert.equal(empty.headers['content-encoding'], undefined);
  });

  it('compresses the answers of the other routes too: a sandbox cart, with no-store', async () => {
    const token = await testApp.newKey();
    const cart = await testApp.newCart(token);
    const purchasable = (await get(LIST)).json().products.flatMap((product: any) =>
      product.variants.filter((variant: any) => variant.availability.purchasable && variant.price?.currency === 'EUR').slice(0, 1),
    );
    for (const variant of purchasable) {
      const added = await testApp.call(token, 'POST', `/sandbox/v1/carts/${cart.id}/items`, { variant_id: variant.id, quantity: 1 });
      assert.equal(added.statusCode, 201, added.body);
    }
    const plain = await get(`/sandbox/v1/carts/${cart.id}`, { authorization: `Bearer ${token}` });
    assert.ok(plain.rawPayload.length > 1024, 'a cart of a page of products is over the threshold');
    const compressed = await get(`/sandbox/v1/carts/${cart.id}`, { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip' });
    assert.equal(compressed.statusCode, 200);
    assert.equal(compressed.headers['cache-control'], 'no-store');
    assert.equal(compressed.headers['content-encoding'], 'gzip');
    assert.deepEqual(decoded(compressed), plain.json());
  });

  it('reuses the compressed form: repeated reads send the very same compressed head', async () => {
    const [a, b] = [await get(LIST, { 'accept-encoding': 'br' }), await get(LIST, { 'accept-encoding': 'br' })];
    // Both streams share every byte up to the request id, which differs.
    const tailLength = 60;
    assert.deepEqual(a.rawPayload.subarray(0, a.rawPayload.length - tailLength), b.rawPayload.subarray(0, b.rawPayload.length - tailLength));
  });
});

describe('/openapi.json caching', () => {
  const testApp = useTestApp();

  it('is cacheable and revalidates with its ETag', async () => {
    const response = await testApp.app.inject({ url: '/openapi.json' });
    assert.match(String(response.headers['cache-control']), /^public, max-age=\d+/);
    assert.match(String(response.headers.etag), STRONG_ETAG);
    const again = await testApp.app.inject({ url: '/openapi.json', headers: { 'if-none-match': String(response.headers.etag) } });
    assert.equal(again.statusCode, 304);
  });
});
