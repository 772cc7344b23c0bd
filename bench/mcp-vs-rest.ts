import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { commandLineOrExit, integerOption, positiveNumberOption } from '../src/lib/command-line.js';
import { MAX_GENERATED_PRODUCTS } from '../tools/catalog-generator/catalog.js';
import { mcpRequestInit } from '../test/support/mcp-json-rpc.js';
import { buildService, generateCatalog, measure, pinToSeparateCpus, rssMb, startNodeProcess, type RunningProcess } from './service-process.js';

/**
 * MCP against REST, side by side in one run, against a separate Vetrina process with
 * the limits off: first RSS before and after a batch of mixed MCP calls on both servers
 * (after a warm-up), then `search_catalog` calls/s over `/mcp` (a 2025-11-25 stateless
 * client and a 2026-07-28 client) against `GET /public/v1/products?q=` requests/s for
 * the same query.
 */
const USAGE = `usage: npm run bench:mcp -- [--products 10000] [--seconds 5] [--connections 50] [--calls 3000] [--query olive]

Builds the server and runs it on a generated catalog of --products with the limits off:
RSS before and after --calls mixed MCP calls, then search_catalog calls/s over /mcp
against GET /public/v1/products?q= requests/s for --query, --seconds each on
--connections connections.`;
const [products, seconds, connections, calls, query] = commandLineOrExit(
  USAGE,
  {
    options: {
      products: { type: 'string', default: '10000' },
      seconds: { type: 'string', default: '5' },
      connections: { type: 'string', default: '50' },
      calls: { type: 'string', default: '3000' },
      query: { type: 'string', default: 'olive' },
    },
  },
  ({ values }) =>
    [
      integerOption('--products', values.products, 1, MAX_GENERATED_PRODUCTS),
      positiveNumberOption('--seconds', values.seconds, 3600),
      integerOption('--connections', values.connections, 1, 1024),
      integerOption('--calls', values.calls, 1, 1_000_000),
      values.query,
    ] as const,
);
let vetrina: RunningProcess | undefined;
/** The server's `http://127.0.0.1:PORT`, once it runs. */
let base = '';
const work = await mkdtemp(path.join(tmpdir(), 'vetrina-bench-mcp-'));

async function call(server: '/mcp' | '/mcp/sandbox', request: ReturnType<typeof mcpRequestInit>): Promise<void> {
  const response = await fetch(`${base}${server}`, request);
  const text = await response.text();
  if (response.status !== 200 || text.includes('"isError":true')) throw new Error(`MCP call failed: ${response.status} ${text.slice(0, 300)}`);
}

const placement = pinToSeparateCpus();
try {
  const catalogFile = path.join(work, 'catalog.json');
  await generateCatalog(products, catalogFile);
  await buildService();
  vetrina = await startNodeProcess(
    ['dist/server.js'],
    {
      DATA_DIR: path.join(work, 'data'),
      CATALOG_SEED: catalogFile,
      CATALOG_RATE_LIMIT: '0',
      SANDBOX_KEY_RATE_LIMIT: '0',
      SANDBOX_CART_RATE_LIMIT: '0',
      LOG_LEVEL: 'warn',
    },
    '/readyz',
  );
  base = vetrina.url;

  const search = { name: 'search_catalog', arguments: { query } };

  const token = ((await (await fetch(`${base}/sandbox/v1/keys`, { method: 'POST' })).json()) as { access_token: string }).access_token;
  const product = (await (await fetch(`${base}/public/v1/products?q=${encodeURIComponent(query)}&limit=1`)).json()) as {
    products: { handle: string; variants: { id: string; availability: { purchasable: boolean } }[] }[];
  };
  const handle = product.products[0]!.handle;
  const mixed = (i: number) => {
    const modernCall = i % 2 === 0;
    switch (i % 6) {
      case 0:
        return call('/mcp', mcpRequestInit('tools/list', {}, { modern: modernCall }));
      case 1:
        return call('/mcp', mcpRequestInit('tools/call', search, { modern: modernCall }));
      case 2:
        return call('/mcp/sandbox', mcpRequestInit('tools/call', { name: 'get_product', arguments: { handle } }, { modern: modernCall }));
      case 3:
        return call('/mcp/sandbox', mcpRequestInit('tools/list', {}, { modern: modernCall, token }));
      case 4:
        return call('/mcp/sandbox', mcpRequestInit('tools/call', { name: 'create_cart', arguments: {} }, { modern: modernCall, token }));
      default:
        return call('/mcp/sandbox', mcpRequestInit('tools/call', { name: 'list_markets', arguments: {} }, { modern: modernCall }));
    }
  };
  const batch = async (count: number) => {
    for (let i = 0; i < count; i += 10) await Promise.all(Array.from({ length: Math.min(10, count - i) }, (_, j) => mixed(i + j)));
  };
  // Memory first, on a server that has seen nothing but the warm-up.
  await batch(1000);
  const before = await rssMb(vetrina);
  const steps: number[] = [];
  for (let done = 0; done < calls; done += 1000) {
    await batch(Math.min(1000, calls - done));
    steps.push(await rssMb(vetrina));
  }
  const after = steps.at(-1)!;

  const load = { connections, duration: seconds };
  const rest = await measure({ ...load, url: `${base}/public/v1/products?q=${encodeURIComponent(query)}` });
  const legacy = await measure({ ...load, url: `${base}/mcp`, ...mcpRequestInit('tools/call', search, { modern: false }) });
  const modern = await measure({ ...load, url: `${base}/mcp`, ...mcpRequestInit('tools/call', search, { modern: true }) });

  const ratio = (m: { requestsPerSecond: number }) => (m.requestsPerSecond / rest.requestsPerSecond).toFixed(2);
  console.log(`\nMCP against REST: ${products} products, query "${query}", ${connections} connections, ${seconds} s each, node ${process.version}, ${placement}\n`);
  console.log('| surface | req/s | vs REST | p50 / p99 ms | errors |');
  console.log('|---|---:|---:|---:|---:|');
  for (const [name, m] of [
    [`GET /public/v1/products?q=${query}`, rest],
    ['search_catalog over /mcp (2025-11-25 client)', legacy],
    ['search_catalog over /mcp (2026-07-28 client)', modern],
  ] as const) {
    console.log(`| ${name} | ${Math.round(m.requestsPerSecond)} | ${ratio(m)} | ${m.p50} / ${m.p99} | ${m.errors} |`);
  }
  console.log(
    `\nRSS around ${calls} mixed MCP calls on both servers, 10 at a time, after 1000 warm-up calls: ${before} MiB -> ${after} MiB (${after - before >= 0 ? '+' : ''}${after - before} MiB; after each 1000: ${steps.join(', ')} MiB)`,
  );
} finally {
  await vetrina?.stop();
  await rm(work, { recursive: true, force: true });
}
