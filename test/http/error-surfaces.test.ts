import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { UUID } from '../support/catalog-assertions.js';
import { listeningPort, rawExchange } from '../support/raw-http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** Each surface answers in its own envelope; these tell them apart. */
function envelopeOf(response: LightMyRequestResponse): { envelope: string; code: unknown } {
  const body = response.json();
  if (body.jsonrpc === '2.0') return { envelope: 'json-rpc', code: body.error.data?.code ?? body.error.code };
  if (typeof body.error === 'string') return { envelope: 'sandbox', code: body.error };
  if (typeof body.code === 'string' && typeof body.content === 'string') return { envelope: 'ucp', code: body.code };
  if (typeof body.type === 'string' && typeof body.code === 'string') return { envelope: 'acp', code: body.code };
  assert.match(body.request_id, UUID);
  return { envelope: 'public-api', code: body.error.code };
}

describe('each surface answers its own errors and unknown routes', () => {
  let testApp: TestApp;
  before(async () => {
    testApp = await startTestApp();
  });
  after(() => testApp.close());

  for (const [url, envelope, code] of [
    ['/public/v1/nothing-here', 'public-api', 'INVALID_QUERY'],
    ['/public', 'public-api', 'INVALID_QUERY'],
    ['/sandbox/v1/nothing-here', 'sandbox', 'sandbox_not_found'],
    ['/sandbox', 'sandbox', 'sandbox_not_found'],
    ['/mcp/nothing-here', 'json-rpc', 'not_found'],
    ['/ucp/v1/nothing-here', 'ucp', 'not_found'],
    ['/ucp', 'ucp', 'not_found'],
    ['/ucp/mcp/nothing-here', 'json-rpc', 'not_found'],
    ['/.well-known/ucp/nothing-here', 'ucp', 'not_found'],
    ['/acp/nothing-here', 'acp', 'not_found'],
    ['/acp', 'acp', 'not_found'],
    ['/nothing-here', 'public-api', 'INVALID_QUERY'],
    // A prefix claims its own path segment only.
    ['/sandboxes', 'public-api', 'INVALID_QUERY'],
    ['/mcpx', 'public-api', 'INVALID_QUERY'],
    ['/ucpx', 'public-api', 'INVALID_QUERY'],
    ['/acpx', 'public-api', 'INVALID_QUERY'],
  ] as const) {
    it(`GET ${url}: 404 in the ${envelope} envelope (${code})`, async () => {
      const response = await testApp.app.inject({ method: 'GET', url });
      assert.equal(response.statusCode, 404, response.body);
      assert.deepEqual(envelopeOf(response), { envelope, code });
      // No surface lets a cache keep an error.
      assert.equal(response.headers['cache-control'], 'no-store');
      assert.match(String(response.headers['x-request-id']), UUID);
    });
  }

  for (const [url, envelope, code] of [
    ['/public/v1/products/caffe%zz', 'public-api', 'INVALID_HANDLE'],
    ['/public/v1/%zz', 'public-api', 'INVALID_QUERY'],
    ['/sandbox/v1/carts/%zz', 'sandbox', 'sandbox_invalid_request'],
    ['/mcp/%zz', 'json-rpc', -32600],
    ['/ucp/v1/%zz', 'ucp', 'invalid_request'],
    ['/ucp/mcp/%zz', 'json-rpc', -32600],
    ['/acp/checkout_sessions/%zz', 'acp', 'invalid_request'],
  ] as const) {
    it(`GET ${url} (a path the router cannot read): 400 in the ${envelope} envelope (${code})`, async () => {
      const response = await testApp.app.inject({ method: 'GET', url });
      assert.equal(response.statusCode, 400, response.body);
      assert.deepEqual(envelopeOf(response), { envelope, code });
    });
  }

  it('a malformed request found before any surface is known (two Authorization headers) gets the invalid-request code of the surface it hit, JSON-RPC on /mcp', async () => {
    const port = await listeningPort(testApp.app);
    const body = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'ping' });
    const response = await rawExchange(
      port,
      `POST /mcp HTTP/1.1\r\nHost: localhost\r\nAuthorization: a\r\nAuthorization: b\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
    assert.equal(response.status, 400, response.text);
    const answer = JSON.parse(response.body);
    // Refused before its body was read: JSON-RPC answers such a request with id null.
    assert.equal(answer.id, null);
    assert.equal(answer.error.code, -32600);
    assert.match(answer.error.message, /Authorization header appears more than once/);
    assert.equal(response.headers['cache-control'], 'no-store');
  });
});
