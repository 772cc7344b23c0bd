import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { UUID } from '../support/catalog-assertions.js';
import { listeningPort, rawExchange, readUntilClosed, type RawResponse } from '../support/raw-http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** A catalog error on the wire: the status, PublicApiError with the code, and a request id equal to X-Request-Id. */
function assertCatalogError(response: RawResponse, status: number, code: string): void {
  assert.equal(response.status, status, response.text);
  const body = JSON.parse(response.body);
  assert.deepEqual(Object.keys(body).sort(), ['error', 'request_id']);
  assert.equal(body.error.code, code);
  assert.equal(typeof body.error.message, 'string');
  assert.equal(typeof body.error.hint, 'string');
  assert.match(body.request_id, UUID);
  assert.equal(response.headers['x-request-id'], body.request_id);
}

function assertSandboxError(response: RawResponse, status: number, error: string): void {
  assert.equal(response.status, status, response.text);
  assert.equal(JSON.parse(response.body).error, error);
  assert.match(response.headers['x-request-id'] ?? '', UUID);
  assert.equal(response.headers['cache-control'], 'no-store');
}

const request = (head: string, body = '') =>
  `${head}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;

describe('requests with an ambiguous or undecodable header, on a real port', () => {
  let testApp: TestApp;
  let port: number;
  let token: string;
  before(async () => {
    testApp = await startTestApp();
    port = await listeningPort(testApp.app);
    token = JSON.parse((await testApp.app.inject({ method: 'POST', url: '/sandbox/v1/keys' })).body).access_token;
  });
  after(() => testApp.close());

  it('answers one Host and one Authorization header normally (the control)', async () => {
    const response = await rawExchange(port, request(`POST /sandbox/v1/carts HTTP/1.1\r\nHost: a\r\nIdempotency-Key: one\r\nAuthorization: Bearer ${token}`));
    assert.equal(response.status, 201, response.text);
  });

  it('400 sandbox_invalid_request for two Authorization headers, even when both carry the same valid key', async () => {
    const twice = `Authorization: Bearer ${token}\r\nAuthorization: Bearer ${token}`;
    const response = await rawExchange(port, request(`POST /sandbox/v1/carts HTTP/1.1\r\nHost: a\r\nIdempotency-Key: two\r\n${twice}`));
    assertSandboxError(response, 400, 'sandbox_invalid_request');
    assert.match(JSON.parse(response.body).message, /Authorization header appears more than once/);
  });

  it('400 INVALID_QUERY for two Authorization headers on the catalog', async () => {
    const response = await rawExchange(port, request('GET /public/v1/products HTTP/1.1\r\nHost: a\r\nauthorization: x\r\nAUTHORIZATION: y'));
    assertCatalogError(response, 400, 'INVALID_QUERY');
  });

  it('400 for two Host headers, on the catalog and on the sandbox', async () => {
    assertCatalogError(await rawExchange(port, request('GET /public/v1/products HTTP/1.1\r\nHost: a\r\nHost: b')), 400, 'INVALID_QUERY');
    assertSandboxError(await rawExchange(port, request('GET /sandbox/v1 HTTP/1.1\r\nHost: a\r\nhost: a')), 400, 'sandbox_invalid_request');
  });

  it('415 for a request body in a content coding the service does not decode', async () => {
    for (const coding of ['gzip', 'br', 'deflate, identity', 'x-made-up']) {
      const head = `POST /sandbox/v1/keys HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Encoding: ${coding}`;
      const response = await rawExchange(port, request(head, '{}'));
      assertSandboxError(response, 415, 'sandbox_invalid_request');
      assert.match(JSON.parse(response.body).message, /Content-Encoding .* is not supported/);
    }
    const catalog = await rawExchange(port, request('GET /public/v1/products HTTP/1.1\r\nHost: a\r\nContent-Encoding: gzip', 'xx'));
    assertCatalogError(catalog, 415, 'INVALID_QUERY');
  });

  it('accepts Content-Encoding: identity, and a content coding named on a request without a body', async () => {
    const identity = 'POST /sandbox/v1/keys HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Encoding: identity';
    assert.equal((await rawExchange(port, request(identity, '{}'))).status, 201);
    assert.equal((await rawExchange(port, request('GET /public/v1/products?limit=1 HTTP/1.1\r\nHost: a\r\nContent-Encoding: gzip'))).status, 200);
  });
});

// Each test on connections of its own: run together, the two 408 cases wait out the request time-out once instead of twice.
describe('requests Node rejects before routing, on a real port', { concurrency: true }, () => {
  let testApp: TestApp;
  let port: number;
  before(async () => {
    testApp = await startTestApp({ config: { requestTimeoutMs: 1000 } });
    port = await listeningPort(testApp.app);
  });
  after(() => testApp.close());

  it('400 in the error shape, with a request id, for a malformed request line', async () => {
    assertCatalogError(await rawExchange(port, 'GARBAGE\r\n\r\n'), 400, 'INVALID_QUERY');
    assertCatalogError(await rawExchange(port, 'GET /public/v1/products HTTP/9.9\r\nHost: a\r\n\r\n'), 400, 'INVALID_QUERY');
  });

  it('400 in the error shape for both Content-Length and Transfer-Encoding (request smuggling)', async () => {
    const smuggled = 'POST /sandbox/v1/keys HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n';
    assertCatalogError(await rawExchange(port, smuggled), 400, 'INVALID_QUERY');
  });

  it('431 in the error shape for headers beyond the size limit', async () => {
    const response = await rawExchange(port, `GET /public/v1/products HTTP/1.1\r\nHost: a\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    assertCatalogError(response, 431, 'INVALID_QUERY');
  });

  it('408 in the error shape, then the connection closed, for a body trickled slower than the request time-out', { timeout: 30_000 }, async () => {
    const socket = net.connect(port, '127.0.0.1');
    socket.write('POST /sandbox/v1/keys HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{');
    // One byte every 300 ms: the socket never goes idle, but the request never completes.
    const trickle = setInterval(() => socket.writable && socket.write(' '), 300);
    try {
      const response = await readUntilClosed(socket);
      assertCatalogError(response, 408, 'INVALID_QUERY');
    } finally {
      clearInterval(trickle);
    }
  });

  it('408 for headers trickled slower than the request time-out', { timeout: 30_000 }, async () => {
    const socket = net.connect(port, '127.0.0.1');
    socket.write('GET /public/v1/products HTTP/1.1\r\nHost: a\r\n');
    const trickle = setInterval(() => socket.writable && socket.write('X: y\r\n'), 300);
    try {
      assertCatalogError(await readUntilClosed(socket), 408, 'INVALID_QUERY');
    } finally {
      clearInterval(trickle);
    }
  });
});
