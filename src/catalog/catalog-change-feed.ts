import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import { throttledWarning } from '../lib/throttled-warning.js';
import { onEveryReady, publishOnce, type SharedRedis } from '../redis/shared-redis.js';
import type { CatalogReadModel } from './read-model/read-model.js';

const channelName = (keyPrefix: string) => `${keyPrefix}catalog-changed`;

/**
 * Tells every running instance that the stored catalog changed (the message is the new
 * version), so they reload at once instead of at their next poll. Without Redis this
 * does nothing: polling alone carries the change.
 */
export async function announceCatalogChange(config: Pick<Config, 'redisUrl' | 'redisKeyPrefix'>, version: number): Promise<void> {
  if (config.redisUrl) await publishOnce(config.redisUrl, channelName(config.redisKeyPrefix), String(version));
}

/**
 * Refreshes the read model on every announcement, and after every (re)connection too,
 * since announcements made while this instance was disconnected are lost. `refresh()`
 * compares stored versions, so a duplicate or stale message costs one cheap query.
 */
export function followCatalogChanges(redis: SharedRedis, readModel: CatalogReadModel, log: FastifyBaseLogger): void {
  const channel = channelName(redis.keyPrefix);
  const warn = throttledWarning(log, 'catalog refresh after a change notification failed');
  const refresh = () => readModel.refresh().catch(warn);
  onEveryReady(redis.subscriber, () => {
    redis.subscriber.subscribe(channel).then(refresh, warn);
  });
  redis.subscriber.on('message', (from: string) => {
    if (from === channel) void refresh();
  });
}
