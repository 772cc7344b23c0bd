import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { startTestApp, type TestApp } from '../support/test-app.js';

const MCP_PATHS = ['/mcp', '/mcp/sandbox'];
const JSON_RPC_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const ping = (id: number | string = 1) => ({ jsonrpc: '2.0', id, method: 'ping' });

function post(app: FastifyInstance, url: string, options: Partial<InjectOptions> = {}) {
  return app.inject({ method: 'POST', url, payload: ping(), ...options, headers: { ...JSON_RPC_HEADERS, ...options.headers } });
}

describe('MCP transport edges', () => {
  let testApp: TestApp;
  let base: URL;
  before(async () => {
    testApp = await startTestApp();
    base = new URL(await testApp.app.listen({ port: 0, host: '127.0.0.1' }));
  });
  after(() => testApp.close());

  it('no answer of either MCP path may be cached: successes, 400, 405 and 403 carry Cache-Control: no-store', async () => {
    for (const url of MCP_PATHS) {
      const answers = [
        await post(testApp.app, url, { headers: { host: 'localhost:3000' } }),
        await post(testApp.app, url, { headers: { host: 'localhost:3000' }, payload: '{"jsonrpc": ' }),
        await testApp.app.inject({ method: 'GET', url, headers: { host: 'localhost:3000' } }),
        await post(testApp.app, url, { headers: { host: 'evil.example' } }),
      ];
      assert.deepEqual(
        answers.map((answer) => answer.statusCode),
        [200, 400, 405, 403],
      );
      for (const answer of answers) assert.equal(answer.headers['cache-control'], 'no-store', `${url} ${answer.statusCode}`);
    }
  });

  it('an allowed Host is served', async () => {
    for (const url of MCP_PATHS) {
      const response = await post(testApp.app, url, { headers: { host: 'localhost:3000' } });
      assert.equal(response.statusCode, 200, response.body);
    }
  });

  for (const [why, host] of [
    ['credentials', 'user@evil.com'],
    ['credentials on an allowed host', 'user:secret@localhost'],
    ['a port out of range', 'localhost:99999'],
    ['port 0', 'localhost:0'],
    ['an empty port', 'localhost:'],
    ['nothing but a port', ':3000'],
    ['a space', 'local host'],
    ['an unclosed IPv6 literal', '[::1'],
    ['a path', 'localhost/mcp'],
  ] as const) {
    it(`a Host with ${why} (${JSON.stringify(host)}) is 400 with a JSON-RPC error, never a 500`, async () => {
      for (const url of MCP_PATHS) {
        const response = await post(testApp.app, url, { headers: { host } });
        assert.equal(response.statusCode, 400, `${url}: ${response.body}`);
        assert.equal(response.json().jsonrpc, '2.0');
        assert.equal(response.json().error.data.code, 'invalid_host_header');
      }
    });
  }

  it('a well-formed Host outside the allow-list is 403', async () => {
    for (const host of ['evil.example', 'evil.example:8080', '[::2]:80']) {
      const response = await post(testApp.app, '/mcp', { headers: { host } });
      assert.equal(response.statusCode, 403, host);
    }
  });

  for (const [why, hostLine] of [
    ['an empty Host', 'Host: \r\n'],
    ['no Host at all (HTTP/1.0)', ''],
  ] as const) {
    it(`${why} is 400 (raw HTTP, as no client library sends it)`, async () => {
      const body = JSON.stringify(ping());
      const head = `POST /mcp HTTP/1.${hostLine ? 1 : 0}\r\n${hostLine}Connection: close\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${body.length}\r\n\r\n`;
      const raw = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(base.port), base.hostname, () => socket.end(head + body));
        let text = '';
        socket.on('data', (chunk) => (text += chunk.toString()));
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
      });
      assert.match(raw, /^HTTP\/1\.[01] 400 /, raw);
    });
  }

  for (const method of ['HEAD', 'PUT', 'PATCH', 'OPTIONS', 'GET', 'DELETE'] as const) {
    it(`${method} is 405 with Allow: POST on both MCP paths`, async () => {
      for (const url of MCP_PATHS) {
        const response = await testApp.app.inject({ method, url, headers: { accept: 'application/json, text/event-stream' } });
        assert.equal(response.statusCode, 405, `${method} ${url}: ${response.body}`);
        assert.equal(response.headers.allow, 'POST');
        if (method !== 'HEAD') assert.equal(response.json().error.code, -32000);
      }
    });
  }

  for (const [why, payload] of [
    ['broken JSON', '{"jsonrpc": "2.0", "id": 1,'],
    ['an empty body', ''],
    ['text that is not JSON', 'ping'],
  ] as const) {
    it(`${why} is HTTP 400 with the JSON-RPC parse error, not the catalog's error body`, async () => {
      for (const url of MCP_PATHS) {
        const response = await post(testApp.app, url, { payload });
        assert.equal(response.statusCode, 400, url);
        const body = response.json();
        assert.deepEqual(Object.keys(body).sort(), ['error', 'id', 'jsonrpc']);
        assert.equal(body.jsonrpc, '2.0');
        assert.equal(body.id, null);
        assert.equal(body.error.code, -32700);
        assert.match(body.error.message, /^Parse error/);
      }
    });
  }
});

describe('MCP requests and the per-client-IP catalog limit', () => {
  const LIMIT = 4;
  let testApp: TestApp;
  before(async () => {
    testApp = await startTestApp({ config: { catalogRateLimit: LIMIT } });
  });
  after(() => testApp.close());

  const from = (remoteAddress: string) => ({
    mcp: (url: string, payload: object | string) => post(testApp.app, url, { payload, remoteAddress }),
    catalog: () => testApp.app.inject({ url: '/public/v1/products?limit=1', remoteAddress }),
  });

  it('every MCP request counts (ping, tools/list, notifications, malformed bodies, on both servers); past the limit it is 429 with the RateLimit headers', async () => {
    const flooder = from('203.0.113.1');
    const allowed = [
      await flooder.mcp('/mcp', ping(1)),
      await flooder.mcp('/mcp/sandbox', { jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      await flooder.mcp('/mcp', { jsonrpc: '2.0', method: 'notifications/initialized' }),
      await flooder.mcp('/mcp/sandbox', '{"not json'),
    ];
    assert.deepEqual(
      allowed.map((response) => response.statusCode),
      [200, 200, 202, 400],
    );
    assert.equal(allowed[0]!.headers['ratelimit-remaining'], String(LIMIT - 1));

    const limited = await flooder.mcp('/mcp', ping('over'));
    assert.equal(limited.statusCode, 429);
    assert.equal(limited.headers['ratelimit-limit'], String(LIMIT));
    assert.equal(limited.headers['ratelimit-remaining'], '0');
    assert.ok(Number(limited.headers['ratelimit-reset']) > 0);
    assert.equal(limited.headers['retry-after'], limited.headers['ratelimit-reset']);
    const body = limited.json();
    assert.equal(body.jsonrpc, '2.0');
    // Counted before the body is read, so the refusal cannot name the request.
    assert.equal(body.id, null);
    assert.equal(body.error.code, -32000);
    assert.equal(body.error.data.code, 'RATE_LIMITED');
    assert.match(body.error.message, new RegExp(`${LIMIT} catalog requests per minute per client IP`));
    assert.equal((await flooder.mcp('/mcp/sandbox', ping())).statusCode, 429);
    assert.equal((await testApp.app.inject({ method: 'HEAD', url: '/mcp', remoteAddress: '203.0.113.1' })).statusCode, 429);
    assert.equal((await flooder.mcp('/mcp', '{"not json')).statusCode, 429);

    // One window per client IP: the flood used up its own catalog budget, nobody else's.
    assert.equal((await flooder.catalog()).statusCode, 429);
    const other = from('203.0.113.2');
    assert.equal((await other.catalog()).statusCode, 200);
    assert.equal((await other.mcp('/mcp', ping())).statusCode, 200);
  });

  it('the route descriptions render the configured limit', async () => {
    const document = (await testApp.app.inject({ url: '/openapi.json' })).json();
    for (const path of MCP_PATHS) {
      assert.match(document.paths[path].post.description, new RegExp(`Every request .* counts against the catalog rate limit \\(${LIMIT} requests per client IP per minute\\)`));
    }
  });
});
