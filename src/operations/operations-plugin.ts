import { sql } from 'kysely';
import fp from 'fastify-plugin';
import { catalogLimitInWords } from '../catalog/public-api/rate-limit.js';
import type { Config } from '../config.js';
import type { Store } from '../store/database.js';
import { healthRoutes } from './health-routes.js';
import { metricsRoute } from './metrics-route.js';
import { readinessChecker, type ReadinessProbe } from './readiness.js';
import { registerChangeStreamGauge, registerScrapeGauges, registerWebhookGauges } from './scrape-gauges.js';

/** /healthz, /readyz and /metrics, over the store, the catalog read model, Redis and the webhook outbox. */
export const operationsPlugin = fp<{ config: Config; store: Store }>(
  async (app, { config, store }) => {
    const readModel = app.catalogReadModel;
    const { redis } = app;
    const probes: ReadinessProbe[] = [
      { name: 'store', check: async () => void (await sql`select 1`.execute(store.db)) },
      {
        name: 'read_model',
        check: async () => {
          if (!readModel.loaded) throw new Error('the catalog read model is not loaded');
          if (readModel.outgrown) throw readModel.outgrown;
          if (!readModel.ready) throw new Error(`the catalog search index is being built: ${readModel.unindexedProducts} products to go`);
        },
      },
      ...(redis ? [{ name: 'redis', check: async () => void (await redis.commands.ping()) }] : []),
      {
        name: 'webhooks',
        check: async () => {
          // An outbox it cannot read is the store check's failure, reported there, not a stuck one.
          const stuck = await app.webhooks.outboxStuck().catch(() => false);
          if (stuck) throw new Error(`a catalog change has waited more than ${config.webhooks.outboxStuckMs} ms to become webhook deliveries`);
        },
      },
    ];
    registerScrapeGauges(app.metrics.registry, store.db, readModel, app.log);
    registerWebhookGauges(app.metrics.registry, app.webhooks, app.log);
    registerChangeStreamGauge(app.metrics.registry, app.changeStreams);
    healthRoutes(app, readinessChecker(probes, app.log), config.webhooks.outboxStuckMs);
    metricsRoute(app, app.metrics.registry, config.metricsToken, catalogLimitInWords(config));
  },
  { name: 'operations', dependencies: ['catalog', 'metrics', 'redis', 'delivery'] },
);
