import assert from 'node:assert/strict';
import { once } from 'node:events';
import http from 'node:http';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { isolatedServerEnv, type IsolatedServerEnv } from '../support/isolated-server-env.js';
import { readUntilClosed } from '../support/raw-http.js';
import { startServerProcess } from '../support/server-process.js';

/** Reads a whole response: status, headers and body. */
async function readResponse(request: http.ClientRequest): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const [response] = (await once(request, 'response')) as [http.IncomingMessage];
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(chunk as Buffer);
  return { status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks).toString() };
}

describe('graceful shutdown of a real server process on SIGTERM', () => {
  let isolated: IsolatedServerEnv;

  before(async () => {
    isolated = await isolatedServerEnv();
  });
  after(() => isolated.cleanup());

  it('completes the request in flight, is not held by an idle keep-alive connection, and exits 0', async () => {
    // At debug, a request's arrival is logged too: the test waits for it.
    const server = await startServerProcess({ ...isolated.env, LOG_LEVEL: 'debug' });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      // Leaves one idle keep-alive connection open: it must not hold the shutdown.
      const idle = await readResponse(http.get(`${server.url}/healthz`, { agent }).end());
      assert.equal(idle.status, 200);

      // A slow upload: the headers and half the body go out before SIGTERM, the rest after.
      const body = JSON.stringify({ scopes: ['catalog:read'] });
      const slow = http.request(`${server.url}/sandbox/v1/keys`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      });
      const answered = readResponse(slow);
      slow.write(body.slice(0, 10));
      await server.waitForLog((entry) => entry.msg === 'incoming request' && entry.req?.url === '/sandbox/v1/keys');

      server.child.kill('SIGTERM');
      await server.waitForLog((entry) => entry.msg === 'shutting down');
      slow.end(body.slice(10));

      const response = await answered;
      assert.equal(response.status, 201, response.body);
      assert.match(JSON.parse(response.body).access_token, /^sbx_test_/);
      // 1 would be the 10 s guard giving up on the drain.
      assert.equal(await server.exited, 0, server.output());
    } finally {
      agent.destroy();
      await server.stop('SIGKILL');
    }
  });
  it('closes connections still trickling a request soon after SIGTERM instead of waiting for them, and exits 0', async () => {
    // A request time-out far beyond the 10 s shutdown guard: only the shutdown itself can end these.
    const server = await startServerProcess({ ...isolated.env, LOG_LEVEL: 'debug', REQUEST_TIMEOUT_MS: '120000' });
    const { port } = new URL(server.url);
    const trickles: NodeJS.Timeout[] = [];
    const trickle = (socket: net.Socket, chunk: string) => trickles.push(setInterval(() => socket.writable && socket.write(chunk), 500));
    try {
      // One sends its body a byte at a time, the other its headers a line at a time.
      const uploading = net.connect(Number(port), '127.0.0.1');
      uploading.write('POST /sandbox/v1/keys HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{');
      trickle(uploading, ' ');
      const sendingHeaders = net.connect(Number(port), '127.0.0.1');
      sendingHeaders.write('GET /public/v1/products HTTP/1.1\r\nHost: a\r\n');
      trickle(sendingHeaders, 'X-Slow: 1\r\n');
      const uploadClosed = readUntilClosed(uploading);
      const headersClosed = readUntilClosed(sendingHeaders);
      await server.waitForLog((entry) => entry.msg === 'incoming request' && entry.req?.url === '/sandbox/v1/keys');

      server.child.kill('SIGTERM');
      // Closed without an answer: no key was issued for a body that never arrived.
      assert.equal((await uploadClosed).status, 0);
      assert.equal((await headersClosed).status, 0);
      // 1 would be the 10 s guard giving up on the drain.
      assert.equal(await server.exited, 0, server.output());
    } finally {
      for (const timer of trickles) clearInterval(timer);
      await server.stop('SIGKILL');
    }
  });
});
