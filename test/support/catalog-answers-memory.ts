import assert from 'node:assert/strict';
import { startTestApp } from './test-app.js';

/**
 * Run as its own process with --expose-gc (see test/catalog/answers-memory.test.ts):
 * reads pages (sizes 10 and 20, every other offset) of the demo catalog in every market
 * and locale over HTTP, half of them gzip or Brotli, once to fill the prepared answers,
 * then `rounds` times more, and prints the memory (heap and buffers, after forced
 * collections) after the first round and after the last, as one JSON line.
 * Usage: node --expose-gc --import tsx test/support/catalog-answers-memory.ts [rounds]
 */
const rounds = Number(process.argv[2] ?? 3);
const gc = globalThis.gc;
assert.ok(gc, 'run with --expose-gc');

const service = await startTestApp({ config: { catalogRateLimit: 0 } });
const base = await service.app.listen({ port: 0, host: '127.0.0.1' });
const urls: string[] = [];
for (const country of ['IT', 'DE', 'GB', 'US', 'CH']) {
  for (const locale of ['en', 'it']) {
    for (let offset = 0; offset < 60; offset += 2) for (const limit of [10, 20]) urls.push(`/public/v1/products?country=${country}&locale=${locale}&offset=${offset}&limit=${limit}`);
  }
}
const CODINGS = ['gzip', 'br', 'identity'];

async function readAll(): Promise<void> {
  for (let i = 0; i < urls.length; i += 10) {
    await Promise.all(
      urls.slice(i, i + 10).map(async (url, j) => {
        const response = await fetch(`${base}${url}`, { headers: { 'accept-encoding': CODINGS[(i + j) % CODINGS.length]! } });
        assert.equal(response.status, 200);
        await response.arrayBuffer();
      }),
    );
  }
}

const settledMemory = async () => {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
};

await readAll();
const filled = await settledMemory();
for (let round = 0; round < rounds; round++) await readAll();
const after = await settledMemory();
await service.close();
console.log(JSON.stringify({ answers: urls.length, requests: urls.length * (rounds + 1), filledBytes: filled, growthBytes: after - filled }));
