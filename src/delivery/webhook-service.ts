import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import type { WebhookConfig } from '../config.js';
import { literalAddressRefusal, OutboundClient, type TargetRange } from '../http/outbound.js';
import { newId } from '../lib/new-id.js';
import { throttledWarning } from '../lib/throttled-warning.js';
import { readChangeLogReader, registerChangeLogReader, retireChangeLogReader } from '../store/change-log-readers.js';
import { readCatalogVersion } from '../catalog/store/change-log.js';
import { consumeChanges, type ChangeConsumer } from './change-consumers.js';
import type { Db } from '../store/database.js';
import { dispatch, startReading } from './dispatcher.js';
import { TEST_EVENT_TYPE, type EventSource, type WebhookEvent } from './events.js';
import { CATALOG_DELIVERY, httpsRequired, type DeliveryKind, type SubscriptionKind } from './kinds.js';
import { attempt, claimDue, releaseClaims, type AttemptOutcome, type ClaimedDelivery, type SenderOptions } from './sender.js';
import {
  createSubscription,
  deleteSubscription,
  deliveryRow,
  getSubscription,
  insertClientSubscription,
  kindSubscription,
  listSubscriptions,
  pauseSubscription,
  pruneDeliveries,
  recentDeliveries,
  resumeSubscription,
  retargetSubscription,
  delivery,
  type KindTarget,
  type NewSubscription,
} from './subscriptions.js';

export interface WebhookServiceOptions {
  db: Db;
  config: WebhookConfig;
  source: EventSource;
  log: FastifyBaseLogger;
  clock?: () => Date;
  onAttempt?(outcome: AttemptOutcome): void;
}

/** What /metrics and /readyz read of the outbox. */
export interface OutboxState {
  /** Source entries not yet turned into deliveries. */
  depth: number;
  /** Seconds since the oldest of them was written; 0 when none waits. */
  lagSeconds: number;
  /** Deliveries not yet delivered nor given up. */
  pending: number;
}

/**
 * Webhooks: subscriptions, and on every instance a loop that turns new events into
 * deliveries (dispatcher.ts) and sends those due (sender.ts), every `pollMs`.
 */
export class WebhookService {
  readonly #db: Db;
  readonly #config: WebhookConfig;
  readonly #source: EventSource;
  readonly #clock: () => Date;
  readonly #outbound: OutboundClient;
  readonly #targets: TargetRange;
  readonly #instance = newId('instance');
  readonly #warn: (error: unknown) => void;
  readonly #onAttempt: (outcome: AttemptOutcome) => void;
  readonly #sending: SenderOptions;
  readonly #kinds = new Map<SubscriptionKind, DeliveryKind>([['catalog', CATALOG_DELIVERY]]);
  readonly #consumers: ChangeConsumer[] = [];
  /** Attempts under way on this instance, at most WEBHOOK_CONCURRENCY. */
  readonly #inFlight = new Set<Promise<void>>();
  /** Of them, per subscription: at most WEBHOOK_CONCURRENCY_PER_WEBHOOK each. */
  readonly #inFlightBySubscription = new Map<string, number>();
  #timer: NodeJS.Timeout | undefined;
  #round: Promise<void> | undefined;
  /** Asked for while a round ran: the next one starts as soon as it ends. */
  #roundAgain = false;
  /** The last claim took all it asked for, so more deliveries may be due now. */
  #moreDue = false;
  #running = false;
  #stopped: Promise<void> | undefined;
  readonly #shutdown = new AbortController();

  constructor(options: WebhookServiceOptions) {
    this.#db = options.db;
    this.#config = options.config;
    this.#source = options.source;
    this.#clock = options.clock ?? (() => new Date());
    this.#onAttempt = options.onAttempt ?? (() => {});
    this.#targets = options.config.allowPrivateTargets ? 'any' : 'public';
    this.#outbound = new OutboundClient({ targets: this.#targets, timeoutMs: options.config.timeoutMs, maxResponseBytes: options.config.maxResponseBytes });
    // Each attempt under way listens for the shutdown (src/http/outbound.ts), up to WEBHOOK_CONCURRENCY at once.
    setMaxListeners(options.config.concurrency + 1, this.#shutdown.signal);
    this.#warn = throttledWarning(options.log, 'webhook delivery round failed');
    this.#sending = {
      config: this.#config,
      outbound: this.#outbound,
      instance: this.#instance,
      kinds: this.#kinds,
      clock: this.#clock,
      onAttempt: this.#onAttempt,
      shutdown: this.#shutdown.signal,
    };
  }

  /**
   * How subscriptions of `name` are signed and sent: the feature that writes their
   * events defines it while the app is built, before the first round.
   */
  defineKind(name: Exclude<SubscriptionKind, 'catalog'>, kind: DeliveryKind): void {
    this.#kinds.set(name, kind);
  }

  #kind(name: SubscriptionKind): DeliveryKind {
    const kind = this.#kinds.get(name);
    if (!kind) throw new Error(`No delivery kind ${name} is defined on this instance`);
    return kind;
  }

  /**
   * Writes `event`, whose attempts send `payload`, for `target`'s subscription (made on
   * first use) in `trx`, the transaction that makes the event, so both commit or neither
   * does: the outbox of events that are not catalog changes. Nothing is written while the
   * subscription is paused, as for catalog events. Call {@link wake} once `trx` has
   * committed, so the event leaves at once rather than at the next WEBHOOK_POLL_MS.
   */
  async queue(trx: Db, target: KindTarget, event: { id: string; type: string }, payload: string): Promise<void> {
    const subscription = await kindSubscription(trx, target, this.#clock());
    await this.queueTo(trx, subscription.id, event, payload);
  }

  /** As {@link queue}, for the subscription `subscriptionId` (a client's, {@link subscribe}); nothing while it is paused or gone. */
  async queueTo(trx: Db, subscriptionId: string, event: { id: string; type: string }, payload: string): Promise<void> {
    const now = this.#clock().toISOString();
    const subscription = await trx.selectFrom('webhook_subscriptions').select('status').where('id', '=', subscriptionId).executeTakeFirst();
    if (subscription?.status !== 'active') return;
    await trx.insertInto('webhook_deliveries').values(deliveryRow(subscriptionId, event, now, payload)).execute();
  }

  /**
   * Makes an active subscription of `target`'s kind for a client that registers its own
   * receiver (`acp_order`), signed with `secret`, in `trx`; returns its id. Each is its
   * own, even for a URL another client registered.
   */
  subscribe(trx: Db, target: KindTarget, secret: string): Promise<string> {
    return insertClientSubscription(trx, target, secret, this.#clock());
  }

  /** Points a client's subscription at another URL, and signs with `secret` from now on when one is given. */
  retarget(trx: Db, id: string, url: string, secret?: string): Promise<void> {
    return retargetSubscription(trx, id, url, secret);
  }

  /**
   * Has every round consume catalog changes with `consumer` after the catalog's own events,
   * from the newest change when it first runs: the feature defines it while the app is
   * built, before the first round.
   */
  addChangeConsumer(consumer: ChangeConsumer): void {
    this.#consumers.push(consumer);
  }

  /** Forgets a consumer no longer defined here (its feature switched off), so the log is pruned past it again. */
  retireChangeConsumer(name: string): Promise<void> {
    return retireChangeLogReader(this.#db, name);
  }

  /**
   * Why `text` is refused as a target of a subscription of `kind` when it is made, or
   * undefined: not a URL, not http(s) (not https, for a kind that wants it), with
   * credentials, or a literal address outside the allowed targets. Names are checked
   * when sending.
   */
  refusedTarget(text: string, kind: SubscriptionKind): string | undefined {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return 'it is not a URL';
    }
    const httpsOnly = httpsRequired(this.#kind(kind), this.#targets === 'any');
    if (url.protocol !== 'https:' && (httpsOnly || url.protocol !== 'http:')) return `it must be an ${httpsOnly ? 'https' : 'http or https'} URL`;
    if (url.username !== '' || url.password !== '') return 'it must carry no credentials';
    return literalAddressRefusal(url, this.#targets);
  }

  create(actor: string, fields: NewSubscription) {
    return createSubscription(this.#db, actor, fields, this.#clock());
  }

  list() {
    return listSubscriptions(this.#db);
  }

  get(id: string) {
    return getSubscription(this.#db, id);
  }

  pause(id: string, actor: string) {
    return pauseSubscription(this.#db, id, `Paused by ${actor}.`, this.#clock());
  }

  resume(id: string) {
    return resumeSubscription(this.#db, id);
  }

  delete(id: string) {
    return deleteSubscription(this.#db, id);
  }

  deliveries(id: string, limit: number) {
    return recentDeliveries(this.#db, id, limit);
  }

  /** Queues a `webhook.test` event for the subscription, sent by the next round (started at once). */
  async sendTest(subscriptionId: string) {
    const now = this.#clock();
    const event: WebhookEvent = { id: `evt_test_${randomUUID()}`, type: TEST_EVENT_TYPE, timestamp: now.toISOString(), catalog_version: null, data: { subscription_id: subscriptionId } };
    const row = await this.#db.insertInto('webhook_deliveries').values(deliveryRow(subscriptionId, event, now.toISOString())).returningAll().executeTakeFirstOrThrow();
    this.wake();
    return delivery(row);
  }

  async outboxState(): Promise<OutboxState> {
    const position = (await readChangeLogReader(this.#db, this.#source.name)) ?? 0;
    const backlog = await this.#source.backlog(this.#db, position);
    const pending = await this.#db
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    const lagMs = backlog.oldest === null ? 0 : Math.max(0, this.#clock().getTime() - Date.parse(backlog.oldest));
    return { depth: backlog.depth, lagSeconds: lagMs / 1000, pending: Number(pending.count) };
  }

  /** Whether the outbox is stuck: a change has waited longer than WEBHOOK_OUTBOX_STUCK_MS to become deliveries. */
  async outboxStuck(): Promise<boolean> {
    return (await this.outboxState()).lagSeconds * 1000 > this.#config.outboxStuckMs;
  }

  /** Starts this instance's rounds; the reader starts at the newest change the first time any instance runs. */
  async start(): Promise<void> {
    await startReading(this.#db, this.#source);
    for (const consumer of this.#consumers) await registerChangeLogReader(this.#db, consumer.name, await readCatalogVersion(this.#db));
    this.#running = true;
    this.#schedule(0, true);
  }

  /**
   * Stops the rounds, aborts the attempts under way (their deliveries wait for their
   * leases to pass, sender.ts), waits for the round and the attempts to end and closes
   * the connections; once.
   */
  stop(): Promise<void> {
    this.#stopped ??= (async () => {
      this.#running = false;
      this.#shutdown.abort();
      clearTimeout(this.#timer);
      await this.#round;
      await Promise.all(this.#inFlight);
      await this.#outbound.close();
    })();
    return this.#stopped;
  }

  /** Starts a round now (or right after the one under way): new changes or deliveries wait. */
  wake(): void {
    if (!this.#running) return;
    if (this.#round === undefined) this.#schedule(0, false);
    else this.#roundAgain = true;
  }

  /** A round after `delayMs`; `polled` for the round every WEBHOOK_POLL_MS, not one an attempt or a test event asked for. */
  #schedule(delayMs: number, polled: boolean): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#round = this.#runRound(polled).finally(() => {
        this.#round = undefined;
        const again = this.#roundAgain;
        this.#roundAgain = false;
        if (this.#running) this.#schedule(again ? 0 : this.#config.pollMs, !again);
      });
    }, delayMs);
  }

  /**
   * Drops deliveries past their retention (in polled rounds), dispatches until no entry
   * waits and has each change consumer consume until none waits for it, then claims as many due deliveries as there are free attempt slots and starts
   * them without waiting: each attempt runs on its own, and a subscription holds at most
   * WEBHOOK_CONCURRENCY_PER_WEBHOOK slots (a claim skips subscriptions at their limit and
   * gives back what passes it), so a receiver that hangs delays only its own deliveries. An attempt that ends while the last claim came back full
   * starts another round, so a backlog (a burst of changes, a receiver back from an
   * outage) drains at the receivers' pace, not one claim per WEBHOOK_POLL_MS.
   */
  async #runRound(polled: boolean): Promise<void> {
    try {
      if (polled) await pruneDeliveries(this.#db, this.#clock());
      while (this.#running && (await dispatch(this.#db, this.#source, this.#clock())) > 0);
      for (const consumer of this.#consumers) while (this.#running && (await consumeChanges(this.#db, consumer)) > 0);
      const free = this.#config.concurrency - this.#inFlight.size;
      if (!this.#running || free <= 0) return;
      const saturated = [...this.#inFlightBySubscription].filter(([, count]) => count >= this.#config.concurrencyPerWebhook).map(([id]) => id);
      const claimed = await claimDue(this.#db, this.#sending, free, saturated);
      this.#moreDue = claimed.length === free;
      const surplus: string[] = [];
      for (const row of claimed) {
        if ((this.#inFlightBySubscription.get(row.subscription_id) ?? 0) < this.#config.concurrencyPerWebhook) this.#start(row);
        else surplus.push(row.id);
      }
      await releaseClaims(this.#db, this.#instance, surplus);
    } catch (error) {
      this.#warn(error);
    }
  }

  #start(row: ClaimedDelivery): void {
    const subscription = row.subscription_id;
    this.#inFlightBySubscription.set(subscription, (this.#inFlightBySubscription.get(subscription) ?? 0) + 1);
    const running: Promise<void> = attempt(this.#db, this.#sending, row)
      .catch((error: unknown) => this.#warn(error))
      .finally(() => {
        this.#inFlight.delete(running);
        const left = this.#inFlightBySubscription.get(subscription)! - 1;
        if (left === 0) this.#inFlightBySubscription.delete(subscription);
        else this.#inFlightBySubscription.set(subscription, left);
        if (this.#moreDue) this.wake();
      });
    this.#inFlight.add(running);
  }
}
