import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { MAX_LOOKUP_IDENTIFIERS } from '../../src/catalog/queries/lookup.js';
import { McpTestClient } from '../support/mcp-client.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { platformCapability, platformProfile, ucpAgent, ucpTestConfig, usePlatformServer } from '../support/ucp-platform.js';
import { assertValid, ucpValidator } from '../support/ucp-validator.js';

const { validator, skip } = await ucpValidator();

const SEARCH = 'dev.ucp.shopping.catalog.search';
const LOOKUP = 'dev.ucp.shopping.catalog.lookup';
const TOOLS = ['get_product', 'lookup_catalog', 'search_catalog'];

/**
 * UCP's catalog tools on /ucp/mcp through the official MCP client: the release's
 * arguments (`meta` naming the platform profile, the request under `catalog`), every
 * result checked against the release's schemas with the capabilities negotiated, every
 * protocol error as a JSON-RPC error with UCP's `data`.
 */
describe('UCP catalog over MCP', { skip }, () => {
  const platform = usePlatformServer();
  let testApp: TestApp;
  let mcp: McpTestClient;
  before(async () => {
    testApp = await startTestApp({ config: { ucp: ucpTestConfig() } });
    const base = await testApp.app.listen({ port: 0, host: '127.0.0.1' });
    mcp = await McpTestClient.connect(`${base}/ucp/mcp`);
    platform.serve('/all.json', { body: platformProfile() });
    platform.serve('/lookup-only.json', { body: platformProfile({ capabilities: { [LOOKUP]: [platformCapability(LOOKUP)] } }) });
  });
  after(async () => {
    await mcp?.close();
    await testApp?.close();
  });

  const meta = (profilePath: string) => ({ 'ucp-agent': { profile: platform.url(profilePath) } });

  /** Calls a tool for the platform at `profilePath` and checks its result with the validator, for the capabilities the two profiles share. */
  async function call(tool: string, catalog: unknown, profilePath = '/all.json'): Promise<Record<string, any>> {
    const result = (await mcp.client.callTool({ name: tool, arguments: { meta: meta(profilePath), catalog } })) as CallToolResult;
    const business = (await testApp.client.get('/.well-known/ucp')).data;
    const declared = JSON.parse(await (await fetch(platform.url(profilePath))).text());
    const { capabilities } = validator!.negotiate(business, declared);
    assertValid(validator!.validateMcpResult(tool, result, { capabilities }), `${tool} result`);
    assert.notEqual(result.isError, true);
    return result.structuredContent!;
  }

  /** A call that must fail with a JSON-RPC error: its code and UCP data, checked with the validator. */
  async function refused(args: Record<string, unknown>, tool = 'search_catalog'): Promise<{ code: number; data: { code: string; content: string } }> {
    const error = await mcp.client.callTool({ name: tool, arguments: args }).then(
      (result) => assert.fail(`expected a JSON-RPC error, got ${JSON.stringify(result).slice(0, 300)}`),
      (rejection: { code: number; message: string; data: { code: string; content: string } }) => rejection,
    );
    assertValid(validator!.validateMcpError({ code: error.code, message: error.message, data: error.data }), 'the JSON-RPC error');
    return error;
  }

  it('lists the release\'s three catalog tools, read-only, taking meta and catalog', async () => {
    const { tools } = await mcp.client.listTools();
    const catalogTools = tools.filter((tool) => TOOLS.includes(tool.name));
    assert.deepEqual(catalogTools.map((tool) => tool.name).sort(), TOOLS);
    for (const tool of catalogTools) {
      assert.deepEqual(tool.inputSchema.required?.sort(), ['catalog', 'meta'], tool.name);
      assert.equal(tool.annotations?.readOnlyHint, true, tool.name);
      assert.ok((tool.description ?? '').length > 200, tool.name);
    }
  });

  it('search_catalog: a query, filters and a market give the products REST gives, with the search capability in ucp', async () => {
    const request = { query: 'linen', context: { address_country: 'US', language: 'it' }, filters: { categories: ['kitchen-and-table'], available: true } };
    const answer = await call('search_catalog', request);
    assert.deepEqual(answer.ucp, { version: '2026-04-08', status: 'success', capabilities: { [SEARCH]: [{ version: '2026-04-08' }] } });
    assert.ok(answer.products.length > 0);
    assert.ok(answer.products.every((product: any) => product.price_range.min.currency === 'USD'));
    const rest = await testApp.client.request({
      method: 'POST',
      url: '/ucp/v1/catalog/search',
      headers: { 'ucp-agent': ucpAgent(platform.url('/all.json')) },
      payload: request,
    });
    assert.deepEqual(answer, rest.data);
  });

  it('search_catalog pages with pagination.cursor', async () => {
    const first = await call('search_catalog', { filters: { categories: ['pantry'] }, pagination: { limit: 5 } });
    assert.equal(first.products.length, 5);
    assert.equal(first.pagination.has_next_page, true);
    const second = await call('search_catalog', { filters: { categories: ['pantry'] }, pagination: { limit: 5, cursor: first.pagination.cursor } });
    const ids = new Set([...first.products, ...second.products].map((product: any) => product.id));
    assert.equal(ids.size, 10);
    assert.equal(second.pagination.total_count, first.pagination.total_count);
  });

  it('lookup_catalog: several ids with one unknown, correlated by inputs, the unknown one a not_found message', async () => {
    const answer = await call('lookup_catalog', { ids: ['BV-OIL-COR-500', 'nope', 'BV-OIL-COR-3000'], context: { address_country: 'FR' } });
    assert.deepEqual(answer.ucp.capabilities, { [LOOKUP]: [{ version: '2026-04-08' }] });
    assert.equal(answer.products.length, 1);
    assert.deepEqual(
      answer.products[0].variants.map((variant: any) => [variant.sku, variant.price.amount, variant.inputs]),
      [
        ['BV-OIL-COR-500', 1390, [{ id: 'BV-OIL-COR-500', match: 'exact' }]],
        ['BV-OIL-COR-3000', 4850, [{ id: 'BV-OIL-COR-3000', match: 'exact' }]],
      ],
    );
    assert.deepEqual(answer.messages, [{ type: 'info', code: 'not_found', content: 'nope' }]);
  });

  it('get_product: option selection with availability signals; an unknown id is a result with ucp.status error', async () => {
    const found = await call('get_product', { id: 'BV-LIN-GRE-TER-SM', selected: [{ name: 'Size', label: 'L/XL' }] });
    assert.equal(found.product.variants[0].sku, 'BV-LIN-GRE-TER-SM');
    assert.deepEqual(found.product.selected, [{ name: 'Colour', label: 'Terracotta' }, { name: 'Size', label: 'S/M' }]);
    const unknown = await call('get_product', { id: 'prod_000000000000000000000000' });
    assert.equal(unknown.ucp.status, 'error');
    assert.equal(unknown.messages[0].code, 'not_found');
    assert.equal(unknown.product, undefined);
  });

  it('applies the negotiation: a platform without catalog search gets capabilities_incompatible for search_catalog, while lookup_catalog answers', async () => {
    const search = await call('search_catalog', { query: 'olive' }, '/lookup-only.json');
    assert.equal(search.ucp.status, 'error');
    assert.deepEqual(search.products, []);
    assert.equal(search.messages[0].code, 'capabilities_incompatible');
    const lookup = await call('lookup_catalog', { ids: ['BV-OIL-COR-500'] }, '/lookup-only.json');
    assert.equal(lookup.ucp.status, 'success');
  });

  describe('bad input: JSON-RPC errors with UCP data', () => {
    it('-32602 invalid_request for arguments outside the schema, naming the field', async () => {
      const error = await refused({ meta: meta('/all.json'), catalog: { query: 'olive', pagination: { limit: 'ten' } } });
      assert.equal(error.code, -32602);
      assert.equal(error.data.code, 'invalid_request');
      assert.match(error.data.content, /limit/);
      const missing = await refused({ meta: meta('/all.json') }, 'lookup_catalog');
      assert.equal(missing.code, -32602);
      assert.match(missing.data.content, /catalog/);
    });

    it('-32602 invalid_request for a search without a query word or a filter, and for a forged cursor', async () => {
      for (const catalog of [{}, { query: 'olive', pagination: { cursor: 'forged' } }]) {
        const error = await refused({ meta: meta('/all.json'), catalog });
        assert.equal(error.code, -32602);
        assert.equal(error.data.code, 'invalid_request');
      }
    });

    it(`-32602 request_too_large for more than ${MAX_LOOKUP_IDENTIFIERS} ids`, async () => {
      const ids = Array.from({ length: MAX_LOOKUP_IDENTIFIERS + 1 }, (_, i) => `id-${i}`);
      const error = await refused({ meta: meta('/all.json'), catalog: { ids } }, 'lookup_catalog');
      assert.equal(error.code, -32602);
      assert.equal(error.data.code, 'request_too_large');
    });

    it('-32001 invalid_profile_url without meta["ucp-agent"]', async () => {
      const error = await refused({ catalog: { query: 'olive' } });
      assert.equal(error.code, -32001);
      assert.equal(error.data.code, 'invalid_profile_url');
    });
  });
});
