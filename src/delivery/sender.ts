import type { Kysely } from 'kysely';
import type { WebhookConfig } from '../config.js';
import { OutboundError, type OutboundClient } from '../http/outbound.js';
import type { Database } from '../store/schema.js';
import { httpsRequired, type DeliveryKind, type SubscriptionKind } from './kinds.js';
import { pauseSubscription } from './subscriptions.js';

/** A lease outlives the attempt it covers (the attempt's time-out twice, and this): no other instance sends the delivery meanwhile. */
const LEASE_MARGIN_MS = 5000;
/** `last_error` is shown to operators; a receiver's long error text is cut. */
const MAX_ERROR_LENGTH = 300;

export type AttemptOutcome = 'delivered' | 'failed';

export interface SenderOptions {
  config: WebhookConfig;
  outbound: OutboundClient;
  /** This instance, as `leased_by`. */
  instance: string;
  /** How each kind of subscription is signed and sent. */
  kinds: ReadonlyMap<SubscriptionKind, DeliveryKind>;
  clock(): Date;
  onAttempt(outcome: AttemptOutcome): void;
  /**
   * Aborted when the instance shuts down: attempts under way stop, and their deliveries
   * are left as they were, leased, for another instance (or this one after a restart)
   * once the lease has passed. The attempt counts against no receiver.
   */
  shutdown: AbortSignal;
}

/**
 * The wait before attempt `attempts + 1`: exponential from the base, capped, with jitter
 * (between half and all of it), so receivers that failed together are not retried together.
 */
export function retryDelayMs(config: Pick<WebhookConfig, 'retryBaseMs' | 'retryMaxDelayMs'>, attempts: number, random = Math.random()): number {
  const exponential = Math.min(config.retryMaxDelayMs, config.retryBaseMs * 2 ** Math.min(attempts - 1, 40));
  return Math.round(exponential / 2 + (exponential / 2) * random);
}

/**
 * Claims up to `limit` due deliveries of active subscriptions, except those in `skip`,
 * that no instance holds, with their targets. The claim is one UPDATE whose condition holds only for unleased
 * rows: on PostgreSQL an instance that waited for another's claim re-checks the
 * condition on the claimed row and skips it; on SQLite writes take turns. A delivery
 * whose instance died is claimed again once its lease has passed.
 */
export async function claimDue(db: Kysely<Database>, options: SenderOptions, limit: number, skip: readonly string[]): Promise<ClaimedDelivery[]> {
  const now = options.clock();
  const at = now.toISOString();
  const leaseUntil = new Date(now.getTime() + options.config.timeoutMs * 2 + LEASE_MARGIN_MS).toISOString();
  const claimed = await db
    .updateTable('webhook_deliveries')
    .set({ lease_until: leaseUntil, leased_by: options.instance })
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('webhook_deliveries as d')
        .innerJoin('webhook_subscriptions as s', 's.id', 'd.subscription_id')
        .select('d.id')
        .where('s.status', '=', 'active')
        .where('d.status', '=', 'pending')
        .where('d.next_attempt_at', '<=', at)
        .where((w) => w.or([w('d.lease_until', 'is', null), w('d.lease_until', '<', at)]))
        .$if(skip.length > 0, (query) => query.where('d.subscription_id', 'not in', skip))
        .orderBy('d.next_attempt_at')
        .limit(limit),
    )
    .where('status', '=', 'pending')
    .where((w) => w.or([w('lease_until', 'is', null), w('lease_until', '<', at)]))
    .returning(['id', 'subscription_id', 'event_id', 'payload', 'attempts', 'created_at'])
    .execute();
  if (claimed.length === 0) return [];
  const subscriptionIds = [...new Set(claimed.map((row) => row.subscription_id))];
  const targets = new Map(
    (await db.selectFrom('webhook_subscriptions').select(['id', 'kind', 'url', 'secret']).where('id', 'in', subscriptionIds).execute()).map((row) => [row.id, row]),
  );
  return claimed.flatMap((row) => {
    const target = targets.get(row.subscription_id);
    // A subscription deleted since the claim took its deliveries with it.
    return target ? [{ ...row, attempts: Number(row.attempts), target: { kind: target.kind, url: target.url, secret: target.secret } }] : [];
  });
}

/** Gives back claimed deliveries this instance will not attempt now: any instance may claim them at once. */
export async function releaseClaims(db: Kysely<Database>, instance: string, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable('webhook_deliveries').set({ lease_until: null, leased_by: null }).where('id', 'in', ids).where('leased_by', '=', instance).execute();
}

export interface ClaimedDelivery {
  id: string;
  subscription_id: string;
  event_id: string;
  payload: string;
  attempts: number;
  created_at: string;
  target: { kind: SubscriptionKind; url: string; secret: string };
}

/**
 * One attempt: signed as its subscription's kind says (kinds.ts), sent, and its outcome
 * recorded while the lease holds. A kind that wants https refuses any other target
 * (unless WEBHOOK_ALLOW_PRIVATE_TARGETS): the attempt fails, saying why.
 */
export async function attempt(db: Kysely<Database>, options: SenderOptions, row: ClaimedDelivery): Promise<void> {
  const { target } = row;
  const kind = options.kinds.get(target.kind);
  if (!kind) throw new Error(`No delivery kind ${target.kind} is defined on this instance`);
  const sentAt = options.clock();
  let status: number | null = null;
  let error: string | null = null;
  const body = bodyOf(kind, row.payload);
  if (httpsRequired(kind, options.config.allowPrivateTargets) && new URL(target.url).protocol !== 'https:') {
    error = `the target is not an https URL, which ${target.kind} webhooks need`;
  } else if (body.error !== undefined) {
    error = body.error;
  } else {
    const headers = await kind.sign({
      url: target.url,
      headers: { 'content-type': 'application/json', 'user-agent': 'Vetrina-Webhooks/1' },
      body: body.text,
      eventId: row.event_id,
      occurredAt: new Date(row.created_at),
      sentAt,
      secret: target.secret,
    });
    try {
      status = (await options.outbound.send(kind.method ?? 'POST', target.url, headers, body.text, options.shutdown)).status;
      if (status < 200 || status > 299) error = status >= 300 && status < 400 ? `answered ${status}: redirects are not followed` : `answered ${status}`;
    } catch (failure) {
      error = failure instanceof OutboundError ? failure.message : 'the request failed';
    }
  }
  if (options.shutdown.aborted) return;
  options.onAttempt(error === null ? 'delivered' : 'failed');
  await record(db, options, row, kind, { status, error, at: sentAt });
}

/** The body of an attempt as the kind makes it, or why it could not. */
function bodyOf(kind: DeliveryKind, payload: string): { text: string; error?: undefined } | { text?: undefined; error: string } {
  if (!kind.body) return { text: payload };
  try {
    return { text: kind.body(payload) };
  } catch (failure) {
    return { error: failure instanceof Error ? failure.message : 'the body could not be made' };
  }
}

async function record(
  db: Kysely<Database>,
  options: SenderOptions,
  row: ClaimedDelivery,
  kind: DeliveryKind,
  outcome: { status: number | null; error: string | null; at: Date },
): Promise<void> {
  const attempts = row.attempts + 1;
  const at = outcome.at.toISOString();
  const done = { attempts, last_attempt_at: at, last_status_code: outcome.status, last_error: outcome.error?.slice(0, MAX_ERROR_LENGTH) ?? null, lease_until: null, leased_by: null };
  const mine = (trx: Kysely<Database>) => trx.updateTable('webhook_deliveries').where('id', '=', row.id).where('leased_by', '=', options.instance);
  if (outcome.error === null) {
    await mine(db).set({ ...done, status: 'delivered', delivered_at: at, next_attempt_at: null }).execute();
    return;
  }
  const next = outcome.at.getTime() + retryDelayMs(options.config, attempts);
  const givenUp = attempts >= options.config.maxAttempts || next > Date.parse(row.created_at) + options.config.retryForMs;
  if (!givenUp) {
    await mine(db).set({ ...done, next_attempt_at: new Date(next).toISOString() }).execute();
    return;
  }
  const failed = { ...done, status: 'failed' as const, next_attempt_at: null };
  if (!kind.pausesWhenGivenUp) {
    await mine(db).set(failed).execute();
    return;
  }
  await db.transaction().execute(async (trx) => {
    const updated = await mine(trx).set(failed).executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) return;
    const reason = `Delivery ${row.id} (event ${row.event_id}) failed ${attempts} attempt${attempts === 1 ? '' : 's'} over ${Math.round((outcome.at.getTime() - Date.parse(row.created_at)) / 1000)} s; the last: ${done.last_error}.`;
    await pauseSubscription(trx, row.subscription_id, reason, outcome.at);
  });
}
