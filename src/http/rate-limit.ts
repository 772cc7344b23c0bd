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
  /** The setting of this limit, which a 429's hint names: 0 lifts it on a deployment of one's own (local development). */
  setting: string;
}

/** Counts a request against a rule: sets the RateLimit headers, and throws a 429 past the limit. */
export interface RateLimitCheck {
  (request: FastifyRequest, reply: FastifyReply): Promise<void>;
  /**
   * Counts `count` more requests at once (the other messages of a JSON-RPC batch): the
   * headers then tell the window after all of them, and the 429 is thrown when they do
   * not all fit, so that none of them is served.
   */
  more(request: FastifyRequest, reply: FastifyReply, count: number): Promise<void>;
}

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
      if (rule.max <= 0) return Object.assign(async () => {}, { more: async () => {} });
      const limiter = app.createRateLimit({
        max: rule.max,
        timeWindow: rule.windowMs,
        keyGenerator: (request) => `${rule.name}:${rule.subject(request)}`,
      });
      const count = async (request: FastifyRequest, reply: FastifyReply, times: number) => {
        const results = await Promise.all(Array.from({ length: times }, () => limiter(request)));
        // A count past the limit refuses them all; else the last count tells what is left.
        const result =
          results.find((next) => !next.isAllowed && next.isExceeded) ??
          results.reduce((last, next) => (!next.isAllowed && !last.isAllowed && next.remaining < last.remaining ? next : last));
        if (result.isAllowed) return;
        const reset = Math.max(1, result.ttlInSeconds);
        reply.header('ratelimit-limit', result.max);
        reply.header('ratelimit-remaining', result.remaining);
        reply.header('ratelimit-reset', reset);
        if (result.isExceeded) {
          onRejection(rule.name);
          throw new HttpProblem(429, rule.code, rule.message, {
            hint: `Wait ${reset} seconds before retrying. On a deployment of your own (local development), ${rule.setting}=0 lifts this limit.`,
            retryAfter: reset,
          });
        }
      };
      return Object.assign((request: FastifyRequest, reply: FastifyReply) => count(request, reply, 1), {
        more: (request: FastifyRequest, reply: FastifyReply, times: number) => (times > 0 ? count(request, reply, times) : Promise.resolve()),
      });
    });
  },
  { name: 'rate-limits', dependencies: ['redis'] },
);
