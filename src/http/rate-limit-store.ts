import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import LocalStore from '@fastify/rate-limit/store/LocalStore.js';
import RedisStore from '@fastify/rate-limit/store/RedisStore.js';
import type { FastifyBaseLogger } from 'fastify';
import { throttledWarning } from '../lib/throttled-warning.js';
import type { SharedRedis } from '../redis/shared-redis.js';

/** Clients tracked per instance without Redis (the plugin's default LRU size). */
const LOCAL_CLIENTS = 5000;

/**
 * The plugin's in-memory store, answering each count with a copy of the counter. Its own
 * LocalStore answers with the counter itself, which the plugin reads only after an
 * await: counts made in the same tick (the calls of one JSON-RPC batch) all read the
 * last one's total, so the calls that fitted were refused with the ones that did not.
 */
export class LocalCountStore implements FastifyRateLimitStore {
  readonly #counters = new LocalStore(false, false, LOCAL_CLIENTS);

  incr: FastifyRateLimitStore['incr'] = (key, callback, timeWindow, max) => {
    this.#counters.incr(key, (error, result) => callback(error, result && { current: result.current, ttl: result.ttl }), timeWindow, max);
  };

  /**
   * One store per rule, as the plugin's own LocalStore gives: the rules share no LRU, so
   * thousands of catalog clients within a minute never evict the hour-long counts of
   * key issuance.
   */
  child(): FastifyRateLimitStore {
    return new LocalCountStore();
  }
}

/**
 * Counts in Redis, so every instance shares one window per client (the increment and
 * its expiry are one Lua script, so concurrent instances never lose a count). When Redis
 * fails, the request is counted in this instance's memory instead: every request is
 * still answered and still limited, per instance, until Redis answers again.
 */
export function redisStoreWithLocalFallback(
  redis: SharedRedis,
  log: FastifyBaseLogger,
  onFallback: () => void,
): FastifyRateLimitStoreCtor {
  const warn = throttledWarning(log, 'Redis rate-limit counters unavailable; counting on this instance until Redis answers');
  // Our rules use neither continueExceeding nor exponentialBackoff.
  const shared = new RedisStore(false, false, redis.commands, `${redis.keyPrefix}rate-limit:`);

  return class RedisWithLocalFallbackStore implements FastifyRateLimitStore {
    readonly #local = new LocalCountStore();

    incr: FastifyRateLimitStore['incr'] = (key, callback, timeWindow, max) => {
      shared.incr(
        key,
        (error, result) => {
          if (!error) return callback(null, result);
          warn(error);
          onFallback();
          this.#local.incr(key, callback, timeWindow, max);
        },
        timeWindow,
        max,
      );
    };

    /** One per rule: Redis is shared anyway, and each rule's fallback counts keep an LRU of their own (LocalCountStore.child). */
    child(): FastifyRateLimitStore {
      return new RedisWithLocalFallbackStore();
    }
  };
}
