import type { Db } from '../store/database.js';
import type { SandboxPrincipal } from './auth.js';
import type { Clock } from './clock.js';
import { requireScope } from './refusals.js';
import { CHECKOUT_SCOPE } from './scopes.js';

/** How a protocol adapter writes the delivery subscription of a key's order webhook, in the registration's transaction. */
export interface OrderWebhookWrites {
  /** A new subscription, for a key that has none: its id. */
  create(trx: Db): Promise<string>;
  /** Changes the key's subscription `subscriptionId`. */
  replace(trx: Db, subscriptionId: string): Promise<void>;
}

/** Lost to a concurrent registration of the same key: the transaction is rolled back and run again, finding its subscription. */
class RegisteredMeanwhile extends Error {}

/**
 * The order webhook each sandbox key may register: where the events of its simulated
 * orders go. The sandbox keeps which webhook subscription belongs to the key (one per
 * key, expiring with it and purged after it, src/sandbox/purge.ts); the protocol adapter
 * that registers it writes the subscription (its URL and secret) and its events.
 */
export class OrderWebhookService {
  constructor(private readonly deps: { db: Db; clock: Clock }) {}

  /** Registers the key's order webhook through `writes`: `created` when it had none, else `replaced`. */
  async register(principal: SandboxPrincipal, writes: OrderWebhookWrites): Promise<'created' | 'replaced'> {
    requireScope(principal, CHECKOUT_SCOPE);
    for (;;) {
      try {
        return await this.deps.db.transaction().execute(async (trx) => {
          const existing = await subscriptionOf(trx, principal.keyId);
          if (existing !== undefined) {
            await writes.replace(trx, existing);
            return 'replaced';
          }
          const subscriptionId = await writes.create(trx);
          const inserted = await trx
            .insertInto('sandbox_order_webhooks')
            .values({ key_id: principal.keyId, subscription_id: subscriptionId, created_at: this.deps.clock().toISOString(), expires_at: principal.expiresAt!.toISOString() })
            .onConflict((conflict) => conflict.column('key_id').doNothing())
            .returning('key_id')
            .executeTakeFirst();
          if (inserted === undefined) throw new RegisteredMeanwhile();
          return 'created';
        });
      } catch (error) {
        if (!(error instanceof RegisteredMeanwhile)) throw error;
      }
    }
  }

  /** The subscription of the key's order webhook, or undefined when it has none; read in `db` when given (a completion's transaction). */
  async subscription(principal: SandboxPrincipal, db: Db = this.deps.db): Promise<string | undefined> {
    requireScope(principal, CHECKOUT_SCOPE);
    return subscriptionOf(db, principal.keyId);
  }
}

async function subscriptionOf(db: Db, keyId: string): Promise<string | undefined> {
  const row = await db.selectFrom('sandbox_order_webhooks').select('subscription_id').where('key_id', '=', keyId).executeTakeFirst();
  return row?.subscription_id;
}
