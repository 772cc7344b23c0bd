import { randomUUID } from 'node:crypto';
import { createHistogram, type RecordableHistogram } from 'node:perf_hooks';
import { mcpRequestInit } from '../test/support/mcp-json-rpc.js';

/**
 * The traffic of the soak: what a storefront and its agents send, in proportions a
 * catalog sees (mostly reads), over raw HTTP. MCP goes as plain JSON-RPC over fetch:
 * the official client is exercised by the test suite, and here it would cost the load
 * generator more than the requests it sends.
 */

export const KINDS = ['catalog', 'sandbox', 'mcp-catalog', 'mcp-cart', 'mcp-batch'] as const;
/**
 * catalog: REST reads (list, next page, search, detail) in every market.
 * sandbox: complete REST flows, key to checkout.
 * mcp-catalog: tools/list, search_catalog and get_product on both MCP servers.
 * mcp-cart: complete flows over /mcp/sandbox, create_sandbox_key to checkout.
 * mcp-batch: JSON-RPC batches (protocol revision 2025-03-26, within the default bounds) of
 *   search_catalog, get_product and ping on both MCP servers.
 */
export type Kind = (typeof KINDS)[number];
/** The kinds whose iterations are whole flows, counted when they reach checkout. */
export const FLOW_KINDS: readonly Kind[] = ['sandbox', 'mcp-cart'];

/** How often a worker picks each kind for its next iteration; a flow is about eight requests. */
const KIND_WEIGHTS: Record<Kind, number> = { catalog: 66, 'mcp-catalog': 15, sandbox: 8, 'mcp-cart': 7, 'mcp-batch': 4 };
/** Messages in one mcp-batch request: up to half the default MCP_BATCH_MAX_MESSAGES. */
const MAX_BATCH_MESSAGES = 10;
/** A request that takes longer counts as a transport error: the service has stalled. */
const REQUEST_TIMEOUT_MS = 30_000;
/** Failures described in the summary; the rest are only counted. */
const FAILURE_SAMPLES = 10;
const EXCERPT_CHARS = 300;
const SAMPLE_PAGES = 5;
const PAGE_SIZE = 20;

type Failure = 'serverErrors' | 'unexpected' | 'transportErrors';

/** Requests of one kind (or all kinds) in a window of time. */
export class Tally {
  requests = 0;
  serverErrors = 0;
  /** 4xx, JSON-RPC errors, tool errors and answers missing what the flow needs. */
  unexpected = 0;
  /** Refused or reset connections and time-outs. */
  transportErrors = 0;
  /** Flows that reached checkout. */
  flows = 0;
  /** Latency in microseconds. */
  readonly latency: RecordableHistogram = createHistogram();

  get failures(): number {
    return this.serverErrors + this.unexpected + this.transportErrors;
  }

  /** The latency percentile in milliseconds, 0 without requests. */
  percentileMs(percentile: number): number {
    return this.requests === 0 ? 0 : this.latency.percentile(percentile) / 1000;
  }
}

export class Window {
  private readonly startedAt = performance.now();
  private endedAt: number | undefined;
  readonly all = new Tally();
  readonly byKind = Object.fromEntries(KINDS.map((kind) => [kind, new Tally()])) as Record<Kind, Tally>;

  /** Its length so far, or in all once ended. */
  get seconds(): number {
    return ((this.endedAt ?? performance.now()) - this.startedAt) / 1000;
  }

  end(): void {
    this.endedAt ??= performance.now();
  }
}

/** Counts since the start and since the last report. */
export class LoadStats {
  readonly total = new Window();
  private current = new Window();
  readonly failureSamples: string[] = [];

  record(kind: Kind, micros: number, failure?: Failure, description?: string): void {
    for (const window of [this.total, this.current]) {
      for (const tally of [window.all, window.byKind[kind]]) {
        tally.requests++;
        tally.latency.record(Math.max(1, Math.round(micros)));
        if (failure) tally[failure]++;
      }
    }
    if (failure && this.failureSamples.length < FAILURE_SAMPLES) this.failureSamples.push(`${kind} ${description}`);
  }

  completeFlow(kind: Kind): void {
    this.total.byKind[kind].flows++;
    this.current.byKind[kind].flows++;
  }

  /** Ends the window since the last call and starts a new one. */
  takeWindow(): Window {
    const window = this.current;
    window.end();
    this.current = new Window();
    return window;
  }

  /** Ends the run: the total stops counting time; returns the window since the last report. */
  finish(): Window {
    this.total.end();
    return this.takeWindow();
  }
}

/** What the traffic is made of, read from the running service before the load starts. */
export interface CatalogSample {
  handles: string[];
  /** Variants purchasable with a price in the default market. */
  variantIds: string[];
  /** Words of product titles, for searches. */
  words: string[];
  /** Every country the catalog sells in, each with every locale. */
  markets: { country: string; locale: string }[];
  /** The default market's country and currency, where the carts are made. */
  country: string;
  currency: string;
}

interface ProductPage {
  products: { handle: string; title: string; variants: { id: string; price: unknown; availability: { purchasable: boolean } }[] }[];
  next_cursor: string | null;
  context: { country: string; currency: string };
}

interface Markets {
  regions: { countries: string[] }[];
  locales: string[];
}

export async function sampleCatalog(baseUrl: string): Promise<CatalogSample> {
  const pages: ProductPage[] = [];
  let cursor: string | null = '';
  while (cursor !== null && pages.length < SAMPLE_PAGES) {
    const page = (await getJson(`${baseUrl}/public/v1/products?limit=${PAGE_SIZE}${cursor && `&cursor=${encodeURIComponent(cursor)}`}`)) as ProductPage;
    pages.push(page);
    cursor = page.next_cursor;
  }
  const products = pages.flatMap((page) => page.products);
  const markets = (await mcpExchange(baseUrl, '/mcp', 'tools/call', { name: 'list_markets', arguments: {} })) as Markets;
  const sample: CatalogSample = {
    handles: products.map((product) => product.handle),
    variantIds: products.flatMap((product) =>
      product.variants.filter((variant) => variant.availability.purchasable && variant.price !== null).map((variant) => variant.id),
    ),
    words: [...new Set(products.flatMap((product) => product.title.toLowerCase().match(/\p{L}{4,}/gu) ?? []))],
    markets: markets.regions.flatMap((region) => region.countries.flatMap((country) => markets.locales.map((locale) => ({ country, locale })))),
    country: pages[0]!.context.country,
    currency: pages[0]!.context.currency,
  };
  for (const [name, list] of Object.entries({ handles: sample.handles, variantIds: sample.variantIds, words: sample.words, markets: sample.markets })) {
    if (list.length === 0) throw new Error(`the catalog at ${baseUrl} offers no ${name} to build traffic from`);
  }
  return sample;
}

export interface WorkloadOptions {
  baseUrl: string;
  /** Requests in flight at most: one per worker. */
  connections: number;
  sample: CatalogSample;
  stats: LoadStats;
  /** Checked before every request: once false, flows stop where they are and workers return. */
  running(): boolean;
}

/** Drives the service until `running()` turns false; failures are counted in `stats`, never thrown. */
export async function runWorkload(options: WorkloadOptions): Promise<void> {
  const client = new LoadClient(options.baseUrl, options.stats, options.running);
  const weights = Object.entries(KIND_WEIGHTS) as [Kind, number][];
  const totalWeight = weights.reduce((sum, [, weight]) => sum + weight, 0);
  const pickKind = (): Kind => {
    let roll = Math.random() * totalWeight;
    for (const [kind, weight] of weights) {
      roll -= weight;
      if (roll < 0) return kind;
    }
    return weights[0]![0];
  };
  const worker = async () => {
    while (options.running()) await SCENARIOS[pickKind()](client, options.sample);
  };
  await Promise.all(Array.from({ length: options.connections }, worker));
}

type Scenario = (client: LoadClient, sample: CatalogSample) => Promise<void>;

const SCENARIOS: Record<Kind, Scenario> = {
  async catalog(client, sample) {
    const { country, locale } = pick(sample.markets);
    const market = `country=${country}&locale=${locale}`;
    switch (randomInt(4)) {
      case 0:
        await client.rest('catalog', 'GET', `/public/v1/products?limit=${1 + randomInt(PAGE_SIZE)}&${market}`);
        return;
      case 1: {
        const page = (await client.rest('catalog', 'GET', `/public/v1/products?limit=${PAGE_SIZE}&${market}`)) as ProductPage | undefined;
        if (page?.next_cursor) await client.rest('catalog', 'GET', `/public/v1/products?limit=${PAGE_SIZE}&${market}&cursor=${encodeURIComponent(page.next_cursor)}`);
        return;
      }
      case 2:
        await client.rest('catalog', 'GET', `/public/v1/products?q=${encodeURIComponent(pick(sample.words))}&${market}`);
        return;
      default:
        await client.rest('catalog', 'GET', `/public/v1/products/${pick(sample.handles)}?${market}`);
    }
  },

  async sandbox(client, sample) {
    const key = await client.rest('sandbox', 'POST', '/sandbox/v1/keys', { read: requireField('access_token') });
    if (!key) return;
    const token = key.access_token as string;
    const cart = await client.rest('sandbox', 'POST', '/sandbox/v1/carts', {
      token,
      idempotencyKey: randomUUID(),
      body: { currency: sample.currency },
      read: requireField('id'),
    });
    if (!cart) return;
    const cartPath = `/sandbox/v1/carts/${cart.id as string}`;
    for (const variantId of pickSome(sample.variantIds)) {
      if (!(await client.rest('sandbox', 'POST', `${cartPath}/items`, { token, body: { variant_id: variantId, quantity: 1 + randomInt(3) } }))) return;
    }
    if (!(await client.rest('sandbox', 'POST', `${cartPath}/shipping-address`, { token, body: address(sample) }))) return;
    const options = await client.rest('sandbox', 'GET', `${cartPath}/shipping-options`, { token, read: requireOption });
    if (!options) return;
    if (!(await client.rest('sandbox', 'POST', `${cartPath}/shipping-option`, { token, body: { shipping_option_id: firstOptionId(options) } }))) return;
    const checkout = await client.rest('sandbox', 'POST', `${cartPath}/checkout`, { token, idempotencyKey: randomUUID(), read: requireReadyForCheckout });
    if (checkout) client.completeFlow('sandbox');
  },

  async 'mcp-catalog'(client, sample) {
    const endpoint = pick(['/mcp', '/mcp/sandbox']);
    const { country, locale } = pick(sample.markets);
    switch (randomInt(3)) {
      case 0:
        await client.mcp('mcp-catalog', endpoint, 'tools/list');
        return;
      case 1:
        await client.tool('mcp-catalog', endpoint, 'search_catalog', { query: pick(sample.words), country, locale, limit: 1 + randomInt(PAGE_SIZE) });
        return;
      default:
        await client.tool('mcp-catalog', endpoint, 'get_product', { handle: pick(sample.handles), country, locale });
    }
  },

  async 'mcp-batch'(client, sample) {
    const { country, locale } = pick(sample.markets);
    const messages = Array.from({ length: 2 + randomInt(MAX_BATCH_MESSAGES - 1) }, (_, index) => {
      const id = index + 1;
      switch (randomInt(3)) {
        case 0:
          return { jsonrpc: '2.0', id, method: 'ping' };
        case 1:
          return { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'search_catalog', arguments: { query: pick(sample.words), country, locale, limit: 1 + randomInt(PAGE_SIZE) } } };
        default:
          return { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'get_product', arguments: { handle: pick(sample.handles), country, locale } } };
      }
    });
    await client.batch('mcp-batch', pick(['/mcp', '/mcp/sandbox']), messages);
  },

  async 'mcp-cart'(client, sample) {
    const key = await client.tool('mcp-cart', '/mcp/sandbox', 'create_sandbox_key', {}, undefined, requireField('access_token'));
    if (!key) return;
    const token = key.access_token as string;
    const call = (name: string, args: Record<string, unknown>, read?: (value: any) => void) => client.tool('mcp-cart', '/mcp/sandbox', name, args, token, read);
    const cart = await call('create_cart', { currency: sample.currency, idempotency_key: randomUUID() }, requireField('id'));
    if (!cart) return;
    const cartId = cart.id as string;
    for (const variantId of pickSome(sample.variantIds)) {
      if (!(await call('add_to_cart', { cart_id: cartId, variant_id: variantId, quantity: 1 + randomInt(3), idempotency_key: randomUUID() }))) return;
    }
    if (!(await call('set_shipping_address', { cart_id: cartId, address: address(sample) }))) return;
    const options = await call('list_shipping_options', { cart_id: cartId }, requireOption);
    if (!options) return;
    if (!(await call('select_shipping_option', { cart_id: cartId, shipping_option_id: firstOptionId(options) }))) return;
    if (await call('checkout', { cart_id: cartId, idempotency_key: randomUUID() }, requireReadyForCheckout)) client.completeFlow('mcp-cart');
  },
};

interface RestOptions {
  token?: string;
  idempotencyKey?: string;
  body?: unknown;
  /** Throws when the parsed body lacks what the flow needs next. */
  read?: (body: any) => void;
}

/** Sends one request at a time per caller, timing it and counting its outcome. */
class LoadClient {
  constructor(
    private readonly baseUrl: string,
    private readonly stats: LoadStats,
    private readonly running: () => boolean,
  ) {}

  /** The parsed JSON body of a 2xx answer; undefined after a failure (counted) or once stopped. */
  rest(kind: Kind, method: string, path: string, options: RestOptions = {}): Promise<any> {
    const headers: Record<string, string> = {};
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const init = { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) };
    return this.send(kind, `${method} ${path}`, path, init, (text) => {
      const body = JSON.parse(text);
      options.read?.(body);
      return body;
    });
  }

  /** A JSON-RPC request to an MCP endpoint; its result, or undefined as for `rest`. */
  mcp(kind: Kind, endpoint: string, method: string, params: Record<string, unknown> = {}, token?: string, read?: (result: any) => void): Promise<any> {
    const init = mcpRequestInit(method, params, { token });
    const label = `${endpoint} ${method}${typeof params.name === 'string' ? ` ${params.name}` : ''}`;
    return this.send(kind, label, endpoint, init, (text) => {
      const result = mcpResult(method, text);
      read?.(result);
      return result;
    });
  }

  /** A tools/call; the tool's structuredContent, or undefined as for `rest`. */
  tool(kind: Kind, endpoint: string, name: string, args: Record<string, unknown>, token?: string, read?: (content: any) => void): Promise<any> {
    return this.mcp(kind, endpoint, 'tools/call', { name, arguments: args }, token, read);
  }

  /** A JSON-RPC batch under protocol revision 2025-03-26; fails unless every message is answered without an error. */
  batch(kind: Kind, endpoint: string, messages: { id: number; method: string }[]): Promise<any> {
    const init = {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-03-26' },
      body: JSON.stringify(messages),
    };
    return this.send(kind, `${endpoint} batch of ${messages.length}`, endpoint, init, (text) => {
      const answers = JSON.parse(text) as { id: number; error?: unknown; result?: { isError?: boolean } }[];
      const ids = answers.map((answer) => answer.id).join(',');
      if (ids !== messages.map((message) => message.id).join(',')) throw new Error(`batch answered ids ${ids}`);
      const failed = answers.find((answer) => answer.error !== undefined || answer.result?.isError);
      if (failed) throw new Error(`batch message failed: ${excerpt(JSON.stringify(failed))}`);
      return answers;
    });
  }

  completeFlow(kind: Kind): void {
    this.stats.completeFlow(kind);
  }

  private async send(kind: Kind, label: string, path: string, init: RequestInit, interpret: (text: string) => unknown): Promise<any> {
    if (!this.running()) return undefined;
    const started = performance.now();
    let status: number;
    let text: string;
    try {
      const response = await fetch(`${this.baseUrl}${path}`, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
      status = response.status;
      text = await response.text();
    } catch (error) {
      this.stats.record(kind, elapsedMicros(started), 'transportErrors', `${label}: ${describeError(error)}`);
      return undefined;
    }
    const micros = elapsedMicros(started);
    if (status < 200 || status > 299) {
      this.stats.record(kind, micros, status >= 500 ? 'serverErrors' : 'unexpected', `${label}: ${status} ${excerpt(text)}`);
      return undefined;
    }
    try {
      const value = interpret(text);
      this.stats.record(kind, micros);
      return value;
    } catch (error) {
      this.stats.record(kind, micros, 'unexpected', `${label}: ${(error as Error).message}`);
      return undefined;
    }
  }
}

/**
 * The result of a JSON-RPC answer, sent as JSON or as one server-sent event; a tool's
 * structuredContent for tools/call. JSON-RPC errors and tool errors throw.
 */
function mcpResult(method: string, text: string): any {
  const json = text.startsWith('{')
    ? text
    : text
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice('data:'.length))
        .join('\n');
  const message = JSON.parse(json);
  if (message.error) throw new Error(`JSON-RPC error ${message.error.code}: ${excerpt(String(message.error.message))}`);
  if (method !== 'tools/call') return message.result;
  if (message.result.isError) throw new Error(`tool error: ${excerpt(message.result.content?.[0]?.text ?? '')}`);
  return message.result.structuredContent;
}

/** One JSON-RPC exchange outside the measured load (sampling); throws on any failure. */
async function mcpExchange(baseUrl: string, endpoint: string, method: string, params: Record<string, unknown>): Promise<any> {
  const response = await fetch(`${baseUrl}${endpoint}`, { ...mcpRequestInit(method, params), signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  const text = await response.text();
  if (!response.ok) throw new Error(`${endpoint} ${method} answered ${response.status}: ${excerpt(text)}`);
  return mcpResult(method, text);
}

async function getJson(url: string): Promise<unknown> {
  const response = await fetch(url, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  const text = await response.text();
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}: ${excerpt(text)}`);
  return JSON.parse(text);
}

function requireField(name: string): (body: any) => void {
  return (body) => {
    if (typeof body?.[name] !== 'string' || body[name] === '') throw new Error(`answer without ${name}: ${excerpt(JSON.stringify(body))}`);
  };
}

function requireOption(body: any): void {
  if (!Array.isArray(body?.options) || typeof body.options[0]?.id !== 'string') throw new Error(`no shipping option: ${excerpt(JSON.stringify(body))}`);
}

function firstOptionId(body: { options: { id: string }[] }): string {
  return body.options[0]!.id;
}

function requireReadyForCheckout(body: any): void {
  if (body?.status !== 'ready_for_checkout') throw new Error(`checkout answered status ${String(body?.status)}`);
}

/** A shipping address in the default market. */
export function address(sample: CatalogSample) {
  return { name: 'Ada Lovelace', line_one: 'Via Roma 1', city: 'Milano', country: sample.country, postal_code: '20121' };
}

function randomInt(below: number): number {
  return Math.floor(Math.random() * below);
}

function pick<T>(items: readonly T[]): T {
  return items[randomInt(items.length)]!;
}

/** One to three distinct items. */
function pickSome<T>(items: readonly T[]): T[] {
  const count = Math.min(items.length, 1 + randomInt(3));
  const picked = new Set<T>();
  while (picked.size < count) picked.add(pick(items));
  return [...picked];
}

function elapsedMicros(started: number): number {
  return (performance.now() - started) * 1000;
}

function excerpt(text: string): string {
  return text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}...` : text;
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${error.name}: ${error.message}${cause}`;
}
