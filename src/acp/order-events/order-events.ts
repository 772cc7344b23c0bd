import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { WebhookService } from '../../delivery/webhook-service.js';
import type { SandboxPrincipal } from '../../sandbox/auth.js';
import type { CompletionHooks } from '../../sandbox/checkout/checkout-service.js';
import type { SandboxServices } from '../../sandbox/services.js';
import { acpOrder, type OrderStage } from './order.js';

/** The events of every simulated order, in the order they happen (the release's WebhookEvent `type`), with the stage each shows. */
export const ORDER_EVENTS: readonly { type: string; stage: OrderStage }[] = [
  { type: 'order_create', stage: 'created' },
  { type: 'order_update', stage: 'processing' },
];

/** Who made an order webhook subscription, as operators see it (`created_by`). */
const CREATED_BY = 'acp';

/** A generated signing secret: 32 random bytes, base64url, after a prefix that says what it is. */
const newSecret = () => `acp_whsec_${randomBytes(32).toString('base64url')}`;

/**
 * The `Merchant-Signature` of a body sent at `unixSeconds`, as openapi.agentic_checkout_webhook.yaml
 * defines it: `t=<unix_seconds>,v1=<64 hex>`, the hex HMAC-SHA256 with the secret of `<t>.<raw body>`.
 */
function merchantSignature(secret: string, unixSeconds: number, body: string): string {
  return `t=${unixSeconds},v1=${createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex')}`;
}

/** A key's order webhook as its owner sees it: never its secret, but once, when it was generated. */
export interface OrderWebhook {
  url: string;
  status: 'active' | 'paused';
  paused_reason?: string;
  created_at: string;
  secret?: string;
}

/**
 * ACP's order events (docs/acp.md, Order events). The release defines the receiver
 * (openapi.agentic_checkout_webhook.yaml) but no way for an agent to register it, so the
 * sandbox offers one: each sandbox key may register an order webhook (a URL and a
 * signing secret), kept as a webhook subscription of kind `acp_order` of its own
 * (src/delivery), which the sandbox ties to the key (src/sandbox/order-webhooks.ts). A
 * checkout session of that key that completes writes its order's events to the
 * subscription's outbox in the completion's transaction; they are sent, leased and
 * retried like every webhook's, signed with the secret as the release says.
 */
export class AcpOrderEvents {
  readonly #webhooks: WebhookService;
  readonly #sandbox: SandboxServices;
  readonly #publicBaseUrl: string;

  constructor(webhooks: WebhookService, sandbox: SandboxServices, config: { publicBaseUrl: string }) {
    this.#webhooks = webhooks;
    this.#sandbox = sandbox;
    this.#publicBaseUrl = config.publicBaseUrl;
    webhooks.defineKind('acp_order', {
      // The release's receiver is https; WEBHOOK_ALLOW_PRIVATE_TARGETS relaxes it, as for every kind.
      httpsOnly: true,
      // One failing receiver must not stop the events of the key's next orders.
      pausesWhenGivenUp: false,
      // Signed when sent, so the timestamp is within the receiver's window on every retry; Request-Id is the event's, the same on each.
      sign: async ({ headers, body, eventId, sentAt, secret }) => {
        const seconds = Math.floor(sentAt.getTime() / 1000);
        return { ...headers, 'merchant-signature': merchantSignature(secret, seconds, body), 'request-id': eventId, timestamp: new Date(seconds * 1000).toISOString() };
      },
    });
  }

  /**
   * Why `url` cannot be an order webhook, or undefined: it must be https without
   * credentials (any http(s) with WEBHOOK_ALLOW_PRIVATE_TARGETS), and an address in it
   * must not be private, loopback or link-local (a name is checked at each attempt, by
   * the guarded client).
   */
  refusedTarget(url: string): string | undefined {
    return this.#webhooks.refusedTarget(url, 'acp_order');
  }

  /**
   * Registers `url` as the key's order webhook, or points its webhook there. `secret`,
   * when given, signs its events from now on; otherwise a new webhook gets a generated
   * one, answered this once, and an existing one keeps its own.
   */
  async register(principal: SandboxPrincipal, url: string, secret: string | undefined): Promise<OrderWebhook> {
    const generated = secret === undefined ? newSecret() : undefined;
    const target = { kind: 'acp_order' as const, url, description: `ACP order events of sandbox key ${principal.keyId}`, createdBy: CREATED_BY };
    const outcome = await this.#sandbox.orderWebhooks.register(principal, {
      create: (trx) => this.#webhooks.subscribe(trx, target, secret ?? generated!),
      replace: (trx, id) => this.#webhooks.retarget(trx, id, url, secret),
    });
    const registered = (await this.webhook(principal))!;
    return outcome === 'created' && generated !== undefined ? { ...registered, secret: generated } : registered;
  }

  /** The key's order webhook, or undefined when it has none. */
  async webhook(principal: SandboxPrincipal): Promise<OrderWebhook | undefined> {
    const id = await this.#sandbox.orderWebhooks.subscription(principal);
    const subscription = id === undefined ? undefined : await this.#webhooks.get(id);
    if (subscription === undefined) return undefined;
    const { url, status, paused_reason, created_at } = subscription;
    return { url, status, ...(paused_reason !== null && { paused_reason }), created_at };
  }

  /** Deletes the key's order webhook with the deliveries still waiting; false when it had none. */
  async unregister(principal: SandboxPrincipal): Promise<boolean> {
    const id = await this.#sandbox.orderWebhooks.subscription(principal);
    return id !== undefined && this.#webhooks.delete(id);
  }

  /**
   * The completion hooks of a checkout session of `principal` (pass them to the
   * sandbox's `complete`): when the key has an order webhook, every event of ORDER_EVENTS
   * is written to its outbox in the transaction that makes the order, the release's
   * WebhookEvent `{ type, data }` with the whole order as it stands at that event, and
   * sent once it commits.
   */
  hooks(principal: SandboxPrincipal): CompletionHooks {
    return {
      onOrder: async (trx, order) => {
        const subscription = await this.#sandbox.orderWebhooks.subscription(principal, trx);
        if (subscription === undefined) return;
        for (const { type, stage } of ORDER_EVENTS) {
          const body = { type, data: acpOrder(order, stage, this.#publicBaseUrl) };
          await this.#webhooks.queueTo(trx, subscription, { id: randomUUID(), type }, JSON.stringify(body));
        }
      },
      onCommitted: () => this.#webhooks.wake(),
    };
  }
}
