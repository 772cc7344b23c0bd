import { Webhook } from 'standardwebhooks';
import type { WebhookSubscriptionTable } from '../store/schema.js';

/**
 * What a subscription is (docs/webhooks.md, Kinds): `catalog`, subscribed through the
 * admin API to catalog events and signed as Standard Webhooks says; `ucp_order`, a UCP
 * platform's order webhook, whose events UCP writes and signs (src/ucp/order-events.ts);
 * `acp_feed`, an ACP agent's Feed API, to which ACP pushes changed products
 * (src/acp/feed/feed-push.ts); `acp_order`, the order webhook an agent developer
 * registered for a sandbox key, to which ACP sends its orders' events, signed with the
 * subscription's secret (src/acp/order-events/order-events.ts).
 */
export type SubscriptionKind = WebhookSubscriptionTable['kind'];

export const SUBSCRIPTION_KINDS: readonly SubscriptionKind[] = ['catalog', 'ucp_order', 'acp_feed', 'acp_order'];

/** An attempt before it is signed: what a kind's signature may cover. */
export interface UnsignedAttempt {
  url: string;
  /** The headers every attempt carries (`content-type`, `user-agent`). */
  headers: Record<string, string>;
  body: string;
  /** The event's id, the same on every attempt. */
  eventId: string;
  /** When the event happened: when its delivery was written, in the transaction that made it. */
  occurredAt: Date;
  /** When this attempt is made. */
  sentAt: Date;
  /** The subscription's secret (`catalog`, `acp_order`); empty for kinds that sign with a key of their own. */
  secret: string;
}

/** How deliveries to subscriptions of a kind are signed and sent. */
export interface DeliveryKind {
  /** The method of every attempt; POST unless given. */
  method?: 'POST' | 'PATCH';
  /**
   * The body an attempt sends, made from the delivery's stored payload when the attempt
   * is made (for receivers that want the state as it is when they get it, not as it was
   * when the event was written); the stored payload itself unless given. What it throws
   * fails the attempt, with its message, to be retried.
   */
  body?(payload: string): string;
  /** Every header of the attempt, `headers` included, signed as the kind's receivers verify it. */
  sign(attempt: UnsignedAttempt): Promise<Record<string, string>>;
  /** Its targets must be https, unless WEBHOOK_ALLOW_PRIVATE_TARGETS is set (closed networks, tests): the attempt fails otherwise. */
  httpsOnly: boolean;
  /** A delivery given up pauses its subscription, until an operator resumes it. */
  pausesWhenGivenUp: boolean;
}

/** Whether targets of `kind` must be https: WEBHOOK_ALLOW_PRIVATE_TARGETS (closed networks, tests) lifts it. */
export const httpsRequired = (kind: DeliveryKind, allowPrivateTargets: boolean): boolean => kind.httpsOnly && !allowPrivateTargets;

/**
 * Catalog webhooks: Standard Webhooks signatures with the subscription's secret over the
 * id, the attempt's time and the body; any http(s) target; a delivery given up pauses the
 * subscription, since every later catalog change would fail the same way.
 */
export const CATALOG_DELIVERY: DeliveryKind = {
  httpsOnly: false,
  pausesWhenGivenUp: true,
  sign: async ({ headers, eventId, sentAt, body, secret }) => ({
    ...headers,
    'webhook-id': eventId,
    'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(eventId, sentAt, body),
  }),
};
