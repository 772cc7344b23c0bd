import { randomBytes } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import { newId, newOrderedId } from '../lib/new-id.js';
import type { Database, WebhookDeliveryTable, WebhookSubscriptionTable } from '../store/schema.js';
import type { SubscriptionKind } from './kinds.js';

/** A subscription as the admin API shows it: never its secret. */
export interface Subscription {
  id: string;
  kind: SubscriptionKind;
  url: string;
  event_types: string[];
  description: string | null;
  status: 'active' | 'paused';
  paused_reason: string | null;
  paused_at: string | null;
  created_by: string;
  created_at: string;
}

/** A delivery as the admin API shows it. */
export interface Delivery {
  id: string;
  event_id: string;
  event_type: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  created_at: string;
  next_attempt_at: string | null;
  last_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  delivered_at: string | null;
}

const SECRET_BYTES = 32;

/** A Standard Webhooks signing secret: `whsec_` and 32 random bytes in base64. */
const newSecret = () => `whsec_${randomBytes(SECRET_BYTES).toString('base64')}`;

const subscription = (row: Selectable<WebhookSubscriptionTable>): Subscription => ({
  id: row.id,
  kind: row.kind,
  url: row.url,
  event_types: JSON.parse(row.event_types) as string[],
  description: row.description,
  status: row.status,
  paused_reason: row.paused_reason,
  paused_at: row.paused_at,
  created_by: row.created_by,
  created_at: row.created_at,
});

export const delivery = (row: Selectable<WebhookDeliveryTable>): Delivery => ({
  id: row.id,
  event_id: row.event_id,
  event_type: row.event_type,
  status: row.status,
  attempts: Number(row.attempts),
  created_at: row.created_at,
  next_attempt_at: row.next_attempt_at,
  last_attempt_at: row.last_attempt_at,
  last_status_code: row.last_status_code === null ? null : Number(row.last_status_code),
  last_error: row.last_error,
  delivered_at: row.delivered_at,
});

export interface NewSubscription {
  url: string;
  event_types: string[];
  description?: string;
}

/** Creates an active catalog subscription; the answer carries its secret, the only time it is shown. */
export async function createSubscription(db: Kysely<Database>, actor: string, fields: NewSubscription, now: Date): Promise<{ subscription: Subscription; secret: string }> {
  const secret = newSecret();
  const row = await db
    .insertInto('webhook_subscriptions')
    .values({
      id: newId('whk'),
      kind: 'catalog',
      url: fields.url,
      event_types: JSON.stringify([...new Set(fields.event_types)]),
      description: fields.description ?? null,
      secret,
      status: 'active',
      paused_reason: null,
      paused_at: null,
      created_by: actor,
      created_at: now.toISOString(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { subscription: subscription(row), secret };
}

export async function listSubscriptions(db: Kysely<Database>): Promise<Subscription[]> {
  const rows = await db.selectFrom('webhook_subscriptions').selectAll().orderBy('created_at').orderBy('id').execute();
  return rows.map(subscription);
}

export async function getSubscription(db: Kysely<Database>, id: string): Promise<Subscription | undefined> {
  const row = await db.selectFrom('webhook_subscriptions').selectAll().where('id', '=', id).executeTakeFirst();
  return row && subscription(row);
}

/** Pauses an active subscription with the reason given; a paused one keeps its first reason. */
export async function pauseSubscription(db: Kysely<Database>, id: string, reason: string, now: Date): Promise<Subscription | undefined> {
  await db
    .updateTable('webhook_subscriptions')
    .set({ status: 'paused', paused_reason: reason, paused_at: now.toISOString() })
    .where('id', '=', id)
    .where('status', '=', 'active')
    .execute();
  return getSubscription(db, id);
}

export async function resumeSubscription(db: Kysely<Database>, id: string): Promise<Subscription | undefined> {
  await db.updateTable('webhook_subscriptions').set({ status: 'active', paused_reason: null, paused_at: null }).where('id', '=', id).execute();
  return getSubscription(db, id);
}

/** Deletes the subscription and its deliveries; false when there was none. */
export async function deleteSubscription(db: Kysely<Database>, id: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    await trx.deleteFrom('webhook_deliveries').where('subscription_id', '=', id).execute();
    const deleted = await trx.deleteFrom('webhook_subscriptions').where('id', '=', id).executeTakeFirst();
    return Number(deleted.numDeletedRows) > 0;
  });
}

/** A subscription that is not the admin API's: where events of one kind go to one URL, written by the feature that makes them. */
export interface KindTarget {
  kind: Exclude<SubscriptionKind, 'catalog'>;
  url: string;
  /** Shown to operators, from the first event that made the subscription. */
  description: string;
  /** Who made it, as operators see it in `created_by`. */
  createdBy: string;
}

/**
 * The subscription of `target`, made active on its first use. Its URL has one (the
 * partial unique index of migration 0009): of transactions making it at once, the others
 * wait for the first and then find it.
 */
export async function kindSubscription(db: Kysely<Database>, target: KindTarget, now: Date): Promise<{ id: string; status: Subscription['status'] }> {
  await db
    .insertInto('webhook_subscriptions')
    .values(kindSubscriptionRow(target, '', now))
    .onConflict((conflict) => conflict.doNothing())
    .execute();
  return db
    .selectFrom('webhook_subscriptions')
    .select(['id', 'status'])
    .where('kind', '=', target.kind)
    .where('url', '=', target.url)
    .executeTakeFirstOrThrow();
}

/**
 * A new active subscription of `target`'s kind signed with `secret`, for kinds whose
 * subscriptions belong to a client that registered them (`acp_order`): each is its own,
 * whatever its URL. Returns its id.
 */
export async function insertClientSubscription(db: Kysely<Database>, target: KindTarget, secret: string, now: Date): Promise<string> {
  const row = await db.insertInto('webhook_subscriptions').values(kindSubscriptionRow(target, secret, now)).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** A new active subscription of `target`: its events are written for it, so it takes no event types. */
function kindSubscriptionRow(target: KindTarget, secret: string, now: Date) {
  return {
    id: newId('whk'),
    kind: target.kind,
    url: target.url,
    event_types: '[]',
    description: target.description,
    secret,
    status: 'active' as const,
    paused_reason: null,
    paused_at: null,
    created_by: target.createdBy,
    created_at: now.toISOString(),
  };
}

/** Points a client's subscription at `url`, and signs with `secret` from now on when one is given. */
export async function retargetSubscription(db: Kysely<Database>, id: string, url: string, secret?: string): Promise<void> {
  await db
    .updateTable('webhook_subscriptions')
    .set({ url, ...(secret !== undefined && { secret }) })
    .where('id', '=', id)
    .execute();
}

/**
 * A delivery row for `event` to `subscriptionId`, due at once. Every attempt sends
 * `payload`: the event's JSON unless given (an event whose body is not the event itself).
 */
export function deliveryRow<Event extends { id: string; type: string }>(subscriptionId: string, event: Event, now: string, payload = JSON.stringify(event)) {
  return {
    id: newOrderedId('dlv'),
    subscription_id: subscriptionId,
    event_id: event.id,
    event_type: event.type,
    payload,
    status: 'pending' as const,
    attempts: 0,
    created_at: now,
    next_attempt_at: now,
  };
}

/** The subscription's newest deliveries, newest first. */
export async function recentDeliveries(db: Kysely<Database>, subscriptionId: string, limit: number): Promise<Delivery[]> {
  const rows = await db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('subscription_id', '=', subscriptionId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map(delivery);
}

/** How long delivered and given-up deliveries are kept for GET .../deliveries. */
export const DELIVERY_RETENTION_MS = 7 * 24 * 3_600_000;

/** Deletes the deliveries older than the retention that are no longer pending (one index range on `created_at`). */
export async function pruneDeliveries(db: Kysely<Database>, now: Date): Promise<void> {
  const cutoff = new Date(now.getTime() - DELIVERY_RETENTION_MS).toISOString();
  await db.deleteFrom('webhook_deliveries').where('created_at', '<', cutoff).where('status', '<>', 'pending').execute();
}
