import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { mcpRequestInit } from '../support/mcp-json-rpc.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * An agent loads the whole tools/list answer into its context window: it must stay small.
 * What every tool shares is said once in the server instructions, and the tools advertise
 * no outputSchema (the cart's alone was 8 KB, on eight tools).
 */
const BOUNDS: Record<string, number> = { '/mcp': 12 * 1024, '/mcp/sandbox': 30 * 1024 };

describe('tools/list stays within its byte budget', () => {
  let testApp: TestApp;
  before(async () => {
    testApp = await startTestApp();
  });
  after(() => testApp.close());

  for (const [path, bound] of Object.entries(BOUNDS)) {
    for (const modern of [false, true]) {
      it(`${path} (${modern ? '2026-07-28' : '2025-11-25'}): under ${bound / 1024} KB, every tool listed with its input schema`, async () => {
        const init = mcpRequestInit('tools/list', {}, { modern });
        const response = await testApp.app.inject({ method: 'POST', url: path, headers: init.headers, payload: init.body });
        assert.equal(response.statusCode, 200);
        const bytes = response.rawPayload.length;
        assert.ok(bytes < bound, `${path} tools/list is ${bytes} bytes`);
        const { tools } = response.json().result as { tools: { name: string; description: string; inputSchema: { type: string } }[] };
        assert.ok(tools.length >= 5);
        for (const tool of tools) assert.equal(tool.inputSchema.type, 'object', tool.name);
      });
    }
  }
});
