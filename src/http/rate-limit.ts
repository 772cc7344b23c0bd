import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { HttpProblem } from './problem.js';
import { LocalCountStore, redisStoreWithLocalFallback } from './rate-limit-store.js';

export interface RateLimitRule {
  /** Names the counter; rules with different names never share a window. */
  name: string;
  max: number;
  windowMs: number;
  /** Who is counted: a client IP, a sandbox key... */
  subject: (request: FastifyRequest) => string;
  /** The error code of a 429 on this surface. */
  code: string;
  message: string;
}

/** Counts a request against a rule: sets the RateLimit headers, and throws a 429 past the limit. */
export type RateLimitCheck = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

declare module 'fastify' {
  interface FastifyInstance {
    defineRateLimit(rule: RateLimitRule): RateLimitCheck;
  }
}

/** What the rate limits report, for whoever counts it (app.ts passes the service metrics). */
export interface RateLimitEvents {
  /** A request was counted in this instance's memory because Redis failed. */
  onStoreFallback(): void;
  /** A request was refused by the rule named `limit`. */
  onRejection(limit: string): void;
}

/**
 * Rate limits as named counters rather than per-route ones, so that several routes
 * (and the MCP tools mirroring them) share one window per client. Counting and storage
 * are @fastify/rate-limit's; this adds the IETF draft headers (RateLimit-Reset in
 * delta-seconds, equal to Retry-After on a 429) and the surface's error envelope.
 * With Redis the counters are shared by all instances (docs/decisions.md, Rate limit).
 */
export const rateLimits = fp<RateLimitEvents>(
  async (app: FastifyInstance, { onStoreFallback, onRejection }) => {
    const { redis } = app;
    await app.register(fastifyRateLimit, {
      global: false,
      skipOnError: true,
      store: redis ? redisStoreWithLocalFallback(redis, app.log, onStoreFallback) : LocalCountStore,
    });

    app.decorate('defineRateLimit', (rule: RateLimitRule): RateLimitCheck => {
      if (rule.max <= 0) return async () => {};
      const limiter = app.createRateLimit({
        max: rule.max,
        timeWindow: rule.windowMs,
        keyGenerator: (request) => `${rule.name}:${rule.subject(request)}`,
      });
      return async (request, reply) => {
        const result = await limiter(request);
        if (result.isAllowed) return;
        const reset = Math.max(1, result.ttlInSeconds);
        reply.header('ratelimit-limit', result.max);
        reply.header('ratelimit-remaining', result.remaining);
        reply.header('ratelimit-reset', reset);
        if (result.isExceeded) {
          onRejection(rule.name);
          throw new HttpProblem(429, rule.code, rule.message, {
            hint: `Wait ${reset} seconds before retrying.`,
            retryAfter: reset,
          });
        }
      };
    });
  },
  { name: 'rate-limits', dependencies: ['redis'] },
);
