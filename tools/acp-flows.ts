import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { buildService, freePort, startNodeProcess } from '../bench/service-process.js';
import { commandLineOrExit } from '../src/lib/command-line.js';
import { ACP_RELEASE_DIR } from '../test/support/acp-validator.js';

/**
 * `npm run acp:flows`: the ACP must-show of docs/acp.md (The flows through Prism). It
 * builds the service and runs it on a fresh store (the demo catalog), puts Prism 5 in
 * front of it as a validating proxy, one per release document (`prism proxy --errors`
 * with openapi.agentic_checkout.yaml, openapi.delegate_payment.yaml and
 * openapi.cart.yaml), and drives complete flows through the proxies: create, update with
 * an address, choose the fulfillment, delegate a payment, complete; a declined payment;
 * allowances that do not cover the session; cancel; idempotent replays and conflicts; an
 * unknown item and an out-of-stock item; and carts: create, update, get, cancel and
 * cancel again, replays and conflicts, an unknown item, an out-of-stock one, only
 * out-of-stock ones. Prism answers a request or an answer that breaks the release with an
 * error of its own; each one, and each violation Prism logs, counts. It ends with exit
 * code 1 on any violation or unexpected status.
 *
 * `--prism "<command>"` runs another Prism (default: `npx --yes @stoplight/prism-cli@5`,
 * fetched from the npm registry on first use).
 */

type Json = Record<string, any>;

const RELEASE = path.join(ACP_RELEASE_DIR, 'spec', '2026-04-17', 'openapi');
const DOCUMENTS = { checkout: 'openapi.agentic_checkout.yaml', delegatePayment: 'openapi.delegate_payment.yaml', cart: 'openapi.cart.yaml' } as const;
const API_VERSION = '2026-04-17';
/** Only a hang guard: the first npx run downloads Prism. */
const PRISM_START_MS = 180_000;
const ADDRESS = { name: 'Ada Rossi', line_one: 'Via Roma 1', city: 'Milano', state: 'MI', country: 'IT', postal_code: '20121' };

const prismCommand = commandLineOrExit(
  `usage: npm run acp:flows -- [--prism "COMMAND"]

Builds the server and runs it on a fresh store (the demo catalog) behind Prism 5 as a
validating proxy for each ACP release document, drives whole checkout, delegated
payment and cart flows through it and prints the exchanges (docs/acp.md, The flows
through Prism). Exits 1 on any violation or unexpected status. --prism runs another Prism
(default: npx --yes @stoplight/prism-cli@5, fetched from the npm registry on first use).`,
  { options: { prism: { type: 'string', default: 'npx --yes @stoplight/prism-cli@5' } } },
  ({ values }) => values.prism.split(' '),
);

const say = (line = '') => console.log(line);
const violations: string[] = [];
let exchanges = 0;

await buildService();
const dataDir = await mkdtemp(path.join(tmpdir(), 'vetrina-acp-flows-'));
const service = await startNodeProcess(['dist/server.js'], (url) => ({ DATA_DIR: dataDir, PUBLIC_BASE_URL: url, LOG_LEVEL: 'warn' }), '/healthz');
const proxies: { child: ChildProcess; url: string }[] = [];
try {
  const checkout = await startPrism(DOCUMENTS.checkout);
  const delegate = await startPrism(DOCUMENTS.delegatePayment);
  const carts = await startPrism(DOCUMENTS.cart);
  say(`# ACP flows through Prism (${prismCommand.join(' ')} proxy --errors)`);
  say(`service ${service.url} (a built server on a fresh store, the demo catalog)`);
  say(`checkout proxy ${checkout} (${DOCUMENTS.checkout}), delegate payment proxy ${delegate} (${DOCUMENTS.delegatePayment}), cart proxy ${carts} (${DOCUMENTS.cart})`);

  const key = (await (await fetch(`${service.url}/sandbox/v1/keys`, { method: 'POST' })).json()) as Json;
  const token = key.access_token as string;
  const variants = await catalogVariants();
  const inStock = variants.find((variant) => variant.availability.status === 'in_stock')!;
  const outOfStock = variants.find((variant) => variant.availability.status === 'out_of_stock')!;
  say(`a sandbox key; items: ${inStock.sku} (in stock), ${outOfStock.sku} (out of stock)`);

  /** One exchange through a proxy: the expected status, else the run fails; Prism's own errors count as violations. */
  const call = async (base: string, method: 'GET' | 'POST' | 'PUT', url: string, expected: number, body?: unknown, idempotencyKey: string = randomUUID()) => {
    exchanges += 1;
    const response = await fetch(`${base}${url}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        'api-version': API_VERSION,
        'request-id': `acp-flows-${exchanges}`,
        ...(method !== 'GET' && { 'idempotency-key': idempotencyKey, 'content-type': 'application/json' }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    const data = (text === '' ? {} : JSON.parse(text)) as Json;
    if (typeof data.type === 'string' && data.type.includes('stoplight.io/prism/errors')) violations.push(`${method} ${url}: ${text}`);
    else if (response.status !== expected) throw new Error(`${method} ${url}: expected ${expected}, got ${response.status} ${text}`);
    say(`  ${method} ${url} → ${response.status}${response.headers.get('idempotent-replayed') ? ' (replayed)' : ''}${data.code ? ` ${data.code}` : ''}${data.status ? ` ${data.status}` : ''}`);
    return { status: response.status, data, text };
  };
  const create = (body: Json, expected = 201, idempotencyKey?: string) =>
    call(checkout, 'POST', '/checkout_sessions', expected, { currency: 'eur', capabilities: {}, ...body }, idempotencyKey);
  const update = (id: string, body: Json) => call(checkout, 'POST', `/checkout_sessions/${id}`, 200, body);
  const complete = (id: string, vaultToken: string, expected: number, idempotencyKey?: string) =>
    call(
      checkout,
      'POST',
      `/checkout_sessions/${id}/complete`,
      expected,
      { payment_data: { handler_id: 'sandbox_card', instrument: { type: 'card', credential: { type: 'vault_token', token: vaultToken } } } },
      idempotencyKey,
    );
  const delegation = (session: Json, card: string, allowance: Json = {}) => ({
    payment_method: { type: 'card', card_number_type: 'fpan', number: card, display_card_funding_type: 'credit', display_last4: card.slice(-4), metadata: {} },
    allowance: {
      reason: 'one_time',
      max_amount: total(session),
      currency: session.currency,
      checkout_session_id: session.id,
      merchant_id: 'vetrina_sandbox',
      expires_at: new Date(Date.now() + 3_600_000).toISOString(),
      ...allowance,
    },
    risk_signals: [{ type: 'card_testing', score: 2, action: 'authorized' }],
    metadata: { flow: 'acp-flows' },
  });
  const delegatePayment = async (session: Json, card: string, allowance?: Json) =>
    (await call(delegate, 'POST', '/agentic_commerce/delegate_payment', 201, delegation(session, card, allowance))).data.id as string;
  /** A session ready for payment: created with a buyer, then an address, then the shipping option. */
  const ready = async () => {
    const created = await create({ line_items: [{ id: inStock.id }, { id: inStock.id }], buyer: { first_name: 'Ada', last_name: 'Rossi', email: 'ada@example.com' } });
    await update(created.data.id, { fulfillment_details: { phone_number: '+39 02 1234567', address: ADDRESS } });
    const chosen = await update(created.data.id, { selected_fulfillment_options: [{ type: 'shipping', option_id: created.data.fulfillment_options[0].id, item_ids: [inStock.id] }] });
    if (chosen.data.status !== 'ready_for_payment') throw new Error(`not ready: ${chosen.text}`);
    return chosen.data;
  };

  say('\n## Create, update with an address, choose fulfillment, delegate a payment, complete');
  const session = await ready();
  const vaultToken = await delegatePayment(session, '4242424242424242');
  const completed = await complete(session.id, vaultToken, 200);
  say(`  completed: order ${completed.data.order.id}, total ${total(completed.data)} ${completed.data.currency}`);
  await call(checkout, 'GET', `/checkout_sessions/${session.id}`, 200);

  say('\n## A declined payment, then another card');
  const declinedSession = await ready();
  await complete(declinedSession.id, await delegatePayment(declinedSession, '4000000000009995'), 402);
  await complete(declinedSession.id, await delegatePayment(declinedSession, '4242424242424242'), 200);

  say('\n## Allowances that do not cover the session: exceeded, expired');
  const allowanceSession = await ready();
  await complete(allowanceSession.id, await delegatePayment(allowanceSession, '4242424242424242', { max_amount: total(allowanceSession) - 1 }), 402);
  await complete(allowanceSession.id, await delegatePayment(allowanceSession, '4242424242424242', { expires_at: new Date(Date.now() - 1000).toISOString() }), 402);

  say('\n## Cancel, then cancel again');
  const canceled = await ready();
  await call(checkout, 'POST', `/checkout_sessions/${canceled.id}/cancel`, 200, { intent_trace: { reason_code: 'timing_deferred' } });
  await call(checkout, 'POST', `/checkout_sessions/${canceled.id}/cancel`, 405);

  say('\n## Idempotent replays and conflicts');
  const createKey = randomUUID();
  const body = { line_items: [{ id: inStock.id }] };
  const first = await create(body, 201, createKey);
  const replay = await create(body, 201, createKey);
  if (replay.text !== first.text) throw new Error('the replay is not the first answer');
  await create({ line_items: [{ id: inStock.id }, { id: inStock.id }] }, 422, createKey);
  const replayed = await ready();
  const delegateKey = randomUUID();
  const delegated = delegation(replayed, '4242424242424242');
  const replayedToken = (await call(delegate, 'POST', '/agentic_commerce/delegate_payment', 201, delegated, delegateKey)).data.id as string;
  const delegatedAgain = await call(delegate, 'POST', '/agentic_commerce/delegate_payment', 201, delegated, delegateKey);
  if (delegatedAgain.data.id !== replayedToken) throw new Error('the delegation replay is another token');
  await call(delegate, 'POST', '/agentic_commerce/delegate_payment', 422, delegation(replayed, '4000000000000002'), delegateKey);
  const completeKey = randomUUID();
  const paid = await complete(replayed.id, replayedToken, 200, completeKey);
  if ((await complete(replayed.id, replayedToken, 200, completeKey)).text !== paid.text) throw new Error('the completion replay is not the first answer');

  say('\n## An unknown item and an out-of-stock item');
  await create({ line_items: [{ id: 'variant_not_in_the_catalog' }] }, 400);
  const soldOut = await create({ line_items: [{ id: inStock.id }, { id: outOfStock.id }] });
  say(`  messages: ${(soldOut.data.messages as Json[]).map((message) => `${message.code} at ${message.param}`).join(', ')}`);

  say('\n## Carts: create, update, get, cancel, then cancel again');
  const createCart = (lineItems: Json[], expected = 201, idempotencyKey?: string) => call(carts, 'POST', '/carts', expected, { line_items: lineItems, locale: 'it-IT' }, idempotencyKey);
  const updateCart = (id: string, lineItems: Json[], idempotencyKey?: string) => call(carts, 'PUT', `/carts/${id}`, 200, { line_items: lineItems }, idempotencyKey);
  const cart = await createCart([{ id: inStock.id }]);
  await updateCart(cart.data.id, [{ id: inStock.id }, { id: inStock.id }, { id: outOfStock.id }]);
  const read = await call(carts, 'GET', `/carts/${cart.data.id}`, 200);
  say(`  ${cartSummary(read.data)}`);
  await call(carts, 'POST', `/carts/${cart.data.id}/cancel`, 200, {});
  await call(carts, 'POST', `/carts/${cart.data.id}/cancel`, 404);
  await call(carts, 'GET', `/carts/${cart.data.id}`, 404);

  say('\n## Cart replays and conflicts');
  const cartKey = randomUUID();
  const firstCart = await createCart([{ id: inStock.id }], 201, cartKey);
  if ((await createCart([{ id: inStock.id }], 201, cartKey)).text !== firstCart.text) throw new Error('the cart replay is not the first answer');
  await createCart([{ id: inStock.id }, { id: inStock.id }], 422, cartKey);
  const updateKey = randomUUID();
  const updated = await updateCart(firstCart.data.id, [{ id: inStock.id }, { id: inStock.id }], updateKey);
  if ((await updateCart(firstCart.data.id, [{ id: inStock.id }, { id: inStock.id }], updateKey)).text !== updated.text) throw new Error('the update replay is not the first answer');
  await call(carts, 'PUT', `/carts/${firstCart.data.id}`, 422, { line_items: [{ id: inStock.id }] }, updateKey);

  say('\n## Carts with an unknown item, an out-of-stock item, only out-of-stock items');
  await createCart([{ id: 'variant_not_in_the_catalog' }], 400);
  const partial = await createCart([{ id: inStock.id }, { id: outOfStock.id }]);
  say(`  ${cartSummary(partial.data)}`);
  await createCart([{ id: outOfStock.id }], 422);

  say(`\n${exchanges} exchanges through Prism, ${violations.length} violations`);
  for (const violation of violations) say(`  ${violation}`);
} finally {
  for (const proxy of proxies) stopGroup(proxy.child);
  await service.stop();
  await rm(dataDir, { recursive: true, force: true });
}
if (violations.length > 0) process.exitCode = 1;

/** Every variant of the public catalog's default market, page by page. */
async function catalogVariants(): Promise<Json[]> {
  const variants: Json[] = [];
  for (let cursor: string | null = ''; cursor !== null; ) {
    const page = (await (await fetch(`${service.url}/public/v1/products?limit=20${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)).json()) as Json;
    variants.push(...(page.products as Json[]).flatMap((product) => product.variants as Json[]));
    cursor = page.next_cursor as string | null;
  }
  return variants;
}

/** Ends a proxy and whatever it started (its process group). */
function stopGroup(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, 'SIGTERM');
  } catch {
    // Already gone.
  }
}

/** A cart's lines, total and error messages, for the transcript. */
function cartSummary(cart: Json): string {
  const lines = (cart.line_items as Json[]).map((line) => `${line.quantity} × ${line.sku}`).join(', ');
  const errors = (cart.messages as Json[]).filter((message) => message.type === 'error').map((message) => message.code as string);
  return `cart ${cart.id}: ${lines}; total ${total(cart)} ${cart.currency as string}${errors.length > 0 ? `; messages: ${errors.join(', ')}` : ''}`;
}

function total(session: Json): number {
  return (session.totals as Json[]).find((entry) => entry.type === 'total')!.amount as number;
}

/** Prism as a validating proxy for one release document in front of the service's /acp; its violation lines count. */
async function startPrism(document: string): Promise<string> {
  const port = await freePort();
  const [command, ...args] = prismCommand;
  const child = spawn(command!, [...args, 'proxy', '--errors', '-h', '127.0.0.1', '-p', String(port), path.join(RELEASE, document), `${service.url}/acp`], {
    stdio: ['ignore', 'pipe', 'pipe'],
    // A group of its own: npx runs Prism as a child that a signal to npx alone would leave running.
    detached: true,
  });
  proxies.push({ child, url: `http://127.0.0.1:${port}` });
  const listening = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Prism (${document}) did not start within ${PRISM_START_MS / 1000} s`)), PRISM_START_MS);
    for (const stream of [child.stdout!, child.stderr!]) {
      createInterface({ input: stream }).on('line', (line) => {
        if (line.includes('Prism is listening')) {
          clearTimeout(timer);
          resolve();
        }
        if (/violation/i.test(line)) violations.push(`${document}: ${line}`);
      });
    }
    void once(child, 'exit').then(([code]) => reject(new Error(`Prism (${document}) exited with ${String(code)}`)));
  });
  await listening;
  return `http://127.0.0.1:${port}`;
}
