import { randomUUID } from 'node:crypto';
import type { WebhookService } from '../delivery/webhook-service.js';
import type { CompletionHooks } from '../sandbox/checkout/checkout-service.js';
import { UCP_PATHS } from './endpoints.js';
import { ucpMetadata } from './envelope.js';
import type { Negotiated } from './negotiation/negotiated.js';
import type { BusinessSigningKey } from './profile/signing-key.js';
import { ucpOrder } from './shapes/order.js';
import { signRequest, ucpAgentHeader } from './signatures.js';
import { ROOT_CAPABILITIES } from './version.js';

/** The type of the one order event the sandbox sends (the deliveries' `event_type`): orders never change after it. */
export const ORDER_CREATED = 'order.created';

/** Who made a platform's order webhook subscription, as operators see it (`created_by`). */
const CREATED_BY = 'ucp';

export interface OrderEventsOptions {
  webhooks: WebhookService;
  /** The business key of the profile's `signing_keys`. */
  signingKey: BusinessSigningKey;
  publicBaseUrl: string;
}

/**
 * order.md, Events: the "order created" event of every simulated order to the order
 * webhook of the platform that completed the checkout (its profile's
 * `dev.ucp.shopping.order` `config.webhook_url`, when the order capability was
 * negotiated), through the webhook delivery machinery (src/delivery): written to its
 * outbox in the transaction that makes the order, then sent, retried and leased like a
 * catalog webhook's events, to a subscription of kind `ucp_order` per webhook URL.
 */
export class OrderEvents {
  readonly #webhooks: WebhookService;
  readonly #publicBaseUrl: string;

  constructor({ webhooks, signingKey, publicBaseUrl }: OrderEventsOptions) {
    this.#webhooks = webhooks;
    this.#publicBaseUrl = publicBaseUrl;
    const agent = ucpAgentHeader(`${publicBaseUrl}${UCP_PATHS.profile}`);
    // order.md, Order Event Webhook: Standard Webhooks' headers (Webhook-Id, Webhook-Timestamp:
    // when the event happened, the same on every attempt), signed as signatures.md says
    // (RFC 9421) rather than as Standard Webhooks does, with UCP-Agent naming our profile.
    webhooks.defineKind('ucp_order', {
      httpsOnly: true,
      // A platform's developer places the orders: one failing receiver must not stop the
      // events of their next orders until an operator resumes it.
      pausesWhenGivenUp: false,
      sign: ({ url, headers, body, eventId, occurredAt }) =>
        signRequest(signingKey, {
          method: 'POST',
          url,
          headers: { ...headers, 'ucp-agent': agent, 'webhook-id': eventId, 'webhook-timestamp': String(Math.floor(occurredAt.getTime() / 1000)) },
          body,
        }),
    });
  }

  /**
   * The completion hooks of a checkout completed by a request negotiated as `negotiated`
   * (pass them to the sandbox's `complete`): with a platform order webhook, the order
   * created event is written in the completion's transaction, so a crash loses neither
   * or both, and sent once it commits. Its body is the whole order entity with its `ucp`
   * field, plus the event's `event_id` (the `Webhook-Id`, kept by every retry) and
   * `created_time`, as order.md's example body carries them.
   */
  hooks(negotiated: Negotiated): CompletionHooks {
    const url = negotiated.orderWebhookUrl;
    if (url === undefined) return {};
    const target = { kind: 'ucp_order' as const, url, description: `Order events of the UCP platform ${negotiated.platformProfileUrl}`, createdBy: CREATED_BY };
    return {
      onOrder: async (trx, order) => {
        const id = randomUUID();
        const body = {
          ucp: ucpMetadata(negotiated, ROOT_CAPABILITIES.order, 'success', () => ({})),
          ...ucpOrder(order, this.#publicBaseUrl),
          event_id: id,
          created_time: order.created_at,
        };
        await this.#webhooks.queue(trx, target, { id, type: ORDER_CREATED }, JSON.stringify(body));
      },
      onCommitted: () => this.#webhooks.wake(),
    };
  }
}
