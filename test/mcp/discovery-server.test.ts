import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DEFAULT_LOCALE, LOCALES } from '../../src/catalog/model/locales.js';
import { DEFAULT_COUNTRY } from '../../src/catalog/queries/market.js';
import { McpTestClient } from '../support/mcp-client.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

describe('POST /mcp: read-only product discovery', () => {
  let testApp: TestApp;
  let base: string;
  before(async () => {
    testApp = await startTestApp();
    base = await testApp.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(() => testApp.close());

  for (const pinCurrent of [false, true]) {
    describe(pinCurrent ? 'client pinned to 2026-07-28' : 'client on 2025-11-25 (SDK default)', () => {
      let mcp: McpTestClient;
      before(async () => {
        mcp = await McpTestClient.connect(`${base}/mcp`, { pinCurrent });
      });
      after(() => mcp.close());

      it('negotiates the expected protocol revision', () => {
        assert.equal(mcp.client.getNegotiatedProtocolVersion(), pinCurrent ? '2026-07-28' : '2025-11-25');
      });

      it('lists exactly the discovery tools, all read-only with an input schema and no outputSchema', async () => {
        const { tools } = await mcp.client.listTools();
        assert.deepEqual(tools.map((tool) => tool.name).sort(), ['get_catalog_changes', 'get_product', 'list_categories', 'list_markets', 'lookup_catalog', 'search_catalog']);
        for (const tool of tools) {
          assert.equal(tool.annotations?.readOnlyHint, true, tool.name);
          assert.equal(tool.annotations?.destructiveHint, false, tool.name);
          assert.equal(tool.outputSchema, undefined, tool.name);
          assert.ok((tool.description ?? '').length > 80, `${tool.name} needs a description an agent can act on`);
        }
      });

      it('search_catalog returns what GET /public/v1/products returns', async () => {
        const viaMcp = await mcp.call('search_catalog', { query: 'caffe', country: 'DE', limit: 3 });
        const viaRest = await testApp.app.inject({ url: '/public/v1/products?q=caffe&country=DE&limit=3' });
        assert.equal(viaMcp.isError, false);
        const { request_id: _a, ...mcpBody } = viaMcp.data;
        const { request_id: _b, ...restBody } = viaRest.json();
        assert.deepEqual(mcpBody, restBody);
        assert.ok(viaMcp.data.count > 0);
      });

      it('search_catalog pages with next_cursor', async () => {
        const first = await mcp.call('search_catalog', { limit: 5 });
        const second = await mcp.call('search_catalog', { limit: 5, cursor: first.data.next_cursor });
        assert.equal(second.data.offset, 5);
        const ids = new Set([...first.data.products, ...second.data.products].map((product: { id: string }) => product.id));
        assert.equal(ids.size, 10);
      });

      it('get_product returns what GET /public/v1/products/{handle} returns', async () => {
        const viaMcp = await mcp.call('get_product', { handle: 'caffe-espresso-blend', country: 'GB', locale: 'it' });
        const viaRest = await testApp.app.inject({ url: '/public/v1/products/caffe-espresso-blend?country=GB&locale=it' });
        assert.deepEqual(viaMcp.data.product, viaRest.json().product);
        assert.equal(viaMcp.data.context.currency, 'GBP');
      });

      it('list_markets lists every region with its currency and countries, the default market and the served locales', async () => {
        const { data } = await mcp.call('list_markets');
        const eu = data.regions.find((region: { id: string }) => region.id === 'reg_eu');
        assert.equal(eu.currency, 'EUR');
        assert.deepEqual([...eu.countries].sort(), ['AT', 'BE', 'DE', 'ES', 'FR', 'NL']);
        assert.equal(data.regions.length, 5);
        assert.deepEqual(data.locales, [...LOCALES]);
        assert.deepEqual(data.default_market, { locale: DEFAULT_LOCALE, country: DEFAULT_COUNTRY });
      });

      it('business failures are tool errors with the REST error codes', async () => {
        const unknown = await mcp.call('get_product', { handle: 'no-such-product' });
        assert.equal(unknown.isError, true);
        assert.equal(unknown.data.error.code, 'PRODUCT_NOT_FOUND');
        const market = await mcp.call('search_catalog', { country: 'JP' });
        assert.equal(market.data.error.code, 'REGION_NOT_FOUND');
        const currency = await mcp.call('get_product', { handle: 'caffe-espresso-blend', country: 'GB', currency: 'EUR' });
        assert.equal(currency.data.error.code, 'REGION_NOT_FOUND');
        const cursor = await mcp.call('search_catalog', { cursor: 'not-a-cursor' });
        assert.equal(cursor.data.error.code, 'INVALID_QUERY');
      });

      it('invalid arguments are rejected before any work', async () => {
        for (const [tool, args] of [
          ['search_catalog', { limit: 21 }],
          ['search_catalog', { limit: 0 }],
          ['search_catalog', { query: 'x'.repeat(121) }],
          ['search_catalog', { cursor: 'c'.repeat(513) }],
          ['search_catalog', { unexpected: true }],
          ['get_product', {}],
          ['get_product', { handle: 'Not A Handle' }],
          ['get_product', { handle: 'x'.repeat(201) }],
          ['list_markets', { extra: 1 }],
        ] as const) {
          const outcome = await mcp.call(tool, args);
          assert.equal(outcome.isError, true, `${tool} ${JSON.stringify(args)}`);
        }
      });

      it('a bad argument is an INVALID_QUERY tool error naming the field and the values it accepts', async () => {
        for (const [tool, args, sentence] of [
          ['search_catalog', { limit: 21 }, 'limit must be an integer from 1 to 20'],
          ['search_catalog', { limit: 'ten' }, 'limit must be an integer from 1 to 20'],
          ['search_catalog', { country: 'ITA' }, 'country must be a string of exactly 2 characters'],
          ['search_catalog', { unexpected: true }, 'unexpected is not accepted (accepted: query, locale, country, currency, limit, cursor, category, collection, tag, available, price_min, price_max, sort)'],
          ['get_product', {}, 'handle is required and must be a string from 1 to 200 characters matching ^[a-z0-9]+(-[a-z0-9]+)*$'],
          ['list_markets', { extra: 1 }, 'extra is not accepted (this tool takes no arguments)'],
        ] as const) {
          const outcome = await mcp.call(tool, args);
          assert.equal(outcome.isError, true);
          assert.equal(outcome.data.error.code, 'INVALID_QUERY', `${tool} ${JSON.stringify(args)}`);
          assert.ok(outcome.data.error.message.includes(sentence), `${outcome.data.error.message} should say "${sentence}"`);
          assert.match(outcome.data.error.hint, new RegExp(`inputSchema of ${tool}`));
          assert.ok(outcome.data.request_id);
        }
        const both = await mcp.call('search_catalog', { limit: 0, query: 'x'.repeat(121) });
        assert.match(both.data.error.message, /query must be a string of at most 120 characters; limit must be an integer from 1 to 20/);
      });

      it('tool error hints name tools and arguments, not REST routes or query parameters', async () => {
        const unknown = await mcp.call('get_product', { handle: 'no-such-product' });
        assert.match(unknown.data.error.hint, /search_catalog \(query\)/);
        const cursor = await mcp.call('search_catalog', { query: 'caffe', cursor: 'not-a-cursor' });
        assert.match(cursor.data.error.hint, /next_cursor of the previous search_catalog result unchanged as cursor, with the same query/);
        const hints = [unknown, cursor];
        for (const args of [{ country: 'JP' }, { country: 'G1' }, { country: 'GB', currency: 'EUR' }, { locale: 'fr' }]) {
          hints.push(await mcp.call('search_catalog', args));
        }
        for (const { data } of hints) {
          assert.doesNotMatch(data.error.hint, /\/public\/|\?|\bq\b|=|offset|GET /, data.error.hint);
        }
      });

      it('each refusal is hinted in the arguments that fix it, and only those', async () => {
        const other = (await mcp.call('search_catalog', { query: 'caffe', limit: 1 })).data.next_cursor;
        const refusals: [string, Record<string, unknown>, string, RegExp, RegExp?][] = [
          ['search_catalog', { country: 'JP' }, 'REGION_NOT_FOUND', /^Pass a served country as country, or omit it for IT; list_markets lists the countries served \(IT, /],
          ['search_catalog', { country: 'G1' }, 'REGION_NOT_FOUND', /^Pass country as two letters, e\.g\. IT; list_markets/],
          ['get_product', { handle: 'caffe-espresso-blend', country: 'GB', currency: 'EUR' }, 'REGION_NOT_FOUND', /^Omit currency, or pass GBP/],
          ['search_catalog', { locale: 'fr' }, 'REGION_NOT_FOUND', /^Pass locale as one of en, it/],
          ['search_catalog', { query: 'caffe', cursor: 'not-a-cursor' }, 'INVALID_QUERY', /unchanged as cursor/, /list_categories|category/],
          ['search_catalog', { query: 'tea', cursor: other }, 'INVALID_QUERY', /^This cursor belongs to another search: pass it only with the query, filters/, /list_categories/],
          ['search_catalog', { price_min: 20, price_max: 10 }, 'INVALID_QUERY', /^Pass price_min at most price_max/, /cursor/],
          ['search_catalog', { category: ['no-such-category'] }, 'INVALID_QUERY', /^Pass category handles from list_categories/, /cursor/],
          ['search_catalog', { collection: ['no-such-collection'] }, 'INVALID_QUERY', /^Pass collection handles from list_categories/, /cursor/],
          ['lookup_catalog', {}, 'INVALID_QUERY', /^Pass at least one identifier in product_id, variant_id or sku \(1 to 50 identifiers/],
        ];
        for (const [tool, args, code, hint, unrelated] of refusals) {
          const { isError, data } = await mcp.call(tool, args);
          const what = `${tool} ${JSON.stringify(args)}: ${data.error?.hint}`;
          assert.equal(isError, true, what);
          assert.equal(data.error.code, code, what);
          assert.match(data.error.hint, hint, what);
          if (unrelated) assert.doesNotMatch(data.error.hint, unrelated, what);
          assert.doesNotMatch(`${data.error.message} ${data.error.hint}`, /\/public\/|\?|=|GET |query parameter|\bsend\b/i, what);
        }
      });

      it('has no cart or checkout tool', async () => {
        const names = await mcp.toolNames();
        assert.ok(!names.some((name) => /cart|checkout|shipping|key/.test(name)), names.join());
      });
    });
  }

  it('/openapi.json documents POST /mcp and POST /mcp/sandbox with their tools', async () => {
    const document = (await testApp.app.inject({ url: '/openapi.json' })).json();
    assert.match(document.paths['/mcp'].post.description, /search_catalog.*get_product.*list_markets/s);
    assert.match(document.paths['/mcp/sandbox'].post.description, /create_sandbox_key.*checkout/s);
    assert.equal(document.paths['/mcp'].get, undefined);
  });

  for (const [header, value] of [
    ['host', 'evil.example'],
    ['origin', 'https://evil.example'],
  ] as const) {
    it(`403 for a ${header} outside the allow-list (DNS rebinding)`, async () => {
      const response = await testApp.app.inject({
        method: 'POST',
        url: '/mcp',
        headers: { [header]: value, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      });
      assert.equal(response.statusCode, 403);
    });
  }
});
