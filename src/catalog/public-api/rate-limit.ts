import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { limitInWords, type Config } from '../../config.js';
import type { RateLimitCheck } from '../../http/rate-limit.js';
import { addressMatcher } from '../../lib/address-list.js';

/** The settings of the catalog window. */
export type CatalogLimits = Pick<Config, 'catalogRateLimit' | 'trustedCatalogClients' | 'trustedCatalogRateLimit'>;

const WINDOW_MS = 60_000;

/**
 * docs/decisions.md, Rate limit: one window per client IP and minute, shared by the catalog
 * routes and every MCP request. Clients in CATALOG_TRUSTED_CLIENTS (storefront servers,
 * which send every shopper's requests from one address) count in a window of their own,
 * each address separately, against the trusted limit.
 */
export function defineCatalogRateLimit(app: FastifyInstance, limits: CatalogLimits): RateLimitCheck {
  const everyone = app.defineRateLimit({
    name: 'catalog',
    setting: 'CATALOG_RATE_LIMIT',
    max: limits.catalogRateLimit,
    windowMs: WINDOW_MS,
    subject: (request) => request.ip,
    code: 'RATE_LIMITED',
    message: `Rate limit exceeded: ${limits.catalogRateLimit} catalog requests per minute per client IP.`,
  });
  if (limits.trustedCatalogClients.length === 0) return everyone;
  const trusted = app.defineRateLimit({
    name: 'catalog-trusted',
    setting: 'CATALOG_TRUSTED_RATE_LIMIT',
    max: limits.trustedCatalogRateLimit,
    windowMs: WINDOW_MS,
    subject: (request) => request.ip,
    code: 'RATE_LIMITED',
    message: `Rate limit exceeded: ${limits.trustedCatalogRateLimit} catalog requests per minute for this trusted client.`,
  });
  const isTrusted = addressMatcher(limits.trustedCatalogClients);
  const windowOf = (request: FastifyRequest) => (isTrusted(request.ip) ? trusted : everyone);
  return Object.assign((request: FastifyRequest, reply: FastifyReply) => windowOf(request)(request, reply), {
    more: (request: FastifyRequest, reply: FastifyReply, count: number) => windowOf(request).more(request, reply, count),
  });
}

/** The limit as route descriptions and MCP server texts state it. */
export function catalogLimitInWords(limits: CatalogLimits): string {
  const limit = limitInWords(limits.catalogRateLimit, 'requests per client IP per minute');
  if (limits.trustedCatalogClients.length === 0) return limit;
  const trusted = limits.trustedCatalogRateLimit > 0 ? `${limits.trustedCatalogRateLimit} per minute` : 'no limit';
  return `${limit}; ${trusted} for each storefront server this deployment trusts`;
}
