import assert from 'node:assert/strict';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../src/config.js';
import { ERP_TOKEN, withAdmin } from './admin.js';
import { startTestApp } from './test-app.js';
import { webhookSettings } from './webhooks.js';

/**
 * Run as its own process with --expose-gc (see test/delivery/memory.test.ts): one app
 * with STREAMS change streams and a webhook receiver subscribed to price events, and
 * price changes made through the admin API, each waited for until every stream and the
 * receiver have it. Prints the growth of the heap and of memory outside it (Buffers)
 * between a warm-up and the end, each measured after a forced garbage collection, as
 * one JSON line. The listeners only count what they get, so they hold nothing per change.
 * Usage: node --expose-gc --import tsx test/support/live-heap-growth.ts [changes]
 */
const changes = Number(process.argv[2] ?? 1500);
const WARM_UP_CHANGES = 500;
const STREAMS = 5;
const gc = globalThis.gc;
assert.ok(gc, 'run with --expose-gc');

const testApp = await startTestApp(withAdmin({ config: { webhooks: webhookSettings(), changeFeed: { ...loadConfig().changeFeed, maxStreamsPerClient: STREAMS } } }));
const base = await testApp.app.listen({ port: 0, host: '127.0.0.1' });

let waiting: (() => void)[] = [];
const wake = () => {
  const woken = waiting;
  waiting = [];
  for (const resolve of woken) resolve();
};
const counts = { stream: new Array<number>(STREAMS).fill(0), webhook: 0 };

const receiver = http.createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    counts.webhook++;
    response.writeHead(204).end();
    wake();
  });
});
receiver.listen(0, '127.0.0.1');
await once(receiver, 'listening');

// Injected: fetch's own bookkeeping (a WeakRef per response body, cleared by finalizers
// some time after a collection) would count here as growth of the service.
const admin = async (method: 'PATCH' | 'POST', url: string, payload: object) => {
  const response = await testApp.app.inject({ method, url, headers: { authorization: `Bearer ${ERP_TOKEN}` }, payload });
  assert.ok(response.statusCode < 300, `${method} ${url}: ${response.statusCode} ${response.body}`);
};
await admin('POST', '/admin/v1/webhooks', { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`, event_types: ['variant.price_changed'] });

const streams = await Promise.all(Array.from({ length: STREAMS }, (_, index) => openStream(index)));
const listing = (await testApp.app.inject('/public/v1/products?country=IT&limit=5')).json();
const variants: string[] = listing.products.map((product: any) => product.variants[0].id);

let made = 0;
async function drive(count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    made++;
    await admin('PATCH', `/admin/v1/variants/${variants[made % variants.length]}`, { prices: [{ currency: 'EUR', region_id: 'reg_it', amount: 100_000 + made }] });
  }
  while (counts.webhook < made || counts.stream.some((count) => count < made)) await new Promise<void>((resolve) => waiting.push(resolve));
}

const settled = async () => {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  const { heapUsed, external } = process.memoryUsage();
  return { heapUsed, external };
};

await drive(WARM_UP_CHANGES);
const before = await settled();
await drive(changes);
const after = await settled();
for (const stream of streams) stream.destroy();
receiver.closeAllConnections();
receiver.close();
await testApp.close();
console.log(
  JSON.stringify({
    changes,
    heapGrowthBytes: after.heapUsed - before.heapUsed,
    externalGrowthBytes: after.external - before.external,
    delivered: { webhook: counts.webhook, streams: counts.stream },
  }),
);

/** A change stream of the Italian market that counts its events (an `id:` line each). */
function openStream(index: number): Promise<http.ClientRequest> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${base}/public/v1/changes/stream?country=IT`, { headers: { accept: 'text/event-stream' } }, (response) => {
      assert.equal(response.statusCode, 200);
      response.setEncoding('utf8');
      let partial = '';
      response.on('data', (chunk: string) => {
        const lines = (partial + chunk).split('\n');
        partial = lines.pop()!;
        counts.stream[index]! += lines.filter((line) => line.startsWith('id:')).length;
        wake();
      });
      resolve(request);
    });
    request.on('error', reject);
  });
}
