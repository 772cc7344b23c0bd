import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { after, before, test } from 'node:test';
import { useBrowser, useServedApp } from '../support/browser.js';

// Rate limits on, so the answers carry the RateLimit headers a page should be able to read.
const served = useServedApp({ config: { catalogRateLimit: 1000, sandbox: { cartRateLimit: 1000 } } });
const browser = useBrowser();

/**
 * What a storefront on another origin runs: the catalog, a key, a cart created twice
 * under one Idempotency-Key, reading the exposed headers of each answer.
 */
const STOREFRONT_SCRIPT = `
(async () => {
  const api = new URLSearchParams(location.search).get('api');
  const out = {};
  try {
    // A page of 20 products comes Brotli-compressed (Chromium asks for br): its request id
    // is appended to the stream compressed once for every reader of the page.
    const catalog = await fetch(api + '/public/v1/products?limit=20');
    const page = await catalog.json();
    out.catalog = {
      status: catalog.status,
      remaining: catalog.headers.get('RateLimit-Remaining'),
      etag: catalog.headers.get('ETag'),
      products: page.products.length,
      ownRequestId: page.request_id === catalog.headers.get('X-Request-Id'),
    };
    const key = await fetch(api + '/sandbox/v1/keys', { method: 'POST' });
    const token = (await key.json()).access_token;
    out.key = { status: key.status };
    const createCart = () => fetch(api + '/sandbox/v1/carts', {
      method: 'POST',
      headers: { Authorization: 'Bearer ' + token, 'Idempotency-Key': 'storefront-cart', 'Content-Type': 'application/json' },
      body: JSON.stringify({ currency: 'EUR' }),
    });
    const first = await createCart();
    const again = await createCart();
    out.cart = {
      status: first.status,
      remaining: first.headers.get('RateLimit-Remaining'),
      replayed: again.headers.get('Idempotent-Replayed'),
      sameCart: (await first.json()).id === (await again.json()).id,
    };
  } catch (error) {
    out.error = String(error);
  }
  document.getElementById('result').textContent = JSON.stringify(out);
})();
`;

let storefront: Server;
let storefrontUrl = '';
before(async () => {
  storefront = createServer((request, response) => {
    if (request.url?.startsWith('/storefront.js')) {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(STOREFRONT_SCRIPT);
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><pre id="result"></pre><script src="/storefront.js"></script>');
  });
  storefront.listen(0, '127.0.0.1');
  await once(storefront, 'listening');
  storefrontUrl = `http://127.0.0.1:${(storefront.address() as { port: number }).port}`;
});
after(() => new Promise((resolve) => storefront.close(resolve)));

test('a page on another origin reads the catalog, issues a key, creates a cart and reads the exposed headers', async (t) => {
  const guarded = await browser.open(t, [served.url(), storefrontUrl]);
  if (!guarded) return;
  const { page } = guarded;
  assert.notEqual(new URL(storefrontUrl).origin, new URL(served.url()).origin);
  await page.goto(`${storefrontUrl}/?api=${encodeURIComponent(served.url())}`);
  await page.locator('#result:not(:empty)').waitFor();
  const result = JSON.parse(await page.locator('#result').innerText());

  assert.equal(result.error, undefined);
  assert.equal(result.catalog.status, 200);
  assert.equal(result.catalog.products, 20);
  assert.equal(result.catalog.ownRequestId, true);
  assert.match(result.catalog.etag ?? '', /^"[A-Za-z0-9_-]+-br"$/, 'ETag is readable from another origin, and names the Brotli form');
  assert.match(result.catalog.remaining ?? '', /^\d+$/, 'RateLimit-Remaining is readable from another origin');
  assert.equal(result.key.status, 201);
  assert.equal(result.cart.status, 201);
  assert.match(result.cart.remaining ?? '', /^\d+$/);
  assert.equal(result.cart.replayed, 'true', 'Idempotent-Replayed is readable from another origin');
  assert.equal(result.cart.sameCart, true);
  guarded.assertStayedHome();
});
