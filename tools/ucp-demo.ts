import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createHash, createPublicKey, randomUUID, type JsonWebKey } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createVerifier, httpbis } from 'http-message-signatures';
import { buildService, startNodeProcess } from '../bench/service-process.js';
import { commandLineOrExit } from '../src/lib/command-line.js';
import { platformProfile, ucpAgent } from '../test/support/ucp-platform.js';
import { ucpValidator, type UcpValidator } from '../test/support/ucp-validator.js';

/**
 * `npm run ucp:demo`: an agent's whole Universal Commerce Protocol flow against the built
 * server, from the business profile to the order and its signed webhook event, over REST
 * and then the same over MCP, printed as a transcript (docs/ucp.md, A whole flow).
 *
 * It runs the server as a process of its own on a fresh store (the demo catalog), with
 * PUBLIC_BASE_URL its own address, and a platform of its own on 127.0.0.1: its profile,
 * naming its order webhook, and the webhook, which checks each event's RFC 9421 signature
 * as docs/ucp.md tells platforms to. Both are on loopback over http, so the server runs
 * with the two local-development relaxations, UCP_ALLOW_LOOPBACK_HTTP and
 * WEBHOOK_ALLOW_PRIVATE_TARGETS. Where the release's validator is beside the repository
 * (../shared, as in CI), every answer is also validated against the release's schemas.
 * Any unexpected answer stops it with exit code 1.
 */

commandLineOrExit(
  `usage: npm run ucp:demo

Builds the server and runs it on a fresh store (the demo catalog) beside a platform of
its own on 127.0.0.1, then prints an agent's whole UCP flow as a transcript, from the
business profile to the order and its signed webhook event, over REST and then over
MCP (docs/ucp.md, A whole flow). Exits 1 on any unexpected answer. Takes no options.`,
  {},
);

const ORDER_WEBHOOK_PATH = '/webhooks/ucp/orders';
const EVENT_WAIT_MS = 30_000;
const PAYMENT = (token: string) => ({
  payment: { instruments: [{ id: 'instrument_1', handler_id: 'sandbox_payment', type: 'card', credential: { type: 'sandbox_token', token } }] },
});
const DESTINATION = { street_address: 'Via Roma 1', address_locality: 'Milano', postal_code: '20121', address_country: 'IT' };
const BUYER = { first_name: 'Ada', last_name: 'Rossi', email: 'ada@example.com' };

type Json = Record<string, any>;

/** A transport-neutral call of an operation: REST or an MCP tool, the answer's body or result. */
type Call = (operation: string, request: { id?: string; payload?: Json; idempotent?: boolean }) => Promise<Json>;

const say = (line = '') => console.log(line);
const fail = (message: string): never => {
  throw new Error(message);
};

await buildService();
const dataDir = await mkdtemp(path.join(tmpdir(), 'vetrina-ucp-demo-'));
const platform = await startPlatform();
const validation = await ucpValidator();
const service = await startNodeProcess(
  ['dist/server.js'],
  (url) => ({ DATA_DIR: dataDir, PUBLIC_BASE_URL: url, UCP_ALLOW_LOOPBACK_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', LOG_LEVEL: 'warn' }),
  '/healthz',
);
try {
  say(`# The UCP flow against ${service.url} (a built server on a fresh store), from the platform at ${platform.url}`);
  say(validation.validator ? "Every answer is validated with the release's validator (../shared/tools/ucp-validate)." : `Answers are not validated: the validator ${validation.skip}.`);

  say('\n## Discovery');
  const profileResponse = await fetch(`${service.url}/.well-known/ucp`);
  const business = (await profileResponse.json()) as Json;
  if (validation.validator) check(validation.validator.validateProfile(business, { kind: 'business' }), 'the business profile');
  const endpoint = (transport: string) =>
    (business.ucp.services['dev.ucp.shopping'] as Json[]).find((service) => service.transport === transport)?.endpoint ?? fail(`the profile has no ${transport} endpoint`);
  say(`GET /.well-known/ucp → ${profileResponse.status}, Cache-Control: ${profileResponse.headers.get('cache-control')}`);
  say(`  version ${business.ucp.version}; REST ${endpoint('rest')}; MCP ${endpoint('mcp')}`);
  say(`  capabilities: ${Object.keys(business.ucp.capabilities).join(', ')}`);
  say(`  payment handlers: ${Object.keys(business.ucp.payment_handlers).join(', ')}; signing key ${business.signing_keys[0].kid}`);
  const negotiated = validation.validator?.negotiate(business, platform.profile).capabilities;

  const keyResponse = await fetch(`${service.url}/sandbox/v1/keys`, { method: 'POST' });
  const key = ((await keyResponse.json()) as Json).access_token as string;
  say(`POST /sandbox/v1/keys → ${keyResponse.status}: a free sandbox key for carts and checkouts (24 h)`);

  say('\n## Over REST');
  const restOrder = await shop(restCall(endpoint('rest'), key, validation.validator, negotiated), 'REST');

  say('\n## Over MCP');
  const client = new Client({ name: 'vetrina-ucp-demo', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(endpoint('mcp')), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  try {
    const tools = (await client.listTools()).tools.map((tool) => tool.name);
    say(`tools/list → ${tools.join(', ')}`);
    const mcpOrder = await shop(mcpCall(client, platform.profileUrl, validation.validator, negotiated), 'MCP');
    if (mcpOrder === restOrder) fail('both flows answered the same order');
  } finally {
    await client.close();
  }
  say('\nBoth flows ended in a simulated order whose signed event reached the platform.');
} finally {
  await service.stop();
  await platform.close();
  await rm(dataDir, { recursive: true, force: true });
}

/** The flow, whatever the binding: find a product, cart it, check it out, pay (declined, then approved), read the order, get its event. */
async function shop(call: Call, binding: string): Promise<string> {
  const search = await call('search_catalog', { payload: { query: 'olive oil', context: { address_country: 'IT', language: 'en' }, pagination: { limit: 3 } } });
  const product = search.products[0] ?? fail('the search found nothing');
  const variant = product.variants[0];
  say(`  "olive oil" in Italy: ${search.products.map((found: Json) => found.title).join('; ')}`);
  say(`  taking ${product.title}, variant ${variant.id} at ${minor(variant.price)}`);

  const cart = await call('create_cart', { payload: { line_items: [{ item: { id: variant.id }, quantity: 2 }], context: { address_country: 'IT' } }, idempotent: true });
  say(`  cart ${cart.id}: ${cart.line_items.length} line, total ${total(cart)}`);

  // line_items is required by the release's schema; with cart_id, the cart's lines are checked out.
  const cartLines = cart.line_items.map((line: Json) => ({ item: { id: line.item.id }, quantity: line.quantity }));
  const created = await call('create_checkout', { payload: { cart_id: cart.id, line_items: cartLines }, idempotent: true });
  say(`  checkout ${created.id} from the cart: ${created.status}; to fix: ${created.messages.map((message: Json) => `${message.code} at ${message.path}`).join(', ')}`);

  const addressed = await call('update_checkout', {
    id: created.id,
    payload: { line_items: cartLines, buyer: BUYER, fulfillment: { methods: [{ type: 'shipping', destinations: [DESTINATION] }] } },
    idempotent: true,
  });
  const method = addressed.fulfillment.methods[0];
  const options = method.groups[0].options as Json[];
  say(`  buyer and destination given: ${addressed.status}; shipping options ${options.map((option) => `${option.id} (${option.title})`).join(', ')}`);

  const ready = await call('update_checkout', {
    id: created.id,
    payload: {
      line_items: cartLines,
      buyer: BUYER,
      fulfillment: {
        methods: [{ type: 'shipping', destinations: [{ id: method.destinations[0].id, ...DESTINATION }], selected_destination_id: method.destinations[0].id, groups: [{ selected_option_id: options[0]!.id }] }],
      },
    },
    idempotent: true,
  });
  if (ready.status !== 'ready_for_complete') fail(`the checkout is ${ready.status}: ${JSON.stringify(ready.messages)}`);
  say(`  option ${options[0]!.id} chosen: ${ready.status}, total ${total(ready)}`);

  const declined = await call('complete_checkout', { id: created.id, payload: PAYMENT('tok_sandbox_decline_insufficient_funds'), idempotent: true });
  const decline = declined.messages.find((message: Json) => message.code === 'payment_failed') ?? fail('the declined payment was not answered payment_failed');
  say(`  paid with tok_sandbox_decline_insufficient_funds: ${declined.status}, ${decline.code}: "${decline.content}"`);

  const waitForEvent = platform.nextEvent();
  const completed = await call('complete_checkout', { id: created.id, payload: PAYMENT('tok_sandbox_success'), idempotent: true });
  if (completed.status !== 'completed') fail(`the checkout is ${completed.status} after an approved payment`);
  say(`  paid with tok_sandbox_success: ${completed.status}, order ${completed.order.id}`);

  const order = await call('get_order', { id: completed.order.id });
  say(`  get_order: ${order.line_items.length} line, total ${total(order)}, ${order.fulfillment.expectations.length} shipment expected, simulated: ${order.simulated}`);

  const event = await waitForEvent;
  if (event.order.id !== order.id) fail(`the event is of order ${event.order.id}, not ${order.id}`);
  say(`  the platform's webhook got the order's event ${event.order.event_id} (${binding} flow), signature verified with key ${event.keyid}`);
  return order.id as string;
}

/** A REST call under the binding's endpoint, as the platform: UCP-Agent, the key, an Idempotency-Key where the operation takes one. */
function restCall(base: string, key: string, validator: UcpValidator | undefined, capabilities: unknown): Call {
  const routes: Record<string, [method: string, path: string]> = {
    search_catalog: ['POST', '/catalog/search'],
    create_cart: ['POST', '/carts'],
    create_checkout: ['POST', '/checkout-sessions'],
    update_checkout: ['PUT', '/checkout-sessions/{id}'],
    complete_checkout: ['POST', '/checkout-sessions/{id}/complete'],
    get_order: ['GET', '/orders/{id}'],
  };
  return async (operation, { id, payload, idempotent }) => {
    const [method, template] = routes[operation] ?? fail(`no route for ${operation}`);
    const pathname = template.replace('{id}', id ?? '');
    const response = await fetch(`${base}${pathname}`, {
      method,
      headers: {
        'ucp-agent': ucpAgent(platform.profileUrl),
        authorization: `Bearer ${key}`,
        ...(payload && { 'content-type': 'application/json' }),
        ...(idempotent && { 'idempotency-key': randomUUID() }),
      },
      ...(payload && { body: JSON.stringify(payload) }),
    });
    const body = (await response.json()) as Json;
    if (validator) check(validator.validateRest(operation, response.status, body, { capabilities }), `${operation}'s answer`);
    if (!response.ok || body.ucp?.status === 'error') fail(`${method} ${pathname} answered ${response.status}: ${JSON.stringify(body)}`);
    say(`${method} ${new URL(base).pathname}${pathname} → ${response.status}`);
    return body;
  };
}

/** An MCP tool call, as the platform: meta names its profile, with an idempotency key where the operation takes one. */
function mcpCall(client: Client, profileUrl: string, validator: UcpValidator | undefined, capabilities: unknown): Call {
  const payloadNames: Record<string, string> = { search_catalog: 'catalog', create_cart: 'cart', create_checkout: 'checkout', update_checkout: 'checkout', complete_checkout: 'checkout' };
  return async (operation, { id, payload, idempotent }) => {
    const meta = { 'ucp-agent': { profile: profileUrl }, ...(idempotent && { 'idempotency-key': randomUUID() }) };
    const result = await client.callTool({
      name: operation,
      arguments: { meta, ...(id !== undefined && { id }), ...(payload && { [payloadNames[operation]!]: payload }) },
    });
    if (validator) check(validator.validateMcpResult(operation, result, { capabilities }), `${operation}'s result`);
    const content = result.structuredContent as Json | undefined;
    if (result.isError || !content || content.ucp?.status === 'error') fail(`${operation} answered ${JSON.stringify(result)}`);
    say(`tools/call ${operation} → ok`);
    return content!;
  };
}

/** The platform: its profile (naming its order webhook) and the webhook, which verifies each event as docs/ucp.md shows. */
async function startPlatform() {
  const events: { order: Json; keyid: string }[] = [];
  const waiting: ((event: { order: Json; keyid: string }) => void)[] = [];
  let business: Json | undefined;
  const server = createServer(async (request, response) => {
    if (request.method === 'GET' && request.url === '/profile.json') return void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(profile));
    if (request.method !== 'POST' || request.url !== ORDER_WEBHOOK_PATH) return void response.writeHead(404).end();
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    business ??= (await (await fetch(`${service.url}/.well-known/ucp`)).json()) as Json;
    const keyid = await verifiedKey(request, body, business.signing_keys);
    if (!keyid) return void response.writeHead(401).end();
    response.writeHead(204).end();
    const event = { order: JSON.parse(body.toString('utf8')) as Json, keyid };
    events.push(event);
    waiting.shift()?.(event);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const profile = platformProfile({ webhookUrl: `${url}${ORDER_WEBHOOK_PATH}` });
  return {
    url,
    profile,
    profileUrl: `${url}/profile.json`,
    /** The next order event that arrives, signature verified. */
    nextEvent: () =>
      new Promise<{ order: Json; keyid: string }>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no order event within ${EVENT_WAIT_MS / 1000} s`)), EVENT_WAIT_MS);
        waiting.push((event) => {
          clearTimeout(timer);
          resolve(event);
        });
      }),
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/** The key id an event's signature verifies with (Content-Digest first), or undefined. */
async function verifiedKey(request: IncomingMessage, body: Buffer, signingKeys: (JsonWebKey & { kid: string })[]): Promise<string | undefined> {
  if (request.headers['content-digest'] !== `sha-256=:${createHash('sha256').update(body).digest('base64')}:`) return undefined;
  let keyid: string | undefined;
  const verified = await httpbis
    .verifyMessage(
      {
        keyLookup: async (parameters) => {
          const jwk = signingKeys.find((key) => key.kid === parameters.keyid);
          if (!jwk) return null;
          keyid = jwk.kid;
          return { id: jwk.kid, algs: ['ecdsa-p256-sha256'], verify: createVerifier(createPublicKey({ key: jwk, format: 'jwk' }), 'ecdsa-p256-sha256') };
        },
        requiredFields: ['@method', '@authority', '@path', 'content-digest', 'content-type'],
      },
      { method: request.method!, url: `http://${request.headers.host}${request.url}`, headers: request.headers as Record<string, string> },
    )
    .catch(() => false);
  return verified ? keyid : undefined;
}

function check(result: { valid: boolean; errors: string[] }, what: string): void {
  if (!result.valid) fail(`${what} is not valid UCP: ${result.errors.join('; ')}`);
}

/** An amount in minor units as money: `1250` in EUR is `12.50 EUR`. */
function minor(amount: Json | number, currency?: string): string {
  if (typeof amount === 'number') return `${(amount / 100).toFixed(2)} ${currency ?? ''}`.trim();
  return `${(amount.amount / 100).toFixed(2)} ${amount.currency}`;
}

/** The `total` entry of an answer's totals. */
function total(answer: Json): string {
  const entry = (answer.totals as Json[]).find((line) => line.type === 'total') ?? fail('no total');
  return minor(entry.amount, answer.currency);
}
