import type { Kysely } from 'kysely';
import { changeDetailsAfter, readCatalogVersion, type ProductChangeDetail, type ProductChangeKind } from '../catalog/store/change-log.js';
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

const PRODUCT_EVENT_OF_KIND: Partial<Record<ProductChangeKind, EventType>> = {
  created: 'product.created',
  content: 'product.updated',
  published: 'product.published',
  withdrawn: 'product.withdrawn',
  deleted: 'product.deleted',
};

/**
 * The events of catalog change `seq`, from its per-product details (recorded in the
 * change's own transaction, src/catalog/store/change-details.ts): in the order of its
 * products and, per product, of its kinds, then its prices, then its availability
 * (prices and availability are per-variant events of their own). A price names its
 * region (`region_id`) or, for the price of every region in a currency, the `currency`.
 * Ids follow from the change and the event's place in it, so consuming a change again
 * (a dispatch that did not commit) makes the same events.
 */
export function catalogChangeEvents(seq: number, changedAt: string, products: readonly ProductChangeDetail[]): WebhookEvent[] {
  const events: Omit<WebhookEvent, 'id' | 'timestamp' | 'catalog_version'>[] = products.flatMap((details) => {
    const product = { product_id: details.product_id, handle: details.handle };
    return [
      ...details.kinds.flatMap((kind) => {
        const type = PRODUCT_EVENT_OF_KIND[kind];
        return type ? [{ type, data: product }] : [];
      }),
      ...details.prices.map(({ variant_id, sku, key, old, new: now }) => ({
        type: 'variant.price_changed' as const,
        data: { ...product, variant_id, sku, ...priceTarget(key), old, new: now },
      })),
      ...details.availability.map(({ variant_id, sku, old, new: now }) => ({
        type: 'variant.availability_changed' as const,
        data: { ...product, variant_id, sku, old: old?.status ?? null, new: now?.status ?? null },
      })),
    ];
  });
  return events.map((event, index) => ({ id: `evt_${seq}_${index}`, timestamp: changedAt, catalog_version: seq, ...event }));
}

/** Served documents key a price by region id (lower case) or, for every region of a currency, by the currency code (upper case). */
function priceTarget(key: string): { region_id: string | null; currency: string | null } {
  return key === key.toUpperCase() ? { region_id: null, currency: key } : { region_id: key, currency: null };
}

/** The catalog change log as an event source. */
export const catalogEventSource: EventSource = {
  name: 'webhooks',
  latest: readCatalogVersion,
  async after(db, seq, limit) {
    // The reader's position is never pruned (changeLogFloor), so the log holds what follows it.
    const changes = (await changeDetailsAfter(db, seq, limit)) ?? [];
    return changes.map((change) => ({ seq: change.seq, events: catalogChangeEvents(change.seq, change.changedAt, change.details) }));
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
