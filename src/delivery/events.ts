import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';

/** The events a subscription can ask for. */
export const EVENT_TYPES = [
  'product.created',
  'product.updated',
  'product.published',
  'product.withdrawn',
  'product.deleted',
  'variant.price_changed',
  'variant.availability_changed',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Sent by POST /admin/v1/webhooks/{id}/test only, whatever the subscription's types. */
export const TEST_EVENT_TYPE = 'webhook.test';

/**
 * One event, as the body of every attempt to deliver it. `id` is the same on every
 * attempt and every subscription (the `webhook-id` header): receivers de-duplicate by it.
 */
export interface WebhookEvent {
  id: string;
  type: EventType | typeof TEST_EVENT_TYPE;
  /** When the change happened (ISO 8601). */
  timestamp: string;
  /** The catalog version the change made; null for a test event. */
  catalog_version: number | null;
  data: Record<string, unknown>;
}

/** The events of one source entry, with the entry's position. */
export interface SourcedEvents {
  seq: number;
  events: WebhookEvent[];
}

/**
 * Where events come from: an append-only log in the store, written in the same
 * transaction as the change it records (the outbox), read by position. The dispatcher
 * (dispatcher.ts) consumes it under the reader name `name` (src/store/change-log-readers.ts).
 */
export interface EventSource {
  readonly name: string;
  /** The newest position: a new reader starts there. */
  latest(db: Kysely<Database>): Promise<number>;
  /** The entries after `seq`, oldest first, at most `limit`. */
  after(db: Kysely<Database>, seq: number, limit: number): Promise<SourcedEvents[]>;
  /** How many entries after `seq` wait, and when the oldest was written. */
  backlog(db: Kysely<Database>, seq: number): Promise<{ depth: number; oldest: string | null }>;
}

/**
 * The catalog change log as an event source. Each change names the products it touched;
 * each becomes a `product.updated` event. Event ids follow from the change and the
 * product's place in it, so consuming a change again (a dispatch that did not commit)
 * makes the same events.
 */
export const catalogEventSource: EventSource = {
  name: 'webhooks',
  async latest(db) {
    const row = await db.selectFrom('catalog_state').select('version').where('id', '=', 1).executeTakeFirst();
    return row ? Number(row.version) : 0;
  },
  async after(db, seq, limit) {
    const rows = await db
      .selectFrom('catalog_changes')
      .select(['seq', 'product_ids', 'changed_at'])
      .where('seq', '>', seq)
      .orderBy('seq')
      .limit(limit)
      .execute();
    return rows.map((row) => {
      const version = Number(row.seq);
      const productIds = JSON.parse(row.product_ids) as string[];
      return {
        seq: version,
        events: productIds.map((productId, index) => ({
          id: `evt_${version}_${index}`,
          type: 'product.updated' as const,
          timestamp: row.changed_at,
          catalog_version: version,
          data: { product_id: productId },
        })),
      };
    });
  },
  async backlog(db, seq) {
    const row = await db
      .selectFrom('catalog_changes')
      .select((eb) => [eb.fn.countAll<number | string>().as('depth'), eb.fn.min('changed_at').as('oldest')])
      .where('seq', '>', seq)
      .executeTakeFirstOrThrow();
    return { depth: Number(row.depth), oldest: row.oldest ?? null };
  },
};
