/**
 * Price changes sent to a running service while /healthz is probed, and the time until
 * each is served: the measurement of bench:live (bench/live-updates.ts), which
 * bench:scale (bench/scale.ts) makes at each catalog size too.
 */

/** How often /healthz is asked while the changes are sent. */
export const PROBE_INTERVAL_MS = 20;
/** The largest page the public API serves. */
const PAGE = 20;

export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;

export const summary = (label: string, samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return `${label}: p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms (${sorted.length})`;
};

export async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await work();
  return [result, performance.now() - started];
}

/** GET `path` on the service as JSON; throws, with the answer, on a status other than 2xx. */
export async function getJson(baseUrl: string, path: string): Promise<any> {
  const response = await fetch(`${baseUrl}${path}`);
  if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

export interface PriceTarget {
  /** To read the product back. */
  handle: string;
  variantId: string;
  sku: string;
}

/** One variant of each of the first `count` listed products that have one (fewer when the catalog has fewer). */
export async function priceTargets(baseUrl: string, count: number): Promise<PriceTarget[]> {
  const targets: PriceTarget[] = [];
  for (let cursor: string | null = null; targets.length < count; ) {
    const page: any = await getJson(baseUrl, `/public/v1/products?limit=${PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    for (const product of page.products) if (product.variants.length > 0) targets.push({ handle: product.handle, variantId: product.variants[0].id, sku: product.variants[0].sku });
    cursor = page.next_cursor;
    if (!cursor) break;
  }
  return targets.slice(0, count);
}

/** Asks GET /healthz every PROBE_INTERVAL_MS until stopped; `stop` resolves with each answer's time in ms. */
export function probeHealthz(baseUrl: string): { stop(): Promise<number[]> } {
  const healthz: number[] = [];
  let probing = true;
  const probes = (async () => {
    while (probing) {
      const [, ms] = await timed(() => fetch(`${baseUrl}/healthz`).then((response) => response.arrayBuffer()));
      healthz.push(ms);
      await new Promise((resolve) => setTimeout(resolve, PROBE_INTERVAL_MS));
    }
  })();
  return {
    stop: async () => {
      probing = false;
      await probes;
      return healthz;
    },
  };
}

export interface PriceChangePlan {
  /** Changes in all, one per target (the first `updates` targets). */
  updates: number;
  /** Sent evenly over this time. */
  seconds: number;
  /** 1: PATCH /admin/v1/variants/{id} each; more: POST /admin/v1/prices with this many rows. */
  rowsPerRequest: number;
}

export interface PriceChanges {
  /** Per change, ms from sending it to its admin answer. */
  answered: number[];
  /** Per change, ms from sending it until a public read served the new price. */
  served: number[];
  /** Changes refused, by status. */
  refused: Map<number, number>;
  /** From the first change sent to the last one served. */
  elapsedSeconds: number;
}

/**
 * Sends `plan.updates` price changes (Italy's EUR price of each target's variant, each a
 * new amount) evenly over `plan.seconds`, and after each admin answer reads the product
 * back until it serves the new price, which it must at once: the admin answer comes after
 * the change is applied. `onAnswered` hears each change's admin answer, keyed
 * `variant:amount` (minor units) as the change stream and webhooks name it.
 */
export async function changePrices(
  baseUrl: string,
  adminToken: string,
  targets: PriceTarget[],
  plan: PriceChangePlan,
  onAnswered: (key: string, at: number) => void = () => {},
): Promise<PriceChanges> {
  const { updates, seconds, rowsPerRequest } = plan;
  const headers = { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' };
  const send = (group: (PriceTarget & { amount: number })[]) =>
    rowsPerRequest === 1
      ? fetch(`${baseUrl}/admin/v1/variants/${group[0]!.variantId}`, {
          method: 'PATCH',
          headers,
          body: JSON.stringify({ prices: [{ currency: 'EUR', region_id: 'reg_it', amount: group[0]!.amount }] }),
        })
      : fetch(`${baseUrl}/admin/v1/prices`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ rows: group.map((change) => ({ sku: change.sku, currency: 'EUR', region_id: 'reg_it', amount: change.amount })) }),
        });
  const answered: number[] = [];
  const served: number[] = [];
  const refused = new Map<number, number>();
  const requests = Math.ceil(Math.min(updates, targets.length) / rowsPerRequest);
  const spacingMs = (seconds * 1000) / requests;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: requests }, async (_, request) => {
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, started + request * spacingMs - performance.now())));
      const group = targets.slice(request * rowsPerRequest, Math.min(updates, (request + 1) * rowsPerRequest)).map((target, offset) => ({ ...target, amount: 100_000 + request * rowsPerRequest + offset }));
      const sent = performance.now();
      const response = await send(group);
      await response.arrayBuffer();
      if (!response.ok) {
        refused.set(response.status, (refused.get(response.status) ?? 0) + group.length);
        return;
      }
      const answeredAfter = performance.now() - sent;
      for (const change of group) onAnswered(`${change.variantId}:${change.amount}`, performance.now());
      await Promise.all(
        group.map(async (target) => {
          const product = (await getJson(baseUrl, `/public/v1/products/${target.handle}`)).product;
          const price = product.variants.find((variant: { id: string }) => variant.id === target.variantId).price.amount;
          if (price !== target.amount / 100) throw new Error(`${target.handle}: served ${price} after the change to ${target.amount / 100}`);
          answered.push(answeredAfter);
          served.push(performance.now() - sent);
        }),
      );
    }),
  );
  return { answered, served, refused, elapsedSeconds: (performance.now() - started) / 1000 };
}
