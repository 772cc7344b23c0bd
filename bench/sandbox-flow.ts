import { randomUUID } from 'node:crypto';
import { createHistogram } from 'node:perf_hooks';
import { Pool } from 'undici';
import { STANDARD_SHIPPING_ID } from '../src/sandbox/shipping.js';
import { percentileMs } from './service-process.js';
import { address, sampleCatalog, type CatalogSample } from './soak-workload.js';

/**
 * The sandbox flow as flows per second: one key, then per iteration a cart, two items,
 * a shipping address, the shipping option and checkout, by `workers` concurrent loops
 * for a bounded time. autocannon sends one request shape per connection; a flow needs
 * the cart id of its first answer in every later request. The loops share an undici
 * pool of one keep-alive connection per worker, without pipelining: fetch, on the same
 * connections, cost the load generator 2.5 ms of CPU per flow, as much as the service,
 * on the two cores they share; undici's request costs 0.8 ms.
 */
export interface FlowMeasurement {
  flowsPerSecond: number;
  /** Latency of a whole flow in milliseconds. */
  p50: number;
  p99: number;
  /** Flows abandoned at a failed step. */
  failures: number;
  firstFailure: string | undefined;
}

const REQUEST_TIMEOUT_MS = 30_000;

export async function measureSandboxFlows(baseUrl: string, workers: number, seconds: number): Promise<FlowMeasurement> {
  const sample = await sampleCatalog(baseUrl);
  if (sample.variantIds.length < 2) throw new Error('the catalog offers fewer than two purchasable variants');
  const pool = new Pool(baseUrl, { connections: workers });
  try {
    return await runFlows(pool, sample, workers, seconds);
  } finally {
    await pool.close();
  }
}

async function runFlows(pool: Pool, sample: CatalogSample, workers: number, seconds: number): Promise<FlowMeasurement> {
  const send = async (method: string, path: string, token: string | undefined, body?: unknown, idempotent = false): Promise<any> => {
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (idempotent) headers['idempotency-key'] = randomUUID();
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await pool.request({
      path,
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      headersTimeout: REQUEST_TIMEOUT_MS,
      bodyTimeout: REQUEST_TIMEOUT_MS,
    });
    const text = await response.body.text();
    if (response.statusCode < 200 || response.statusCode > 299) throw new Error(`${method} ${path}: ${response.statusCode} ${text.slice(0, 300)}`);
    return JSON.parse(text);
  };
  const { access_token: token } = (await send('POST', '/sandbox/v1/keys', undefined)) as { access_token: string };

  let iteration = 0;
  const flow = async () => {
    // Two different variants per cart, walking through the sample so carts differ.
    const first = iteration++ % sample.variantIds.length;
    const items = [sample.variantIds[first]!, sample.variantIds[(first + 1) % sample.variantIds.length]!];
    const cart = (await send('POST', '/sandbox/v1/carts', token, { currency: sample.currency }, true)) as { id: string };
    const cartPath = `/sandbox/v1/carts/${cart.id}`;
    for (const variantId of items) await send('POST', `${cartPath}/items`, token, { variant_id: variantId, quantity: 1 });
    await send('POST', `${cartPath}/shipping-address`, token, address(sample));
    await send('POST', `${cartPath}/shipping-option`, token, { shipping_option_id: STANDARD_SHIPPING_ID });
    const checkout = (await send('POST', `${cartPath}/checkout`, token, undefined, true)) as { status: string };
    if (checkout.status !== 'ready_for_checkout') throw new Error(`checkout answered status ${checkout.status}`);
  };

  const latency = createHistogram();
  let failures = 0;
  let firstFailure: string | undefined;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const worker = async () => {
    while (performance.now() < deadline) {
      const flowStarted = performance.now();
      try {
        await flow();
        latency.record(Math.max(1, Math.round((performance.now() - flowStarted) * 1000)));
      } catch (error) {
        failures++;
        firstFailure ??= error instanceof Error ? error.message : String(error);
      }
    }
  };
  await Promise.all(Array.from({ length: workers }, worker));
  const elapsedSeconds = (performance.now() - started) / 1000;
  return { flowsPerSecond: latency.count / elapsedSeconds, p50: percentileMs(latency, 50), p99: percentileMs(latency, 99), failures, firstFailure };
}
