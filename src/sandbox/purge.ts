import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../store/database.js';
import type { Clock } from './clock.js';

export interface PurgeReport {
  keys: number;
  carts: number;
  checkouts: number;
  orders: number;
  paymentTokens: number;
  orderWebhooks: number;
  idempotency: number;
}

/**
 * Deletes every sandbox key, cart, checkout session, order, delegated payment token,
 * order webhook and idempotency record that expired at or before `now`. Carts, sessions,
 * orders, tokens and order webhooks expire with their key; each is
 * deleted by its own expiry first, so the counts say what went (a key's deletion would
 * take its rows along anyway).
 */
export async function purgeExpiredSandboxData(db: Db, now: Date): Promise<PurgeReport> {
  const cutoff = now.toISOString();
  const expired = async (table: 'sandbox_idempotency' | 'sandbox_payment_tokens' | 'sandbox_orders' | 'sandbox_checkouts' | 'sandbox_carts' | 'sandbox_keys') =>
    Number((await db.deleteFrom(table).where('expires_at', '<=', cutoff).executeTakeFirst()).numDeletedRows);
  const idempotency = await expired('sandbox_idempotency');
  const paymentTokens = await expired('sandbox_payment_tokens');
  const orders = await expired('sandbox_orders');
  // An order webhook is its delivery subscription: deleting that deletes its deliveries and the registration (migration 0012).
  const expiredWebhooks = db.selectFrom('sandbox_order_webhooks').select('subscription_id').where('expires_at', '<=', cutoff);
  const orderWebhooks = Number((await db.deleteFrom('webhook_subscriptions').where('id', 'in', expiredWebhooks).executeTakeFirst()).numDeletedRows);
  const checkouts = await expired('sandbox_checkouts');
  const carts = await expired('sandbox_carts');
  const keys = await expired('sandbox_keys');
  return { keys, carts, checkouts, orders, paymentTokens, orderWebhooks, idempotency };
}

/** Purges in the background; the timer never keeps the process alive. Returns the stop function. */
export function startPurging(db: Db, clock: Clock, intervalMs: number, log: FastifyBaseLogger): () => void {
  const timer = setInterval(() => {
    purgeExpiredSandboxData(db, clock()).then(
      (report) => log.debug({ purged: report }, 'expired sandbox data purged'),
      (error: unknown) => log.warn({ err: error }, 'sandbox purge failed'),
    );
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
