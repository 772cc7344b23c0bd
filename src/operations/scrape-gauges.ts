import type { FastifyBaseLogger } from 'fastify';
import { Counter, Gauge, type Registry } from 'prom-client';
import { readHeap } from '../catalog/read-model/heap-budget.js';
import type { CatalogReadModel } from '../catalog/read-model/read-model.js';
import type { OutboxState, WebhookService } from '../delivery/webhook-service.js';
import type { Db } from '../store/database.js';
import { throttledWarning } from '../lib/throttled-warning.js';
import { withTimeout } from '../lib/with-timeout.js';

/** A scrape must not hang on a store that does not answer (Prometheus gives up after 10 s). */
const STORE_COUNT_TIMEOUT_MS = 2000;

/**
 * Series read when Prometheus scrapes rather than kept up to date on every change: the
 * read model's size, version and search index, and the live sandbox keys and carts in the store (two
 * index range counts on `expires_at`). When the store does not answer, the sandbox series
 * are left out of that scrape rather than reported as zero.
 */
export function registerScrapeGauges(registry: Registry, db: Db, readModel: CatalogReadModel, log: FastifyBaseLogger): void {
  new Gauge({
    name: 'vetrina_catalog_products',
    help: 'Products the in-memory read model serves (published, not weighted).',
    registers: [registry],
    collect() {
      if (readModel.loaded) this.set(readModel.catalog.products.length);
    },
  });

  new Gauge({
    name: 'vetrina_catalog_version',
    help: 'The last catalog change the read model applied; instances agree once they caught up.',
    registers: [registry],
    collect() {
      if (readModel.loaded) this.set(readModel.catalog.version);
    },
  });

  new Gauge({
    name: 'vetrina_catalog_unindexed_products',
    help: 'Served products the search index does not hold yet: above zero only while it is built after start, when /readyz answers 503.',
    registers: [registry],
    collect() {
      this.set(readModel.unindexedProducts);
    },
  });

  new Gauge({
    name: 'vetrina_heap_limit_bytes',
    help: "V8's heap limit: the heap in use (nodejs_heap_size_used_bytes) must stay well below it, or the process dies (docs/deploy.md, Memory).",
    registers: [registry],
    collect() {
      this.set(readHeap().limit);
    },
  });

  new Gauge({
    name: 'vetrina_catalog_outgrown_heap',
    help: "1 once catalog changes would have grown the catalog past this instance's heap budget: it stopped applying changes, and /readyz answers 503 until it restarts with a larger heap (docs/deploy.md, Memory).",
    registers: [registry],
    collect() {
      this.set(readModel.outgrown ? 1 : 0);
    },
  });

  new Counter({
    name: 'vetrina_catalog_index_waits_total',
    help: 'Catalog reads (searches, filtered or re-sorted lists) that waited for the search index: only those sent before /readyz answered 200.',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(readModel.searchesWaited);
    },
  });

  const warn = throttledWarning(log, 'counting sandbox objects for /metrics failed');
  const countLive = async (table: 'sandbox_keys' | 'sandbox_carts', now: string) => {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('expires_at', '>', now)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  };
  new Gauge({
    name: 'vetrina_sandbox_objects',
    help: 'Unexpired sandbox keys and carts in the store, by kind (keys, carts).',
    labelNames: ['kind'] as const,
    registers: [registry],
    async collect() {
      const now = new Date().toISOString();
      try {
        const [keys, carts] = await withTimeout(
          Promise.all([countLive('sandbox_keys', now), countLive('sandbox_carts', now)]),
          STORE_COUNT_TIMEOUT_MS,
          'the store',
        );
        this.set({ kind: 'keys' }, keys);
        this.set({ kind: 'carts' }, carts);
      } catch (error) {
        this.reset();
        warn(error);
      }
    },
  });
}

/** The change streams this instance holds open, against CHANGE_STREAM_MAX. */
export function registerChangeStreamGauge(registry: Registry, streams: { readonly openCount: number }): void {
  new Gauge({
    name: 'vetrina_change_streams_open',
    help: 'Change streams (GET /public/v1/changes/stream) this instance holds open.',
    registers: [registry],
    collect() {
      this.set(streams.openCount);
    },
  });
}

/**
 * The webhook outbox, read from the store at scrape time: catalog changes not yet turned
 * into deliveries (and how long the oldest has waited), and deliveries not yet delivered
 * nor given up. Left out of a scrape when the store does not answer.
 */
export function registerWebhookGauges(registry: Registry, webhooks: Pick<WebhookService, 'outboxState'>, log: FastifyBaseLogger): void {
  const warn = throttledWarning(log, 'reading the webhook outbox for /metrics failed');
  let state: Promise<OutboxState | undefined> | undefined;
  // The three gauges share one read per scrape.
  const read = () =>
    (state ??= withTimeout(webhooks.outboxState(), STORE_COUNT_TIMEOUT_MS, 'the store')
      .catch((error: unknown) => {
        warn(error);
        return undefined;
      })
      .finally(() => setImmediate(() => (state = undefined))));
  const gauge = (name: string, help: string, pick: (state: OutboxState) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        const current = await read();
        if (current) this.set(pick(current));
        else this.reset();
      },
    });
  gauge('vetrina_webhook_outbox_depth', 'Catalog changes not yet turned into webhook deliveries.', (current) => current.depth);
  gauge('vetrina_webhook_outbox_lag_seconds', 'How long the oldest catalog change not yet turned into deliveries has waited; 0 when none waits.', (current) => current.lagSeconds);
  gauge('vetrina_webhook_pending_deliveries', 'Webhook deliveries neither delivered nor given up (waiting for an attempt or a retry).', (current) => current.pending);
}
