import type { FastifyInstance } from 'fastify';
import type { SandboxConfig } from '../config.js';
import type { RateLimitCheck } from '../http/rate-limit.js';

export interface SandboxRateLimits {
  /** Key issuance, per client IP per hour. */
  keys: RateLimitCheck;
  /** Every cart route and tool together, per sandbox key per minute: run it after authentication. */
  carts: RateLimitCheck;
}

/** docs/decisions.md, Sandbox limits: named counters, so the REST routes and the MCP tools share one window. */
export function defineSandboxRateLimits(app: FastifyInstance, config: SandboxConfig): SandboxRateLimits {
  return {
    keys: app.defineRateLimit({
      name: 'sandbox-keys',
      max: config.keyRateLimit,
      windowMs: 60 * 60 * 1000,
      subject: (request) => request.ip,
      code: 'sandbox_rate_limited',
      message: `Rate limit exceeded: ${config.keyRateLimit} sandbox keys per hour per client IP.`,
    }),
    carts: app.defineRateLimit({
      name: 'sandbox-carts',
      max: config.cartRateLimit,
      windowMs: 60_000,
      subject: (request) => request.sandboxPrincipal!.keyId,
      code: 'sandbox_rate_limited',
      message: `Rate limit exceeded: ${config.cartRateLimit} cart calls per minute per sandbox key.`,
    }),
  };
}
