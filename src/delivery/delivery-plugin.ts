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

export interface DeliveryOptions {
  config: Config;
  store: Store;
  onAttempt?(outcome: AttemptOutcome): void;
  /**
   * Subscribes to this instance applying new catalog changes (returns the unsubscribe):
   * each starts a delivery round at once, so an event leaves within milliseconds of its
   * change rather than at the next WEBHOOK_POLL_MS.
   */
  onChangesApplied?(listener: () => void): () => void;
}

/**
 * Webhooks: the service (decorated as `app.webhooks`: catalog subscriptions managed
 * through the admin API, and the kinds other features define and write events for) and
 * this instance's delivery rounds, from ready until close.
 */
export const deliveryPlugin = fp<DeliveryOptions>(
  async (app, { config, store, onAttempt, onChangesApplied }) => {
    const webhooks = new WebhookService({ db: store.db, config: config.webhooks, source: catalogEventSource, log: app.log, ...(onAttempt && { onAttempt }) });
    app.decorate('webhooks', webhooks);
    let unsubscribe: (() => void) | undefined;
    app.addHook('onReady', async () => {
      await webhooks.start();
      unsubscribe = onChangesApplied?.(() => webhooks.wake());
    });
    app.addHook('onClose', async () => {
      unsubscribe?.();
      await webhooks.stop();
    });
  },
  { name: 'delivery' },
);
