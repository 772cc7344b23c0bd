import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import type { Store } from '../store/database.js';
import { catalogEventSource } from './events.js';
import type { AttemptOutcome } from './sender.js';
import { WebhookService } from './webhook-service.js';

declare module 'fastify' {
  interface FastifyInstance {
    webhooks: WebhookService;
  }
}

/**
 * Webhooks for catalog changes: the service (decorated as `app.webhooks`, managed through
 * the admin API) and this instance's delivery rounds, from ready until close.
 */
export const deliveryPlugin = fp<{ config: Config; store: Store; onAttempt?(outcome: AttemptOutcome): void }>(
  async (app, { config, store, onAttempt }) => {
    const webhooks = new WebhookService({ db: store.db, config: config.webhooks, source: catalogEventSource, log: app.log, ...(onAttempt && { onAttempt }) });
    app.decorate('webhooks', webhooks);
    app.addHook('onReady', () => webhooks.start());
    app.addHook('onClose', () => webhooks.stop());
  },
  { name: 'delivery' },
);
