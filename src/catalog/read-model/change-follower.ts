import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import { throttledWarning } from '../../lib/throttled-warning.js';
import { onEveryReady, publishOnce, type SharedRedis } from '../../redis/shared-redis.js';
import type { CatalogReadModel } from './read-model.js';

const channelName = (keyPrefix: string) => `${keyPrefix}catalog-changed`;

/**
 * Tells every running instance that the stored catalog changed (the message is the new
 * version), so they catch up at once instead of at their next poll. Without Redis this
 * does nothing: polling alone carries the change. For short-lived processes (the import
 * command): it opens a connection of its own.
 */
export async function announceCatalogChange(config: Pick<Config, 'redisUrl' | 'redisKeyPrefix'>, version: number): Promise<void> {
  if (config.redisUrl) await publishOnce(config.redisUrl, channelName(config.redisKeyPrefix), String(version));
}

/**
 * How a running instance takes part in catalog changes: it follows the others'
 * announcements, and it makes its own writes visible (here at once, elsewhere through
 * Redis or the poll).
 */
export class CatalogChangeFollower {
  readonly #announceFailed: (error: unknown) => void;
  readonly #catchUpFailed: (error: unknown) => void;

  constructor(
    private readonly redis: SharedRedis | null,
    private readonly readModel: CatalogReadModel,
    private readonly log: FastifyBaseLogger,
  ) {
    this.#announceFailed = throttledWarning(log, 'catalog change announcement failed; other instances see it at their next poll');
    this.#catchUpFailed = throttledWarning(log, 'a committed catalog change could not be applied here yet; the next poll applies it');
  }

  /**
   * Call after committing the change numbered `version`: it resolves once this
   * instance's read model serves it (read-your-writes: the next read here shows it),
   * and announces it to the others. An announcement that fails never fails the write.
   */
  async committed(version: number): Promise<void> {
    // The write is committed whatever happens here: if this instance cannot catch up now
    // (the store just went away), its next poll will, and the writer is not told otherwise.
    await this.readModel.catchUpTo(version).catch(this.#catchUpFailed);
    if (this.redis) await this.redis.commands.publish(channelName(this.redis.keyPrefix), String(version)).catch(this.#announceFailed);
  }

  /**
   * Catches up on every announcement, and after every (re)connection too, since
   * announcements made while this instance was disconnected are lost. Catching up
   * compares stored versions, so a duplicate or stale message costs one cheap query.
   */
  follow(): void {
    if (!this.redis) return;
    const subscriber = this.redis.subscriber;
    const channel = channelName(this.redis.keyPrefix);
    const warn = throttledWarning(this.log, 'catalog catch-up after a change notification failed');
    const catchUp = () => this.readModel.refresh().catch(warn);
    onEveryReady(subscriber, () => {
      subscriber.subscribe(channel).then(catchUp, warn);
    });
    subscriber.on('message', (from: string) => {
      if (from === channel) void catchUp();
    });
  }
}
