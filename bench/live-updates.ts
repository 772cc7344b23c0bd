import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { followStream, startReceiver } from './delivery-clients.js';
import { buildService, rssMb, startNodeProcess } from './service-process.js';

/**
 * Live updates at scale, against a store that already holds a catalog (import one first
 * with `npm run catalog:import`): starts the built service on it as a process of its own
 * and reports
 * - the time from spawning the process to its first catalog answer, and its RSS;
 * - the latency of searches nobody made before (nothing cached);
 * - UPDATES admin price changes sent evenly over SECONDS while GET /healthz is probed
 *   every 20 ms: the slowest /healthz, and for each update the time until a public read
 *   serves the new price (the admin answer comes after the change is applied).
 *
 * With --rows-per-request N above 1 the changes go N at a time through POST
 * /admin/v1/prices, as a system pushing its deltas in small batches would send them.
 * With --listeners, 50 clients follow the change stream and 2 webhook receivers are
 * subscribed to price events meanwhile: it reports, per update, the time from its admin
 * answer until each stream and each receiver has it.
 *
 *   npm run bench:live -- --data-dir DIR | --database-url URL [--updates 1000] [--seconds 10] [--rows-per-request 1] [--listeners]
 */
const USAGE = 'usage: npm run bench:live -- (--data-dir DIR | --database-url URL) [--updates N] [--seconds S] [--rows-per-request N] [--listeners]';
const STREAM_LISTENERS = 50;
const WEBHOOK_LISTENERS = 2;
/** How long after the last update the listeners may take to have it. */
const LISTENER_WAIT_MS = 30_000;
const PROBE_INTERVAL_MS = 20;
/** The largest page the public API serves. */
const PAGE = 20;
const NEW_QUERIES = ['olive', 'pecorino', 'linen', 'truffle oil', 'caff', 'sicilian honey', 'wool'];
const ADMIN_TOKEN = randomBytes(24).toString('base64url');

const { values } = parseArgs({
  options: { 'data-dir': { type: 'string' }, 'database-url': { type: 'string' }, updates: { type: 'string', default: '1000' }, seconds: { type: 'string', default: '10' }, 'rows-per-request': { type: 'string', default: '1' }, listeners: { type: 'boolean', default: false } },
});
if (!values['data-dir'] === !values['database-url']) {
  console.error(USAGE);
  process.exit(2);
}
const updates = Number(values.updates);
const seconds = Number(values.seconds);
const rowsPerRequest = Number(values['rows-per-request']);

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
const summary = (label: string, samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return `${label}: p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms (${sorted.length})`;
};
async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await work();
  return [result, performance.now() - started];
}

await buildService();
const spawned = performance.now();
const service = await startNodeProcess(
  ['dist/server.js'],
  {
    ...(values['data-dir'] ? { DATA_DIR: values['data-dir'] } : { DATABASE_URL: values['database-url']! }),
    CATALOG_SEED: 'none',
    LOG_LEVEL: 'warn',
    CATALOG_RATE_LIMIT: '0',
    ADMIN_TOKENS: `bench:${ADMIN_TOKEN}`,
    ADMIN_RATE_LIMIT: '0',
    ...(values.listeners && { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', CHANGE_STREAM_MAX_PER_CLIENT: String(STREAM_LISTENERS) }),
  },
  '/public/v1/products?limit=1',
);
try {
  const firstAnswerMs = performance.now() - spawned;
  const get = async (path: string) => {
    const response = await fetch(`${service.url}${path}`);
    if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
    return response.json() as Promise<any>;
  };
  const count = (await get('/public/v1/products?limit=1')).count as number;
  console.log(`${count} products served; first answer ${(firstAnswerMs / 1000).toFixed(1)} s after spawning the process; RSS ${await rssMb(service)} MB`);

  // One search first, so the measured ones pay for their own work, not for compiling the search path.
  await get('/public/v1/products?q=warm');
  for (const q of NEW_QUERIES) {
    const [page, ms] = await timed(() => get(`/public/v1/products?q=${encodeURIComponent(q)}`));
    console.log(`first search "${q}": ${ms.toFixed(1)} ms (${page.count} matches)`);
  }

  // One variant of each of the newest products, its handle to read it back.
  const targets: { handle: string; variantId: string; sku: string }[] = [];
  for (let cursor: string | null = null; targets.length < updates; ) {
    const page: any = await get(`/public/v1/products?limit=${PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    for (const product of page.products) if (product.variants.length > 0) targets.push({ handle: product.handle, variantId: product.variants[0].id, sku: product.variants[0].sku });
    cursor = page.next_cursor;
    if (!cursor) break;
  }

  /** When each update's admin answer came, by `variant:amount` (minor units), and when each listener had it. */
  const answeredAt = new Map<string, number>();
  const arrivals: { stream: [string, number][]; webhook: [string, number][] } = { stream: [], webhook: [] };
  const listeners = values.listeners ? await startListeners(arrivals) : undefined;
  const rssBefore = await rssMb(service);

  const healthz: number[] = [];
  let probing = true;
  const probes = (async () => {
    while (probing) {
      const [, ms] = await timed(() => fetch(`${service.url}/healthz`).then((response) => response.arrayBuffer()));
      healthz.push(ms);
      await new Promise((resolve) => setTimeout(resolve, PROBE_INTERVAL_MS));
    }
  })();

  const answered: number[] = [];
  const served: number[] = [];
  const refused = new Map<number, number>();
  const requests = Math.ceil(updates / rowsPerRequest);
  const spacingMs = (seconds * 1000) / requests;
  const started = performance.now();
  const changePrices = (group: { variantId: string; amount: number }[], skus: string[]) =>
    rowsPerRequest === 1
      ? fetch(`${service.url}/admin/v1/variants/${group[0]!.variantId}`, {
          method: 'PATCH',
          headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
          body: JSON.stringify({ prices: [{ currency: 'EUR', region_id: 'reg_it', amount: group[0]!.amount }] }),
        })
      : fetch(`${service.url}/admin/v1/prices`, {
          method: 'POST',
          headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
          body: JSON.stringify({ rows: group.map((change, index) => ({ sku: skus[index], currency: 'EUR', region_id: 'reg_it', amount: change.amount })) }),
        });
  await Promise.all(
    Array.from({ length: requests }, async (_, request) => {
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, started + request * spacingMs - performance.now())));
      const group = targets.slice(request * rowsPerRequest, (request + 1) * rowsPerRequest).map((target, offset) => ({ ...target, amount: 100_000 + request * rowsPerRequest + offset }));
      const sent = performance.now();
      const response = await changePrices(group, group.map((target) => target.sku));
      await response.arrayBuffer();
      if (!response.ok) {
        refused.set(response.status, (refused.get(response.status) ?? 0) + group.length);
        return;
      }
      const answeredAfter = performance.now() - sent;
      for (const change of group) answeredAt.set(`${change.variantId}:${change.amount}`, performance.now());
      await Promise.all(
        group.map(async (target) => {
          const product = (await get(`/public/v1/products/${target.handle}`)).product;
          const price = product.variants.find((variant: { id: string }) => variant.id === target.variantId).price.amount;
          if (price !== target.amount / 100) throw new Error(`${target.handle}: served ${price} after the change to ${target.amount / 100}`);
          answered.push(answeredAfter);
          served.push(performance.now() - sent);
        }),
      );
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  probing = false;
  await probes;
  console.log(`${answered.length} price updates (${rowsPerRequest} per request) in ${elapsed.toFixed(1)} s; RSS ${await rssMb(service)} MB`);
  if (refused.size > 0) console.log(`refused: ${[...refused].map(([status, count]) => `${count} × ${status}`).join(', ')}`);
  console.log(summary('admin answer', answered));
  console.log(summary('until a public read serves it', served));
  console.log(summary(`GET /healthz every ${PROBE_INTERVAL_MS} ms`, healthz));
  if (listeners) await reportListeners(listeners, answeredAt, arrivals, rssBefore);
} finally {
  await service.stop();
}

/** 50 stream clients and 2 subscribed receivers; each arrival is recorded as `variant:amount` and when it came. */
async function startListeners(arrivals: { stream: [string, number][]; webhook: [string, number][] }) {
  const streams = Array.from({ length: STREAM_LISTENERS }, () =>
    followStream(service.url, 'country=IT', undefined, (entry, at) => {
      for (const variant of entry.product?.variants ?? []) arrivals.stream.push([`${variant.id}:${Math.round(variant.price.amount * 100)}`, at]);
    }),
  );
  const receivers = await Promise.all(Array.from({ length: WEBHOOK_LISTENERS }, () => startReceiver({ failRate: 0, slowRate: 0, slowAnswerMs: 0 })));
  for (const receiver of receivers) {
    const response = await fetch(`${service.url}/admin/v1/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiver.url, event_types: ['variant.price_changed'], description: 'bench:live' }),
    });
    if (!response.ok) throw new Error(`subscribing a receiver: ${response.status} ${await response.text()}`);
    receiver.secret = ((await response.json()) as { secret: string }).secret;
  }
  return { streams, receivers, webhookArrivals: () => receivers.flatMap((receiver) => [...receiver.received.values()].map(({ event, at }) => [`${event.data.variant_id}:${event.data.new}`, at] as [string, number])) };
}

/** Waits until every listener has every update (at most LISTENER_WAIT_MS), then prints the lags from the admin answers. */
async function reportListeners(listeners: Awaited<ReturnType<typeof startListeners>>, answeredAt: Map<string, number>, arrivals: { stream: [string, number][] }, rssBefore: number) {
  const lags = (found: [string, number][]) => found.filter(([key]) => answeredAt.has(key)).map(([key, at]) => Math.max(0, at - answeredAt.get(key)!));
  const deadline = performance.now() + LISTENER_WAIT_MS;
  const complete = () => lags(arrivals.stream).length >= answeredAt.size * STREAM_LISTENERS && lags(listeners.webhookArrivals()).length >= answeredAt.size * WEBHOOK_LISTENERS;
  while (!complete() && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
  const [streamLags, webhookLags] = [lags(arrivals.stream), lags(listeners.webhookArrivals())];
  console.log(`listeners: ${STREAM_LISTENERS} change streams had ${streamLags.length} of ${answeredAt.size * STREAM_LISTENERS} updates, ${WEBHOOK_LISTENERS} webhook receivers ${webhookLags.length} of ${answeredAt.size * WEBHOOK_LISTENERS}; stream reconnects ${listeners.streams.reduce((sum, stream) => sum + stream.reconnects, 0)}, signature failures ${listeners.receivers.reduce((sum, receiver) => sum + receiver.signatureFailures, 0)}`);
  if (streamLags.length > 0) console.log(summary('admin answer to a change stream event', streamLags));
  if (webhookLags.length > 0) console.log(summary('admin answer to a webhook received', webhookLags));
  console.log(`RSS with the listeners: ${rssBefore} MB before the updates, ${await rssMb(service)} MB after`);
  for (const stream of listeners.streams) stream.close();
  for (const receiver of listeners.receivers) receiver.close();
}
