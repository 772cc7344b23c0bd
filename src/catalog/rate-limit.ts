import type { FastifyInstance } from 'fastify';
import { limitInWords } from '../config.js';
import type { RateLimitCheck } from '../http/rate-limit.js';

/**
 * docs/decisions.md, Rate limit: one window per client IP and minute, shared by the catalog
 * routes and every MCP request.
 */
export function defineCatalogRateLimit(app: FastifyInstance, max: number): RateLimitCheck {
  return app.defineRateLimit({
    name: 'catalog',
    max,
    windowMs: 60_000,
    subject: (request) => request.ip,
    code: 'RATE_LIMITED',
    message: `Rate limit exceeded: ${max} catalog requests per minute per client IP.`,
  });
}

/** The limit as route descriptions and MCP server texts state it. */
export const catalogLimitInWords = (max: number): string => limitInWords(max, 'requests per client IP per minute');
