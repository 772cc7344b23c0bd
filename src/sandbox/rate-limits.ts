import type { FastifyInstance } from 'fastify';
import { limitInWords, type SandboxConfig } from '../config.js';
import type { RateLimitCheck } from '../http/rate-limit.js';
import { HOUR_MS } from './clock.js';

export interface SandboxRateLimits {
  /** Key issuance, per client IP per hour. */
  keys: RateLimitCheck;
  /** Every cart route and tool together, per sandbox key per minute: run it after authentication. */
  carts: RateLimitCheck;
}

export const KEY_WINDOW_MS = HOUR_MS;
const CART_WINDOW_MS = 60_000;

/** docs/decisions.md, Sandbox limits: named counters, so the REST routes and the MCP tools share one window. */
export function defineSandboxRateLimits(app: FastifyInstance, config: SandboxConfig): SandboxRateLimits {
  return {
    keys: app.defineRateLimit({
      name: 'sandbox-keys',
      setting: 'SANDBOX_KEY_RATE_LIMIT',
      max: config.keyRateLimit,
      windowMs: KEY_WINDOW_MS,
      subject: (request) => request.ip,
      code: 'sandbox_rate_limited',
      message: `Rate limit exceeded: ${config.keyRateLimit} sandbox keys per hour per client IP.`,
    }),
    carts: app.defineRateLimit({
      name: 'sandbox-carts',
      setting: 'SANDBOX_CART_RATE_LIMIT',
      max: config.cartRateLimit,
      windowMs: CART_WINDOW_MS,
      subject: (request) => request.sandboxPrincipal!.keyId,
      code: 'sandbox_rate_limited',
      message: `Rate limit exceeded: ${config.cartRateLimit} cart calls per minute per sandbox key.`,
    }),
  };
}

/** The key issuance limit as the route and tool descriptions state it: "20 keys per client IP per hour". */
export function keyLimitText({ keyRateLimit }: SandboxConfig): string {
  return limitInWords(keyRateLimit, 'keys per client IP per hour');
}

/** The cart call limit as the route and tool descriptions state it: "300 cart calls per key per minute". */
export function cartLimitText({ cartRateLimit }: SandboxConfig): string {
  return limitInWords(cartRateLimit, 'cart calls per key per minute');
}
