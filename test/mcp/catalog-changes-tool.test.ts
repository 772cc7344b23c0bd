import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminClient, withAdmin } from '../support/admin.js';
import { product, variant } from '../support/catalog-builder.js';
import { McpTestClient } from '../support/mcp-client.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const CATALOG = [product('olive-oil', { variants: [variant('OIL', { prices: [{ currency: 'EUR', amount: 1000 }, { currency: 'USD', amount: 1200 }] })] })];

describe('get_catalog_changes: what changed since an agent last looked, on /mcp and /mcp/sandbox', () => {
  let testApp: TestApp;
  let base: string;
  before(async () => {
    testApp = await startTestApp(withAdmin({ catalog: CATALOG }));
    base = await testApp.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(() => testApp.close());

  for (const [path, amount] of [['/mcp', 1250], ['/mcp/sandbox', 1350]] as const) {
    it(`${path}: answers the cursor of now, then the changes since it as GET /public/v1/changes does, in the market asked for`, async () => {
      const mcp = await McpTestClient.connect(`${base}${path}`);
      try {
        const start = await mcp.call('get_catalog_changes', {});
        assert.equal(start.isError, false);
        assert.deepEqual(start.data.changes, []);
        const oil = await testApp.variantId('OIL');
        const priced = await adminClient(testApp)('PATCH', `/admin/v1/variants/${oil}`, { prices: [{ currency: 'USD', amount }] });
        assert.equal(priced.statusCode, 200, priced.body);

        const since = start.data.next_cursor;
        const viaMcp = await mcp.call('get_catalog_changes', { since, country: 'US', limit: 5 });
        assert.equal(viaMcp.isError, false);
        assert.deepEqual(viaMcp.data.changes.map((entry: any) => [entry.handle, entry.kinds, entry.product.variants[0].price]), [
          ['olive-oil', ['price'], { amount: amount / 100, currency: 'USD' }],
        ]);
        const viaRest = await testApp.app.inject({ url: `/public/v1/changes?since=${since}&country=US&limit=5` });
        const { request_id: _a, ...mcpBody } = viaMcp.data;
        const { request_id: _b, ...restBody } = viaRest.json();
        assert.deepEqual(mcpBody, restBody);

        const invalid = await mcp.call('get_catalog_changes', { since: 'not-a-cursor' });
        assert.deepEqual([invalid.isError, invalid.data.error.code], [true, 'INVALID_QUERY']);
        assert.match(invalid.data.error.hint, /next_cursor of a previous get_catalog_changes/);

        await testApp.store.db.deleteFrom('catalog_changes').execute();
        const expired = await mcp.call('get_catalog_changes', { since: '0' });
        assert.equal(expired.isError, true);
        assert.equal(expired.data.error.code, 'CHANGES_EXPIRED');
        assert.match(expired.data.error.hint, /get_catalog_changes without since/);
      } finally {
        await mcp.close();
      }
    });
  }
});
