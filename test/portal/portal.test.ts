import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { prefersHtml } from '../../src/portal/accept.js';
import { deprecationsOf } from '../../src/portal/deprecations.js';
import { ERP_TOKEN, withAdmin } from '../support/admin.js';
import { useTestApp } from '../support/test-app.js';

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

describe('GET / with CORS_ORIGINS listing origins', () => {
  const t = useTestApp({ config: { corsOrigins: ['https://shop.example'] } });

  test('varies on Origin as well as Accept, so a shared cache never hands one origin the answer meant for another', async () => {
    for (const accept of [BROWSER_ACCEPT, 'application/json']) {
      const response = await t.app.inject({ url: '/', headers: { accept, origin: 'https://shop.example' } });
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers['access-control-allow-origin'], 'https://shop.example');
      const vary = String(response.headers.vary).toLowerCase().split(/\s*,\s*/);
      assert.ok(vary.includes('origin') && vary.includes('accept'), String(response.headers.vary));
    }
  });
});

describe('portal pages and the catalog rate limit', () => {
  const t = useTestApp({ config: { catalogRateLimit: 3 } });

  test('count against the catalog window: a client past it gets 429 on the pages too', async () => {
    const statuses: number[] = [];
    for (const url of ['/', '/docs/changelog', '/public/v1/products?limit=1', '/docs/sandbox']) {
      statuses.push((await t.app.inject({ url, headers: { accept: BROWSER_ACCEPT } })).statusCode);
    }
    assert.deepEqual(statuses, [200, 200, 200, 429]);
    const limited = await t.app.inject({ url: '/public/v1/products?limit=1' });
    assert.match(limited.json().error.hint, /^Wait \d+ seconds before retrying\. On a deployment of your own \(local development\), CATALOG_RATE_LIMIT=0 lifts this limit\.$/);
  });
});

const SWAGGER_UI = ['/docs/static/swagger-ui.css', '/docs/static/index.css', '/docs/static/swagger-ui-bundle.js', '/docs/static/swagger-ui-standalone-preset.js', '/docs/static/favicon-32x32.png'];

/** The URLs of our stylesheet and script, as the sandbox guide links them. */
async function ownAssets(app: FastifyInstance): Promise<string[]> {
  const html = (await app.inject({ url: '/docs/sandbox', headers: { accept: BROWSER_ACCEPT } })).body;
  return [...html.matchAll(/(?:href|src)="(\/docs\/assets\/[^"]+)"/g)].map((match) => match[1]!);
}

describe("the portal's static files", () => {
  const t = useTestApp();

  test("ours carry their content's hash in their names and are cached for good; their plain names are 404", async () => {
    const urls = await ownAssets(t.app);
    assert.equal(urls.length, 2, urls.join());
    for (const url of urls) {
      assert.match(url, /^\/docs\/assets\/(portal\.[0-9a-f]{12}\.css|sandbox-guide\.[0-9a-f]{12}\.js)$/);
      const response = await t.app.inject({ url });
      assert.equal(response.statusCode, 200, url);
      assert.equal(response.headers['cache-control'], 'public, max-age=31536000, immutable', url);
      assert.match(response.headers['content-type'] as string, /^text\/(css|javascript); charset=utf-8$/, url);
      assert.match(response.headers['content-security-policy'] as string, /^default-src 'self';/, url);
    }
    for (const url of ['/docs/assets/portal.css', '/docs/assets/sandbox-guide.js', '/docs/assets/console.js']) assert.equal((await t.app.inject({ url })).statusCode, 404, url);
  });

  test("Swagger UI's are kept a day, prepared once: compressed as asked, 304 for the tag held", async () => {
    for (const url of SWAGGER_UI) {
      const response = await t.app.inject({ url, headers: { 'accept-encoding': 'br, gzip' } });
      assert.equal(response.statusCode, 200, url);
      assert.equal(response.headers['cache-control'], 'public, max-age=86400', url);
      // The small ones (under 1 KB) go as they are.
      if (/swagger-ui[^/]*\.(css|js)$/.test(url)) assert.equal(response.headers['content-encoding'], 'br', url);
      const again = await t.app.inject({ url, headers: { 'accept-encoding': 'br, gzip', 'if-none-match': response.headers.etag as string } });
      assert.equal(again.statusCode, 304, url);
    }
  });
});

describe("the portal's static files and the catalog rate limit", () => {
  const t = useTestApp({ config: { catalogRateLimit: 2 } });

  test('do not count against the window, so browsing /docs does not use it up', async () => {
    const urls = [...SWAGGER_UI, ...(await ownAssets(t.app))];
    for (let visit = 0; visit < 5; visit++) {
      for (const url of urls) assert.equal((await t.app.inject({ url })).statusCode, 200, url);
    }
    // The window of 2 holds the sandbox guide (read above) and one more catalog request.
    assert.equal((await t.app.inject({ url: '/public/v1/products?limit=1' })).statusCode, 200);
    assert.equal((await t.app.inject({ url: '/public/v1/products?limit=1' })).statusCode, 429);
  });
});

describe('GET /', () => {
  const t = useTestApp();

  test('a browser gets the home page with the live markets; an API client the JSON index of the same links', async () => {
    const page = await t.app.inject({ url: '/', headers: { accept: BROWSER_ACCEPT } });
    assert.equal(page.statusCode, 200);
    assert.match(page.headers['content-type'] as string, /^text\/html; charset=utf-8/);
    assert.equal(page.headers.vary, 'Accept');
    for (const region of t.app.catalog.markets().regions) assert.ok(page.body.includes(`<code>${region.id}</code>`), region.id);

    for (const headers of [{}, { accept: '*/*' }, { accept: 'application/json' }, { accept: 'application/json, text/html' }]) {
      const index = await t.client.request({ method: 'GET', url: '/', headers });
      assert.equal(index.statusCode, 200);
      assert.match(index.headers['content-type'] as string, /^application\/json/);
      const base = t.config.publicBaseUrl;
      assert.deepEqual(index.data.links, {
        openapi: `${base}/openapi.json`,
        catalog: `${base}/public/v1/products`,
        changes: `${base}/public/v1/changes`,
        changes_stream: `${base}/public/v1/changes/stream`,
        api_reference: `${base}/docs`,
        sandbox_guide: `${base}/docs/sandbox`,
        changelog: `${base}/docs/changelog`,
        sandbox_discovery: `${base}/sandbox/v1`,
        sandbox_keys: `${base}/sandbox/v1/keys`,
        mcp_catalog: `${base}/mcp`,
        mcp_sandbox: `${base}/mcp/sandbox`,
        ucp_profile: `${base}/.well-known/ucp`,
        ucp_rest: `${base}/ucp/v1`,
        ucp_mcp: `${base}/ucp/mcp`,
        acp_discovery: `${base}/.well-known/acp.json`,
        acp_checkout_sessions: `${base}/acp/checkout_sessions`,
        acp_carts: `${base}/acp/carts`,
        acp_delegate_payment: `${base}/acp/agentic_commerce/delegate_payment`,
        acp_mcp: `${base}/acp/mcp`,
        acp_feed: `${base}/acp/feed`,
      });
    }
  });

  test('the quick start shows the UCP business profile, which answers where it says', async () => {
    const page = await t.app.inject({ url: '/', headers: { accept: BROWSER_ACCEPT } });
    const profileUrl = `${t.config.publicBaseUrl}/.well-known/ucp`;
    assert.ok(page.body.includes(`<a href="${profileUrl}">${profileUrl}</a>`), 'the profile link');
    const profile = await t.app.inject({ url: new URL(profileUrl).pathname });
    assert.equal(profile.statusCode, 200);
    assert.equal(profile.json().ucp.services['dev.ucp.shopping'][0].endpoint.startsWith(t.config.publicBaseUrl), true);
  });

  test("the quick start shows the ACP entry points, each served where it says: the discovery document names the checkout sessions' base, the feed answers", async () => {
    const page = await t.app.inject({ url: '/', headers: { accept: BROWSER_ACCEPT } });
    const base = t.config.publicBaseUrl;
    const discoveryUrl = `${base}/.well-known/acp.json`;
    const feedUrl = `${base}/acp/feed/${t.app.catalog.markets().default_market.country}/products.jsonl`;
    assert.ok(page.body.includes(`<a href="${discoveryUrl}">${discoveryUrl}</a>`), 'the discovery link');
    for (const shown of [`<code>${base}/acp/checkout_sessions</code>`, `<code>${base}/acp/mcp</code>`, `<code>${base}/acp/carts</code>`, `<code>${base}/acp/agentic_commerce/delegate_payment</code>`, `curl '${feedUrl}'`]) {
      assert.ok(page.body.includes(shown), shown);
    }
    const discovery = await t.app.inject({ url: new URL(discoveryUrl).pathname });
    assert.equal(discovery.statusCode, 200);
    assert.equal(`${discovery.json().api_base_url}/checkout_sessions`, `${base}/acp/checkout_sessions`);
    assert.equal((await t.app.inject({ url: new URL(feedUrl).pathname })).statusCode, 200);
    const index = (await t.client.get('/')).data.links;
    const operations = (await t.client.get('/openapi.json')).data.paths;
    for (const url of [index.acp_checkout_sessions, index.acp_carts, index.acp_delegate_payment, index.acp_mcp]) assert.ok(operations[new URL(url).pathname]?.post, url);
  });

  test('other unknown URLs keep the public API 404, under /docs too', async () => {
    for (const url of ['/index.html', '/docs/nothing-here', '/docs/assets/nothing.js']) {
      const response = await t.app.inject({ url });
      assert.equal(response.statusCode, 404, url);
      assert.equal(response.json().error.code, 'INVALID_QUERY', url);
    }
  });

  test('portal pages carry a same-origin Content-Security-Policy and a short public Cache-Control', async () => {
    for (const url of ['/', '/docs', '/docs/sandbox', '/docs/changelog', '/console']) {
      const response = await t.app.inject({ url, headers: { accept: BROWSER_ACCEPT } });
      assert.equal(response.statusCode, 200, url);
      assert.match(response.headers['content-security-policy'] as string, /^default-src 'self';/, url);
      assert.equal(response.headers['cache-control'], 'public, max-age=60', url);
    }
  });
});

describe('/docs and /openapi.json', () => {
  // The admin API on: its routes have a document of their own, which /docs must not show.
  const t = useTestApp(withAdmin());

  test('the UI is sent to /openapi.json for its document, and its own routes are not in it', async () => {
    // The router ignores a trailing slash, so both spellings reach Swagger UI's document route.
    for (const url of ['/docs/json', '/docs/json/', '/docs/json/?x=1']) {
      const redirect = await t.app.inject({ url });
      assert.equal(redirect.statusCode, 307, url);
      assert.equal(redirect.headers.location, '/openapi.json', url);
    }
    assert.equal((await t.app.inject({ url: '/admin/openapi.json', headers: { authorization: `Bearer ${ERP_TOKEN}` } })).statusCode, 200);
    const paths = Object.keys((await t.app.inject({ url: '/openapi.json' })).json().paths);
    assert.deepEqual(paths.filter((path) => path.startsWith('/docs') || path.startsWith('/admin')), []);
  });
});

describe('/console', () => {
  const off = useTestApp();
  const on = useTestApp(withAdmin());
  const consolePage = async (app: FastifyInstance) => (await app.inject({ url: '/console', headers: { accept: BROWSER_ACCEPT } })).body;

  test('with the admin API off, says so and loads no script; with it on, loads its own hashed script and asks for a token', async () => {
    const offPage = await consolePage(off.app);
    assert.match(offPage, /The admin API is off on this server/);
    assert.doesNotMatch(offPage, /<script|<form/);

    const onPage = await consolePage(on.app);
    assert.doesNotMatch(onPage, /The admin API is off/);
    const scripts = [...onPage.matchAll(/<script src="([^"]+)"/g)].map((match) => match[1]!);
    assert.equal(scripts.length, 1);
    assert.match(scripts[0]!, /^\/docs\/assets\/console\.[0-9a-f]{12}\.js$/);
    const script = await on.app.inject({ url: scripts[0]! });
    assert.equal(script.statusCode, 200);
    assert.equal(script.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.match(onPage, /<label for="sign-in-token">Admin token<\/label>\s*<input id="sign-in-token" type="password"/);
    // No name: were the form ever sent without the script, the token would not go into a URL.
    assert.doesNotMatch(onPage.match(/<input id="sign-in-token"[^>]*>/)![0], /\bname=/);
  });
});

describe('/docs/changelog', () => {
  const t = useTestApp();

  test('shows the deprecated compatibility route with the Sunset date the route itself sends', async () => {
    const token = await t.newKey();
    const cart = await t.newCart(token);
    const compatibility = await t.call(token, 'POST', `/sandbox/v1/carts/${cart.id}`, { action: 'select_shipping_option', shipping_option_id: 'sandbox_standard' });
    const sunset = compatibility.headers.sunset as string;
    assert.ok(sunset);

    const page = (await t.app.inject({ url: '/docs/changelog' })).body;
    const row = page.match(/<tr>\s*<td><a href="\/docs#\/sandbox\/applySandboxCartAction"><code>POST \/sandbox\/v1\/carts\/\{id\}<\/code><\/a>[\s\S]*?<\/tr>/)?.[0];
    assert.ok(row, 'the compatibility route is listed');
    assert.ok(row.includes(`<td class="sunset">${sunset}</td>`), row);
  });
});

test('deprecationsOf finds deprecated operations, parameters and properties, with the Sunset header const', () => {
  const document = {
    paths: {
      '/things': {
        get: {
          tags: ['things'],
          operationId: 'listThings',
          summary: 'List things',
          deprecated: true,
          parameters: [
            { in: 'query', name: 'page', deprecated: true, description: 'Use cursor.' },
            { in: 'query', name: 'cursor', schema: { type: 'string' } },
          ],
          responses: { 200: { headers: { Sunset: { schema: { type: 'string', const: 'Fri, 01 Jan 2027 00:00:00 GMT' } } } } },
        },
        post: {
          requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { colour: { type: 'string', deprecated: true, description: 'Use color.' } } } } } },
          responses: {},
        },
      },
    },
    components: {
      schemas: {
        Thing: { type: 'object', properties: { parts: { type: 'array', items: { anyOf: [{ type: 'object', properties: { old: { deprecated: true } } }] } } } },
      },
    },
  };
  assert.deepEqual(deprecationsOf(document), [
    { kind: 'operation', subject: 'GET /things', description: 'List things', reference: '#/things/listThings', sunset: 'Fri, 01 Jan 2027 00:00:00 GMT' },
    { kind: 'parameter', subject: 'query parameter page', operation: 'GET /things', description: 'Use cursor.' },
    { kind: 'property', subject: 'request body (application/json).colour', operation: 'POST /things', description: 'Use color.' },
    { kind: 'property', subject: 'Thing.parts[].old', description: '' },
  ]);
});

test('prefersHtml: browsers yes; wildcards, JSON first, equal rank or no Accept no', () => {
  assert.equal(prefersHtml(BROWSER_ACCEPT), true);
  assert.equal(prefersHtml('text/html'), true);
  assert.equal(prefersHtml('text/*, application/json;q=0.5'), true);
  assert.equal(prefersHtml(undefined), false);
  assert.equal(prefersHtml('*/*'), false);
  assert.equal(prefersHtml('application/json'), false);
  assert.equal(prefersHtml('application/json, text/html'), false);
  assert.equal(prefersHtml('text/html;q=0.5, */*'), false);
});
