/**
 * Checks the service against its two OpenAPI documents through Prism, a validating proxy:
 * starts the built server (dist/server.js, `npm run build` first) on a temporary DATA_DIR
 * with an admin token, puts `prism proxy --errors` in front of it for /openapi.json and
 * then /admin/openapi.json, and sends every route valid and invalid requests. With
 * --errors Prism answers a response that breaks the document with its own 500 VIOLATIONS;
 * any answer carrying response violations is counted. Request violations (the invalid
 * requests sent on purpose) are counted apart: they show the document refuses them too.
 * Prism cannot forward a GET with a body, so the 415 of a GET with an encoded body is
 * checked against the server directly (test/http/openapi-edges.test.ts checks its body).
 *
 *   npx tsx tools/contract-check.ts --prism /path/to/node_modules/.bin/prism
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../bench/service-process.js';
import { commandLineOrExit } from '../src/lib/command-line.js';

const HELP = `Usage: npx tsx tools/contract-check.ts [--prism PATH] [--verbose]

Runs dist/server.js (build it first: npm run build) behind \`prism proxy --errors\` for
/openapi.json, then /admin/openapi.json, sends every route valid and invalid requests
and counts Prism's violations. Exits 1 when any response violates its document.

  --prism PATH   the Prism 5 CLI (default: prism on PATH), e.g. after
                 npm install @stoplight/prism-cli@5 in a directory of its own
  --verbose      print every exchange, not only the violations
  --help         this text`;

const ADMIN_TOKEN = 'contract_check_0123456789abcdefghijkl';

interface Exchange {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** Sent as is (a string), for bodies that are not JSON. */
  raw?: string;
  /** Sent on purpose against the document: its request violations are expected. */
  invalid?: boolean;
  /**
   * Prism cannot proxy it: it never answers a body that is not JSON under a JSON type,
   * fails every HEAD answered with a JSON Content-Type (it reads the empty body as JSON)
   * and refuses a body the document refuses without forwarding it. Sent to the server,
   * which must answer a 4xx (a HEAD: no 5xx, no body).
   */
  direct?: boolean;
}

interface Tally {
  exchanges: number;
  responseViolations: number;
  requestViolations: number;
  /** Sent around Prism ({@link Exchange.direct}). */
  direct: number;
}

const { values: options } = commandLineOrExit(HELP, { options: { prism: { type: 'string', default: 'prism' }, verbose: { type: 'boolean', default: false } } });

async function main(): Promise<number> {
  if (!existsSync('dist/server.js')) throw new Error('dist/server.js is missing: run npm run build first.');
  const dataDir = await mkdtemp(path.join(tmpdir(), 'vetrina-contract-'));
  const serverPort = await freePort();
  const server = start('node', ['dist/server.js'], {
    PORT: String(serverPort),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ADMIN_TOKENS: `contract:${ADMIN_TOKEN}`,
    ADMIN_RATE_LIMIT: '0',
    CATALOG_RATE_LIMIT: '0',
    SANDBOX_KEY_RATE_LIMIT: '0',
    SANDBOX_CART_RATE_LIMIT: '0',
    LOG_LEVEL: 'warn',
  });
  const upstream = `http://127.0.0.1:${serverPort}`;
  try {
    await waitFor(`${upstream}/healthz`);
    const total: Tally = { exchanges: 0, responseViolations: 0, requestViolations: 0, direct: 0 };
    for (const [document, exchanges] of [
      ['/openapi.json', publicExchanges],
      ['/admin/openapi.json', adminExchanges],
    ] as const) {
      const file = path.join(dataDir, document.replaceAll('/', '_'));
      await writeFile(file, await (await fetch(`${upstream}${document}`)).text());
      const tally = await throughPrism(file, upstream, exchanges);
      console.log(
        `${document}: ${tally.exchanges} exchanges (${tally.direct} around Prism), ${tally.responseViolations} response violations, ${tally.requestViolations} with request violations (sent invalid on purpose)`,
      );
      total.exchanges += tally.exchanges;
      total.responseViolations += tally.responseViolations;
      total.requestViolations += tally.requestViolations;
      total.direct += tally.direct;
    }
    const encodedGet = await getWithEncodedBody(serverPort);
    console.log(`GET /public/v1/products with a gzip-encoded body, to the server directly: ${encodedGet} (documented: 415)`);
    if (encodedGet !== 415) total.responseViolations++;
    console.log(`total: ${total.exchanges} exchanges, ${total.responseViolations} response violations`);
    return total.responseViolations === 0 ? 0 : 1;
  } finally {
    await stop(server);
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** Starts Prism for one document, runs the exchanges through it, stops it. */
async function throughPrism(document: string, upstream: string, exchanges: (call: Call) => Promise<void>): Promise<Tally> {
  const port = await freePort();
  const prism = start(options.prism!, ['proxy', '--errors', '--port', String(port), '--host', '127.0.0.1', document, upstream], {});
  const tally: Tally = { exchanges: 0, responseViolations: 0, requestViolations: 0, direct: 0 };
  try {
    await waitFor(`http://127.0.0.1:${port}/__prism_ready`, true);
    const call: Call = async (exchange) => {
      const response = await fetch(`${exchange.direct ? upstream : `http://127.0.0.1:${port}`}${exchange.url}`, {
        signal: AbortSignal.timeout(30_000),
        method: exchange.method,
        headers: { ...(exchange.body !== undefined && { 'content-type': 'application/json' }), ...exchange.headers },
        ...((exchange.body !== undefined || exchange.raw !== undefined) && { body: exchange.raw ?? JSON.stringify(exchange.body) }),
      });
      const text = await response.text();
      const violations = JSON.parse(response.headers.get('sv-violations') ?? '[]') as { location: string[]; message: string }[];
      const inResponse = violations.filter((violation) => violation.location[0] === 'response');
      // Prism's own answers are problem+json: 422 a request the document refuses, 401 one
      // without the credentials it asks (neither forwarded), 500 VIOLATIONS a response it refuses, anything else an exchange it could not check.
      const fromPrism = !exchange.direct && response.headers.get('content-type') === 'application/problem+json';
      const refusedRequest = fromPrism && ((response.status === 422 && text.includes('UNPROCESSABLE_ENTITY')) || (response.status === 401 && text.includes('UNAUTHORIZED')));
      tally.exchanges++;
      if (refusedRequest || violations.some((violation) => violation.location[0] === 'request')) tally.requestViolations++;
      if (exchange.direct) tally.direct++;
      const directFailed = exchange.direct === true && (response.status >= 500 || (exchange.method === 'HEAD' ? text !== '' : response.status < 400));
      const bad = (fromPrism && !refusedRequest) || inResponse.length > 0 || directFailed || (refusedRequest && !exchange.invalid);
      if (bad) tally.responseViolations++;
      if (bad || options.verbose) {
        console.log(`${bad ? 'VIOLATION ' : ''}${exchange.method} ${exchange.url}${exchange.invalid ? ' (invalid)' : ''} -> ${response.status}`);
        if (bad) console.log(`  ${JSON.stringify(inResponse.length > 0 ? inResponse : text.slice(0, 1500))}`);
      }
      return { status: response.status, body: text.startsWith('{') || text.startsWith('[') ? JSON.parse(text) : text, headers: response.headers };
    };
    await exchanges(call);
  } finally {
    await stop(prism);
  }
  return tally;
}

type Call = (exchange: Exchange) => Promise<{ status: number; body: any; headers: Headers }>;

/** Bodies the document refuses, and what the server answers them with. */
async function refusedBodies(call: Call, url: string, headers: Record<string, string>): Promise<void> {
  await call({ method: 'POST', url, headers, body: { pad: 'x'.repeat(70_000) }, invalid: true, direct: true });
  await call({ method: 'POST', url, headers: { ...headers, 'content-type': 'application/xml' }, raw: '<x/>', invalid: true });
  await call({ method: 'POST', url, headers: { ...headers, 'content-type': 'application/json', 'content-encoding': 'gzip' }, raw: '{}', invalid: true });
  await call({ method: 'POST', url, headers: { ...headers, 'content-type': 'application/json' }, raw: '{"broken', invalid: true, direct: true });
}

async function publicExchanges(call: Call): Promise<void> {
  const document = await call({ method: 'GET', url: '/openapi.json' });
  await call({ method: 'GET', url: '/openapi.json', headers: { 'if-none-match': document.headers.get('etag')! } });
  await call({ method: 'HEAD', url: '/openapi.json', direct: true });
  for (const url of ['/healthz', '/readyz', '/metrics', '/']) {
    await call({ method: 'GET', url });
    await call({ method: 'HEAD', url, direct: true });
  }

  // The catalog.
  const list = await call({ method: 'GET', url: '/public/v1/products?limit=3' });
  await call({ method: 'GET', url: '/public/v1/products?limit=3', headers: { 'if-none-match': list.headers.get('etag')! } });
  await call({ method: 'HEAD', url: '/public/v1/products', direct: true });
  await call({ method: 'GET', url: `/public/v1/products?limit=2&cursor=${encodeURIComponent(list.body.next_cursor ?? '')}` });
  await call({ method: 'GET', url: '/public/v1/products?q=oil&sort=price_asc&available=true&country=IT&locale=it' });
  for (const query of ['limit=abc', 'limit=1000', 'country=zz1', 'currency=XXX', 'sort=nope', 'cursor=bad&offset=2', 'price_min=9&price_max=1']) {
    await call({ method: 'GET', url: `/public/v1/products?${query}`, invalid: true });
  }
  const product = list.body.products[0];
  const detail = await call({ method: 'GET', url: `/public/v1/products/${product.handle}` });
  await call({ method: 'GET', url: `/public/v1/products/${product.handle}`, headers: { 'if-none-match': detail.headers.get('etag')! } });
  await call({ method: 'HEAD', url: `/public/v1/products/${product.handle}`, direct: true });
  await call({ method: 'GET', url: '/public/v1/products/no-such-product' });
  await call({ method: 'GET', url: '/public/v1/products/Bad%20Handle', invalid: true });
  await call({ method: 'GET', url: '/public/v1/products/', invalid: true });
  const variant = product.variants[0];
  await call({ method: 'GET', url: `/public/v1/lookup?product_id=${product.id}` });
  await call({ method: 'GET', url: `/public/v1/lookup?variant_id=${variant.id}` });
  if (variant.sku) await call({ method: 'GET', url: `/public/v1/lookup?sku=${encodeURIComponent(variant.sku)}` });
  await call({ method: 'GET', url: '/public/v1/lookup?sku=' + 'x'.repeat(500), invalid: true });
  for (const url of ['/public/v1/categories', '/public/v1/collections']) {
    await call({ method: 'GET', url });
    await call({ method: 'HEAD', url, direct: true });
    await call({ method: 'GET', url: `${url}?locale=xx`, invalid: true });
  }

  // The sandbox.
  await call({ method: 'GET', url: '/sandbox/v1' });
  await call({ method: 'HEAD', url: '/sandbox/v1', direct: true });
  const key = await call({ method: 'POST', url: '/sandbox/v1/keys', body: {} });
  await call({ method: 'POST', url: '/sandbox/v1/keys', body: { scopes: ['nope'] }, invalid: true });
  await call({ method: 'POST', url: '/sandbox/v1/keys', headers: { 'sandbox-scenario': 'rate_limited' } });
  await call({ method: 'POST', url: '/sandbox/v1/keys', headers: { 'sandbox-scenario': 'unavailable' } });
  await call({ method: 'POST', url: '/sandbox/v1/keys', headers: { 'sandbox-scenario': 'out_of_stock' }, invalid: true });
  await refusedBodies(call, '/sandbox/v1/keys', {});
  const auth = { authorization: `Bearer ${key.body.access_token}` };
  let n = 0;
  const idem = () => ({ ...auth, 'idempotency-key': `contract-${++n}` });
  const cart = await call({ method: 'POST', url: '/sandbox/v1/carts', headers: idem(), body: { currency: 'EUR' } });
  await call({ method: 'POST', url: '/sandbox/v1/carts', headers: { 'idempotency-key': 'x' }, body: {}, invalid: true });
  await call({ method: 'POST', url: '/sandbox/v1/carts', headers: idem(), body: { currency: 'XXX' } });
  await call({ method: 'POST', url: '/sandbox/v1/carts', headers: idem(), body: { extra: 1 }, invalid: true });
  await call({ method: 'POST', url: '/sandbox/v1/carts', headers: { ...idem(), 'sandbox-scenario': 'unavailable' }, body: {} });
  await call({ method: 'POST', url: '/sandbox/v1/carts', headers: { ...idem(), 'sandbox-scenario': 'rate_limited' }, body: {} });
  await refusedBodies(call, '/sandbox/v1/carts', idem());
  const id = cart.body.id;
  const base = `/sandbox/v1/carts/${id}`;
  await call({ method: 'GET', url: base, headers: auth });
  await call({ method: 'HEAD', url: base, headers: auth, direct: true });
  await call({ method: 'GET', url: '/sandbox/v1/carts/cart_nope', headers: auth });
  await call({ method: 'GET', url: base, invalid: true });
  const other = await call({ method: 'POST', url: '/sandbox/v1/keys', body: {} });
  await call({ method: 'GET', url: base, headers: { authorization: `Bearer ${other.body.access_token}` } });
  await call({ method: 'POST', url: `${base}/items`, headers: idem(), body: { variant_id: variant.id, quantity: 1 } });
  await call({ method: 'POST', url: `${base}/items`, headers: idem(), body: { variant_id: 'variant_nope', quantity: 1 } });
  await call({ method: 'POST', url: `${base}/items`, headers: { ...idem(), 'sandbox-scenario': 'out_of_stock' }, body: { variant_id: variant.id, quantity: 1 } });
  await call({ method: 'POST', url: `${base}/items`, headers: idem(), body: { variant_id: variant.id, quantity: 0 }, invalid: true });
  await refusedBodies(call, `${base}/items`, idem());
  await call({ method: 'POST', url: `${base}/items/${variant.id}`, headers: idem(), body: { quantity: 2 } });
  await call({ method: 'POST', url: `${base}/items/${variant.id}`, headers: idem(), body: { quantity: -1 }, invalid: true });
  await call({ method: 'GET', url: `${base}/shipping-options`, headers: auth });
  await call({ method: 'HEAD', url: `${base}/shipping-options`, headers: auth, direct: true });
  await call({ method: 'POST', url: `${base}/checkout`, headers: idem() });
  await call({ method: 'POST', url: `${base}/shipping-address`, headers: idem(), body: { name: 'Ada Lovelace', line_one: 'Via Roma 1', city: 'Milano', country: 'IT', postal_code: '20121' } });
  await call({ method: 'POST', url: `${base}/shipping-address`, headers: idem(), body: { country: 'Italy' }, invalid: true });
  await call({ method: 'POST', url: `${base}/shipping-option`, headers: idem(), body: { shipping_option_id: 'sandbox_standard' } });
  await call({ method: 'POST', url: `${base}/shipping-option`, headers: idem(), body: { shipping_option_id: 'nope' }, invalid: true });
  await call({ method: 'POST', url: base, headers: idem(), body: { action: 'nope' }, invalid: true });
  await call({ method: 'POST', url: base, headers: idem(), body: { action: 'add_item', variant_id: variant.id, quantity: 1 } });
  await call({ method: 'GET', url: base, headers: { ...auth, 'sandbox-scenario': 'price_changed' } });
  await call({ method: 'POST', url: `${base}/checkout`, headers: { authorization: `Bearer ${key.body.access_token}`, 'idempotency-key': 'checkout' } });
  await call({ method: 'POST', url: `${base}/checkout`, headers: { authorization: `Bearer ${key.body.access_token}`, 'idempotency-key': 'checkout', 'sandbox-scenario': 'unavailable' } });
  await call({ method: 'DELETE', url: `${base}/items?variant_id=${variant.id}`, headers: auth });
  await call({ method: 'DELETE', url: `${base}/items`, headers: auth, invalid: true });
  const publicKey = (await call({ method: 'GET', url: '/sandbox/v1' })).body.key_issuance?.public_key;
  if (typeof publicKey === 'string') await call({ method: 'POST', url: '/sandbox/v1/carts', headers: { authorization: `Bearer ${publicKey}`, 'idempotency-key': 'pk' }, body: {} });

  // The MCP endpoints.
  const mcp = { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };
  for (const url of ['/mcp', '/mcp/sandbox']) {
    await call({ method: 'POST', url, headers: mcp, body: { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'contract-check', version: '1' } } } });
    await call({ method: 'POST', url, headers: mcp, body: { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} } });
    await call({ method: 'POST', url, headers: mcp, body: { jsonrpc: '2.0', method: 'notifications/initialized' } });
    await call({ method: 'POST', url, headers: mcp, raw: '{"jsonrpc":', invalid: true, direct: true });
    await call({ method: 'POST', url, headers: mcp, body: { nope: true }, invalid: true });
    await call({ method: 'POST', url, headers: { accept: 'text/html' }, body: { jsonrpc: '2.0', id: 3, method: 'tools/list' } });
  }
}

async function adminExchanges(call: Call): Promise<void> {
  const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };
  await call({ method: 'GET', url: '/admin/openapi.json' });
  await call({ method: 'HEAD', url: '/admin/openapi.json', direct: true });
  await call({ method: 'GET', url: '/admin/v1/audit', headers: auth });
  await call({ method: 'HEAD', url: '/admin/v1/audit', headers: auth, direct: true });
  await call({ method: 'GET', url: '/admin/v1/audit?limit=0', headers: auth, invalid: true });
  await call({ method: 'GET', url: '/admin/v1/audit', invalid: true });
  await call({ method: 'GET', url: '/admin/v1/audit', headers: { authorization: 'Bearer wrong_token_0123456789abcdef' } });

  const handle = 'contract-check-product';
  const product = {
    status: 'published',
    weighted: false,
    translations: { en: { title: 'Contract check' } },
    options: [],
    variants: [{ sku: 'CONTRACT-1', options: [], prices: [{ currency: 'EUR', amount: 5 }], manage_inventory: true, inventory_quantity: 3, allow_backorder: false }],
  };
  const created = await call({ method: 'PUT', url: `/admin/v1/products/${handle}`, headers: auth, body: product });
  await call({ method: 'PUT', url: `/admin/v1/products/${handle}`, headers: auth, body: product });
  await call({ method: 'PUT', url: `/admin/v1/products/${handle}`, headers: auth, body: { status: 'nope' }, invalid: true });
  await call({ method: 'PUT', url: `/admin/v1/products/${handle}`, headers: { ...auth, 'if-match': '"999"' }, body: product });
  await call({ method: 'GET', url: `/admin/v1/products/${handle}`, headers: auth });
  await call({ method: 'HEAD', url: `/admin/v1/products/${handle}`, headers: auth, direct: true });
  await call({ method: 'GET', url: '/admin/v1/products/no-such-product', headers: auth });
  await call({ method: 'PATCH', url: `/admin/v1/products/${handle}`, headers: auth, body: { status: 'draft' } });
  await call({ method: 'PATCH', url: `/admin/v1/products/${handle}`, headers: auth, body: { nope: 1 }, invalid: true });
  await refusedBodies(call, '/admin/v1/inventory', auth);
  const variantId = created.body?.variants?.[0]?.id ?? 'variant_nope';
  await call({ method: 'GET', url: `/admin/v1/variants/${variantId}`, headers: auth });
  await call({ method: 'HEAD', url: `/admin/v1/variants/${variantId}`, headers: auth, direct: true });
  await call({ method: 'GET', url: '/admin/v1/variants/variant_nope', headers: auth });
  await call({ method: 'PATCH', url: `/admin/v1/variants/${variantId}`, headers: auth, body: { inventory_quantity: 7 } });
  await call({ method: 'PATCH', url: `/admin/v1/variants/${variantId}`, headers: auth, body: { inventory_quantity: -7 }, invalid: true });
  await call({ method: 'POST', url: '/admin/v1/inventory', headers: auth, body: { rows: [{ sku: 'CONTRACT-1', inventory_quantity: 9 }] } });
  await call({ method: 'POST', url: '/admin/v1/inventory', headers: auth, body: { rows: [{ sku: 'NO-SUCH-SKU', inventory_quantity: 9 }] } });
  await call({ method: 'POST', url: '/admin/v1/prices', headers: auth, body: { rows: [{ sku: 'CONTRACT-1', currency: 'EUR', amount: 6 }] } });
  await call({ method: 'POST', url: '/admin/v1/prices', headers: auth, body: { rows: [{ sku: 'CONTRACT-1' }] }, invalid: true });
  await call({ method: 'PUT', url: '/admin/v1/regions/contract_region', headers: auth, body: { name: 'Contract', currency: 'CHF', countries: ['CH'] } });
  await call({ method: 'PUT', url: '/admin/v1/regions/contract_region', headers: auth, body: { name: 'Contract' }, invalid: true });
  await call({ method: 'POST', url: '/admin/v1/imports', headers: auth, body: { regions: [], products: [{}] }, invalid: true });
  await call({ method: 'POST', url: '/admin/v1/imports?unpublish_missing=maybe', headers: auth, body: {}, invalid: true });
  await call({ method: 'POST', url: '/admin/v1/imports', headers: { ...auth, 'content-type': 'application/xml' }, raw: '<x/>', invalid: true });
  await call({ method: 'GET', url: '/admin/v1/imports?limit=5', headers: auth });
  await call({ method: 'GET', url: '/admin/v1/imports/imp_000000000000000000000000', headers: auth });
  await call({ method: 'POST', url: '/admin/v1/imports/imp_000000000000000000000000/cancel', headers: auth });
  await call({ method: 'DELETE', url: `/admin/v1/products/${handle}`, headers: { ...auth, 'if-match': '"999"' } });
  await call({ method: 'DELETE', url: `/admin/v1/products/${handle}`, headers: auth });
  await call({ method: 'DELETE', url: `/admin/v1/products/${handle}`, headers: auth });
}

/** fetch() refuses a GET with a body; node:http sends one. */
function getWithEncodedBody(port: number): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ port, host: '127.0.0.1', path: '/public/v1/products', method: 'GET', headers: { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': '2' } }, (response) => {
      response.resume();
      resolve(response.statusCode);
    });
    request.on('error', reject);
    request.end('{}');
  });
}

function start(command: string, args: string[], env: Record<string, string>): ChildProcess {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  child.on('error', (error) => {
    console.error(`${command}: ${error.message}`);
    process.exit(2);
  });
  return child;
}

/** SIGTERM, then SIGKILL if the process is still there after 5 s (a hung Prism ignores the first). */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill();
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

/** Polls until the URL answers (any status when `anyStatus`: Prism answers unknown paths 404). */
async function waitFor(url: string, anyStatus = false): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt++) {
    const response = await fetch(url).catch(() => undefined);
    if (response && (anyStatus || response.ok)) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not answer within a minute`);
}

process.exitCode = await main();
