import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import { connectSharedRedis, settleConnections, type SharedRedis } from './shared-redis.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Set when REDIS_URL is: the rate-limit counters and catalog notifications all instances share. */
    redis: SharedRedis | null;
  }
}

/** The app starts, and answers, even while Redis is unreachable; it connects when Redis returns. */
export const redisPlugin = fp<{ config: Config }>(
  async (app, { config }) => {
    const redis = config.redisUrl ? connectSharedRedis(config.redisUrl, config.redisKeyPrefix, app.log) : null;
    app.decorate('redis', redis);
    if (!redis) return;
    app.addHook('onClose', async () => redis.close());
    if (!(await settleConnections(redis))) app.log.warn('Redis is unreachable; starting without it and reconnecting in the background');
  },
  { name: 'redis' },
);
