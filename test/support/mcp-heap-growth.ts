import assert from 'node:assert/strict';
import { mcpRequestInit } from './mcp-json-rpc.js';
import { startTestApp } from './test-app.js';

/**
 * Run as its own process with --expose-gc (see test/mcp/memory.test.ts): drives one app
 * with MCP requests over HTTP, tools/list and tools/call on both servers, from 2025-11-25
 * and 2026-07-28 clients, and prints the heap growth between a warm-up and the end, each
 * measured after a forced garbage collection, as one JSON line.
 * Usage: node --expose-gc --import tsx test/support/mcp-heap-growth.ts [requests]
 */
const requests = Number(process.argv[2] ?? 2000);
const gc = globalThis.gc;
assert.ok(gc, 'run with --expose-gc');

const sandbox = await startTestApp();
const base = await sandbox.app.listen({ port: 0, host: '127.0.0.1' });
const token = await sandbox.newKey();
const cart = await sandbox.newCart(token);

const calls: [path: string, method: string, params: Record<string, unknown>][] = [
  ['/mcp', 'tools/list', {}],
  ['/mcp', 'tools/call', { name: 'search_catalog', arguments: { query: 'olive oil', limit: 5 } }],
  ['/mcp', 'tools/call', { name: 'get_product', arguments: { handle: 'caffe-espresso-blend' } }],
  ['/mcp/sandbox', 'tools/list', {}],
  ['/mcp/sandbox', 'tools/call', { name: 'get_cart', arguments: { cart_id: cart.id } }],
  ['/mcp/sandbox', 'tools/call', { name: 'add_to_cart', arguments: { cart_id: cart.id, variant_id: 'not-a-variant', quantity: 1 } }],
  ['/mcp/sandbox', 'tools/call', { name: 'select_shipping_option', arguments: { cart_id: cart.id, shipping_option_id: 'express' } }],
  ['/mcp/sandbox', 'tools/call', { name: 'list_markets', arguments: {} }],
];

async function send(index: number): Promise<void> {
  const [path, method, params] = calls[index % calls.length]!;
  const modern = Math.floor(index / calls.length) % 2 === 1;
  const response = await fetch(`${base}${path}`, mcpRequestInit(method, params, { modern, token, id: index }));
  const text = await response.text();
  assert.equal(response.status, 200, text);
  assert.ok(text.includes(method === 'tools/list' ? '"tools"' : '"content"'), text);
}

async function drive(count: number): Promise<void> {
  for (let i = 0; i < count; i += 10) await Promise.all(Array.from({ length: Math.min(10, count - i) }, (_, j) => send(i + j)));
}

const settledHeap = async () => {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().heapUsed;
};

await drive(400);
const before = await settledHeap();
await drive(requests);
const after = await settledHeap();
await sandbox.close();
console.log(JSON.stringify({ requests, heapBeforeBytes: before, heapAfterBytes: after, growthBytes: after - before }));
