import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { WebhookConfig } from '../config.js';
import { isNonPublicAddress, literalAddress, NON_PUBLIC_REFUSAL, OutboundClient } from '../http/outbound.js';
import { newId } from '../lib/new-id.js';
import { throttledWarning } from '../lib/throttled-warning.js';
import { readChangeLogReader } from '../store/change-log-readers.js';
import type { Db } from '../store/database.js';
import { dispatch, startReading } from './dispatcher.js';
import { TEST_EVENT_TYPE, type EventSource, type WebhookEvent } from './events.js';
import { CLAIM_BATCH, sendDue, type AttemptOutcome } from './sender.js';
import {
  createSubscription,
  deleteSubscription,
  deliveryRow,
  getSubscription,
  listSubscriptions,
  pauseSubscription,
  pruneDeliveries,
  recentDeliveries,
  resumeSubscription,
  delivery,
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
  readonly #instance = newId('instance');
  readonly #warn: (error: unknown) => void;
  readonly #onAttempt: (outcome: AttemptOutcome) => void;
  #timer: NodeJS.Timeout | undefined;
  #round: Promise<void> | undefined;
  #running = false;
  #stopped: Promise<void> | undefined;
  readonly #shutdown = new AbortController();

  constructor(options: WebhookServiceOptions) {
    this.#db = options.db;
    this.#config = options.config;
    this.#source = options.source;
    this.#clock = options.clock ?? (() => new Date());
    this.#onAttempt = options.onAttempt ?? (() => {});
    this.#outbound = new OutboundClient({ allowPrivateTargets: options.config.allowPrivateTargets, timeoutMs: options.config.timeoutMs, maxResponseBytes: options.config.maxResponseBytes });
    this.#warn = throttledWarning(options.log, 'webhook delivery round failed');
  }

  /** Why a target URL is refused at creation (a literal non-public address), or undefined. Names are checked when sending. */
  refusedTarget(url: URL): string | undefined {
    const literal = literalAddress(url);
    if (!this.#config.allowPrivateTargets && literal !== undefined && isNonPublicAddress(literal)) return NON_PUBLIC_REFUSAL;
    return undefined;
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
    this.#wake();
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
    this.#running = true;
    this.#schedule(0);
  }

  /**
   * Stops the rounds, aborts the attempts under way (their deliveries wait for their
   * leases to pass, sender.ts), waits for the round to end and closes the connections; once.
   */
  stop(): Promise<void> {
    this.#stopped ??= (async () => {
      this.#running = false;
      this.#shutdown.abort();
      clearTimeout(this.#timer);
      await this.#round;
      await this.#outbound.close();
    })();
    return this.#stopped;
  }

  #wake(): void {
    if (this.#running && this.#round === undefined) this.#schedule(0);
  }

  #schedule(delayMs: number): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#round = this.#runRound().finally(() => {
        this.#round = undefined;
        if (this.#running) this.#schedule(this.#config.pollMs);
      });
    }, delayMs);
  }

  /**
   * Drops deliveries past their retention, then dispatches until no entry waits and sends
   * a claim of due deliveries, again and again while each claim comes back full: a
   * backlog (a burst of changes, a receiver back from an outage) drains at the pace of
   * the receivers, not one claim per WEBHOOK_POLL_MS, and changes made meanwhile are
   * dispatched between claims.
   */
  async #runRound(): Promise<void> {
    try {
      await pruneDeliveries(this.#db, this.#clock());
      const sending = { config: this.#config, outbound: this.#outbound, instance: this.#instance, clock: this.#clock, onAttempt: this.#onAttempt, shutdown: this.#shutdown.signal };
      let claimed = CLAIM_BATCH;
      while (this.#running && claimed === CLAIM_BATCH) {
        while (this.#running && (await dispatch(this.#db, this.#source, this.#clock())) > 0);
        claimed = this.#running ? await sendDue(this.#db, sending) : 0;
      }
    } catch (error) {
      this.#warn(error);
    }
  }
}
