import assert from 'node:assert/strict';
import { after, before, describe, it, type TestContext } from 'node:test';
import pg from 'pg';
import { DEMO_CATALOG_PATH, readCatalogFile } from '../../src/catalog/store/seed.js';
import { catalog, product, tempDir } from '../support/catalog-builder.js';
import { isolatedServerEnv, type IsolatedServerEnv } from '../support/isolated-server-env.js';
import { pollUntil } from '../support/poll.js';
import { needsProductionServices } from '../support/production-services.js';
import { runCli, startServerProcess, type ServerProcess } from '../support/server-process.js';

/**
 * Only a hang guard, far below the poll interval: a change through any instance or the CLI
 * is to be served by every instance within 1 s, which the diagnostics report (a busy
 * machine takes longer).
 */
const VISIBLE_WITHIN_MS = 30_000;
/** The longest poll interval the configuration takes. */
const POLL_MS = 3_600_000;
const ADDRESS = { name: 'Ada Lovelace', line_one: 'Via Roma 1', city: 'Milano', country: 'IT', postal_code: '20121' };

interface Answer {
  status: number;
  headers: Headers;
  data: any;
}

/**
 * Two real server processes on one fresh PostgreSQL schema and one Redis prefix, as
 * behind a load balancer on this host (TRUST_PROXY=127.0.0.1, each test its own client
 * address in X-Forwarded-For). Polling is slowed to an hour, so only the Redis
 * notification can carry a catalog change before the guard.
 */
describe('two instances behind one load balancer, sharing PostgreSQL and Redis', { skip: needsProductionServices }, () => {
  let isolated: IsolatedServerEnv;
  let instances: ServerProcess[];

  before(async () => {
    isolated = await isolatedServerEnv();
    const env = { ...isolated.env, TRUST_PROXY: '127.0.0.1', CATALOG_RATE_LIMIT: '120', CATALOG_POLL_MS: String(POLL_MS) };
    instances = await Promise.all([startServerProcess(env), startServerProcess(env)]);
  });
  after(async () => {
    const exits = await Promise.all((instances ?? []).map((instance) => instance.stop()));
    await isolated.cleanup();
    assert.deepEqual(exits, exits.map(() => 0), 'both instances shut down cleanly');
  });

  const call = async (instance: ServerProcess, client: string, method: string, path: string, options: { token?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> => {
    const response = await fetch(`${instance.url}${path}`, {
      method,
      headers: {
        'x-forwarded-for': client,
        ...(options.token && { authorization: `Bearer ${options.token}` }),
        ...(options.body !== undefined && { 'content-type': 'application/json' }),
        ...options.headers,
      },
      ...(options.body !== undefined && { body: JSON.stringify(options.body) }),
    });
    return { status: response.status, headers: response.headers, data: await response.json() };
  };
  const [a, b] = [() => instances[0]!, () => instances[1]!];

  it('the 121st catalog request of one client is a 429, whichever instance answers each', async () => {
    const client = '198.51.100.1';
    for (let i = 1; i <= 120; i++) {
      const response = await call(i % 2 ? a() : b(), client, 'GET', '/public/v1/products?limit=1');
      assert.equal(response.status, 200, `request ${i}`);
      assert.equal(response.headers.get('ratelimit-remaining'), String(120 - i), `request ${i}`);
    }
    for (const instance of [a(), b()]) {
      const limited = await call(instance, client, 'GET', '/public/v1/products?limit=1');
      assert.equal(limited.status, 429);
      assert.equal(limited.data.error.code, 'RATE_LIMITED');
      assert.equal(limited.headers.get('retry-after'), limited.headers.get('ratelimit-reset'));
    }
  });

  it('serves a catalog import made through the CLI on both instances through the Redis notification, without waiting for a poll', async (t: TestContext) => {
    const dir = await tempDir();
    try {
      const { regions } = await readCatalogFile(DEMO_CATALOG_PATH);
      const file = await dir.writeJson('late.json', catalog([product('late-arrival', { created_at: new Date().toISOString() })], regions));
      const imported = await runCli('src/cli/import-catalog.ts', [file], isolated.env);
      assert.equal(imported.code, 0, imported.output);
      assert.doesNotMatch(imported.output, /not told through Redis/);
    } finally {
      await dir.remove();
    }
    const results = await Promise.all(
      [a(), b()].map((instance) =>
        pollUntil(() => call(instance, '198.51.100.2', 'GET', '/public/v1/products/late-arrival'), (answer) => answer.status === 200, VISIBLE_WITHIN_MS),
      ),
    );
    for (const { value, ms } of results) {
      assert.equal(value.status, 200, `not served within ${VISIBLE_WITHIN_MS} ms`);
      t.diagnostic(`served ${Math.round(ms)} ms after the import CLI exited`);
    }
  });

  describe('the sandbox across instances', () => {
    const client = '198.51.100.3';
    let token: string;
    let variantId: string;

    before(async () => {
      const key = await call(a(), client, 'POST', '/sandbox/v1/keys');
      assert.equal(key.status, 201);
      token = key.data.access_token;
      const detail = await call(b(), client, 'GET', '/public/v1/products/caffe-espresso-blend');
      variantId = detail.data.product.variants.find((v: any) => v.availability.purchasable && v.price !== null).id;
    });

    const createCart = (instance: ServerProcess, idempotencyKey: string) =>
      call(instance, client, 'POST', '/sandbox/v1/carts', { token, body: { currency: 'EUR' }, headers: { 'idempotency-key': idempotencyKey } });

    it('a cart created through one instance is read, changed and checked out through the other', async () => {
      const created = await createCart(a(), 'cross-instance-cart');
      assert.equal(created.status, 201);
      const cartPath = `/sandbox/v1/carts/${created.data.id}`;

      const read = await call(b(), client, 'GET', cartPath, { token });
      assert.equal(read.status, 200);
      assert.equal(read.data.id, created.data.id);
      assert.equal((await call(b(), client, 'POST', `${cartPath}/items`, { token, body: { variant_id: variantId, quantity: 2 } })).status, 201);
      assert.equal((await call(a(), client, 'POST', `${cartPath}/shipping-address`, { token, body: ADDRESS })).status, 200);
      const option = await call(b(), client, 'POST', `${cartPath}/shipping-option`, { token, body: { shipping_option_id: 'sandbox_standard' } });
      assert.equal(option.status, 200);

      const checkout = await call(a(), client, 'POST', `${cartPath}/checkout`, { token, headers: { 'idempotency-key': 'cross-instance-checkout' } });
      assert.equal(checkout.status, 200);
      assert.equal(checkout.data.status, 'ready_for_checkout');
      assert.equal(checkout.data.checkout_url, null);
      assert.deepEqual(checkout.data.items, [{ variant_id: variantId, quantity: 2, unit_price: checkout.data.items[0].unit_price }]);
    });

    it('an idempotent cart creation replayed through the other instance returns the same cart', async () => {
      const first = await createCart(a(), 'replayed-elsewhere');
      const replay = await createCart(b(), 'replayed-elsewhere');
      assert.equal(replay.status, 201);
      assert.equal(replay.data.id, first.data.id);
      assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    });

    it('20 concurrent identical creations spread over both instances create exactly one cart', async () => {
      const cartsBefore = await countCarts(isolated.env.DATABASE_URL!);
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => createCart(i % 2 ? a() : b(), 'twenty-at-once')));
      assert.deepEqual(answers.map((answer) => answer.status), Array(20).fill(201));
      assert.equal(new Set(answers.map((answer) => answer.data.id)).size, 1);
      assert.equal(answers.filter((answer) => answer.headers.get('idempotent-replayed') !== 'true').length, 1);
      assert.equal(await countCarts(isolated.env.DATABASE_URL!), cartsBefore + 1);
    });
  });
});

async function countCarts(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ count: string }>('select count(*) from sandbox_carts');
    return Number(rows[0]!.count);
  } finally {
    await client.end();
  }
}
