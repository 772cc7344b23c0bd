import type { Kysely } from 'kysely';
import { chunks } from '../store/chunks.js';
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
 * What one catalog change did to one product: the shape of the change log's per-product
 * details. Until the log records them, a change is known only by the products it touched
 * (`touched` below).
 */
export interface ProductChangeDetails {
  product_id: string;
  handle: string | null;
  kinds: ('created' | 'content' | 'price' | 'availability' | 'published' | 'withdrawn' | 'deleted')[];
  prices: { variant_id: string; sku: string; key: string; old: number | null; new: number | null }[];
  availability: { variant_id: string; sku: string; old: string | null; new: string | null }[];
}

const PRODUCT_EVENT_OF_KIND: Partial<Record<ProductChangeDetails['kinds'][number], EventType>> = {
  created: 'product.created',
  content: 'product.updated',
  published: 'product.published',
  withdrawn: 'product.withdrawn',
  deleted: 'product.deleted',
};

/**
 * The events of catalog change `seq`, in the order of its products and, per product, of
 * its kinds, then its prices, then its availability (prices and availability are
 * per-variant events of their own). Ids follow from the change and the event's place in
 * it, so consuming a change again (a dispatch that did not commit) makes the same events.
 */
export function catalogChangeEvents(seq: number, changedAt: string, products: readonly ProductChangeDetails[]): WebhookEvent[] {
  const events: Omit<WebhookEvent, 'id' | 'timestamp' | 'catalog_version'>[] = products.flatMap((details) => {
    const product = { product_id: details.product_id, handle: details.handle };
    return [
      ...details.kinds.flatMap((kind) => {
        const type = PRODUCT_EVENT_OF_KIND[kind];
        return type ? [{ type, data: product }] : [];
      }),
      ...details.prices.map((price) => ({ type: 'variant.price_changed' as const, data: { ...product, ...price } })),
      ...details.availability.map((availability) => ({ type: 'variant.availability_changed' as const, data: { ...product, ...availability } })),
    ];
  });
  return events.map((event, index) => ({ id: `evt_${seq}_${index}`, timestamp: changedAt, catalog_version: seq, ...event }));
}

/** A change known only by the products it touched: each was updated, under the handle it has now (null once deleted). */
async function touched(db: Kysely<Database>, productIds: string[]): Promise<ProductChangeDetails[]> {
  const handles = new Map<string, string>();
  for (const ids of chunks(productIds)) {
    for (const row of await db.selectFrom('products').select(['id', 'handle']).where('id', 'in', ids).execute()) handles.set(row.id, row.handle);
  }
  return productIds.map((id) => ({ product_id: id, handle: handles.get(id) ?? null, kinds: ['content'], prices: [], availability: [] }));
}

/** The catalog change log as an event source. */
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
    const entries: SourcedEvents[] = [];
    for (const row of rows) {
      const version = Number(row.seq);
      entries.push({ seq: version, events: catalogChangeEvents(version, row.changed_at, await touched(db, JSON.parse(row.product_ids) as string[])) });
    }
    return entries;
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
