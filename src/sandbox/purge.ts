import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../store/database.js';
import type { Clock } from './clock.js';

export interface PurgeReport {
  keys: number;
  carts: number;
  idempotency: number;
}

/** Deletes every sandbox key, cart and idempotency record that expired at or before `now`. */
export async function purgeExpiredSandboxData(db: Db, now: Date): Promise<PurgeReport> {
  const cutoff = now.toISOString();
  const idempotency = await db.deleteFrom('sandbox_idempotency').where('expires_at', '<=', cutoff).executeTakeFirst();
  const carts = await db.deleteFrom('sandbox_carts').where('expires_at', '<=', cutoff).executeTakeFirst();
  const keys = await db.deleteFrom('sandbox_keys').where('expires_at', '<=', cutoff).executeTakeFirst();
  return {
    keys: Number(keys.numDeletedRows),
    carts: Number(carts.numDeletedRows),
    idempotency: Number(idempotency.numDeletedRows),
  };
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
