import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { McpTestClient } from '../support/mcp-client.js';
import { TAXONOMY_CATALOG } from '../support/taxonomy-catalog.js';
import { useTestApp } from '../support/test-app.js';

describe('MCP list_categories', () => {
  const testApp = useTestApp({ catalog: TAXONOMY_CATALOG });
  const servers: Record<string, McpTestClient> = {};
  before(async () => {
    const base = await testApp.app.listen({ port: 0, host: '127.0.0.1' });
    for (const path of ['/mcp', '/mcp/sandbox']) servers[path] = await McpTestClient.connect(`${base}${path}`);
  });
  after(() => Promise.all(Object.values(servers).map((client) => client.close())));

  const rest = async (url: string) => {
    const { request_id: _, ...body } = (await testApp.client.get(url)).data;
    return body;
  };

  for (const path of ['/mcp', '/mcp/sandbox']) {
    it(`${path}: read-only, with an input schema and no outputSchema (tools/list stays small), telling agents to browse with search_catalog`, async () => {
      const { tools } = await servers[path]!.client.listTools();
      const tool = tools.find((candidate) => candidate.name === 'list_categories');
      assert.ok(tool, 'list_categories is listed');
      assert.equal(tool.annotations?.readOnlyHint, true);
      assert.equal(tool.annotations?.destructiveHint, false);
      assert.deepEqual(Object.keys(tool.inputSchema.properties ?? {}).sort(), ['available', 'country', 'currency', 'locale']);
      assert.equal(tool.outputSchema, undefined);
      assert.match(tool.description ?? '', /search_catalog/);
      assert.match(tool.description ?? '', /\bcategory\b.*\bcollection\b/);
    });

    it(`${path}: returns the categories and the collections that REST returns, in every market and with available`, async () => {
      for (const args of [{}, { locale: 'it' }, { country: 'GB', available: true }, { country: 'GB', available: false }, { country: 'US', locale: 'IT', available: true }]) {
        const query = new URLSearchParams(Object.entries(args).map(([name, value]) => [name, String(value)] as [string, string])).toString();
        const outcome = await servers[path]!.call('list_categories', args);
        assert.equal(outcome.isError, false, JSON.stringify(outcome.data));
        const { request_id: requestId, categories, collections, context } = outcome.data;
        assert.match(requestId, /^[0-9a-f-]{36}$/);
        assert.deepEqual({ categories, context }, await rest(`/public/v1/categories?${query}`), query);
        assert.deepEqual({ collections, context }, await rest(`/public/v1/collections?${query}`), query);
      }
    });
  }

  it('counts are those of the catalog: subcategories included, each product once', async () => {
    const { data } = await servers['/mcp']!.call('list_categories', { country: 'IT' });
    const coffee = data.categories.find((category: { handle: string }) => category.handle === 'coffee');
    assert.deepEqual(coffee, { handle: 'coffee', title: 'Coffee', parent: null, depth: 0, product_count: 2 });
    assert.deepEqual(data.collections[0], { handle: 'summer', title: 'Summer', product_count: 2 });
  });

  it('each product_count is the count search_catalog finds with that handle as category or collection', async () => {
    const mcp = servers['/mcp']!;
    for (const market of [{ country: 'GB', available: true }, { locale: 'it' }]) {
      const { data } = await mcp.call('list_categories', market);
      for (const [argument, entries] of [['category', data.categories], ['collection', data.collections]] as const) {
        for (const { handle, product_count } of entries) {
          const search = await mcp.call('search_catalog', { ...market, [argument]: [handle] });
          assert.equal(search.isError, false, JSON.stringify(search.data));
          assert.equal(search.data.count, product_count, `${argument} ${handle} ${JSON.stringify(market)}`);
        }
      }
    }
  });

  it('an invalid market is a REGION_NOT_FOUND tool error; a bad argument INVALID_QUERY naming it', async () => {
    const mcp = servers['/mcp']!;
    for (const args of [{ country: 'ZZ' }, { country: 'GB', currency: 'EUR' }, { locale: 'fr' }]) {
      const outcome = await mcp.call('list_categories', args);
      assert.equal(outcome.isError, true, JSON.stringify(args));
      assert.equal(outcome.data.error.code, 'REGION_NOT_FOUND', JSON.stringify(args));
    }
    for (const [args, field] of [
      [{ available: 'maybe' }, 'available'],
      [{ country: 'ITA' }, 'country'],
      [{ category: 'coffee' }, 'category'],
    ] as const) {
      const outcome = await mcp.call('list_categories', args);
      assert.equal(outcome.isError, true, JSON.stringify(args));
      assert.equal(outcome.data.error.code, 'INVALID_QUERY', JSON.stringify(args));
      assert.match(outcome.data.error.message, new RegExp(field));
      assert.match(outcome.data.error.hint, /inputSchema of list_categories/);
    }
  });
});
