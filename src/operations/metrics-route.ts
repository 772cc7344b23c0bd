import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import type { Registry } from 'prom-client';
import { malformedRequestResponse, rateLimitedResponse } from '../catalog/public-api/routes/shared.js';
import { UNTRACED } from './health-routes.js';

const sha256 = (value: string) => createHash('sha256').update(value).digest();

/**
 * Compares digests rather than the strings: equal lengths for timingSafeEqual, and the
 * time taken says nothing about how much of the token a guess got right.
 */
function requireBearer(token: string): onRequestHookHandler {
  const expected = sha256(token);
  return async (request, reply) => {
    const presented = /^Bearer +(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
    if (presented !== undefined && timingSafeEqual(sha256(presented), expected)) return;
    return reply
      .code(401)
      .header('www-authenticate', 'Bearer realm="vetrina-metrics"')
      .type('text/plain; charset=utf-8')
      .send('Unauthorized: send Authorization: Bearer <METRICS_TOKEN>\n');
  };
}

const text = (description: string) => ({ description, content: { 'text/plain': { schema: { type: 'string' } } } });

/**
 * Prometheus scrape endpoint; token-protected when METRICS_TOKEN is set. A scrape costs
 * milliseconds of CPU, so it counts against the catalog window of the client IP (a
 * scraper every 15 s uses 4 requests a minute), checked before the token so guesses count too.
 */
export function metricsRoute(app: FastifyInstance, registry: Registry, token: string | undefined, limitInWords: string): void {
  app.get(
    '/metrics',
    {
      // Scraped every few seconds, like the probes.
      config: UNTRACED,
      schema: {
        operationId: 'getMetrics',
        tags: ['operations'],
        summary: 'Metrics in the Prometheus text format',
        description:
          `Per instance: vetrina_http_requests_total (method, route, status), vetrina_http_request_duration_seconds (method, route), vetrina_catalog_products, vetrina_catalog_version, vetrina_rate_limit_rejections_total (limit), vetrina_rate_limit_redis_fallbacks_total, vetrina_sandbox_objects (kind: keys, carts; counted from the store at scrape time), vetrina_webhook_attempts_total (outcome: delivered, failed), vetrina_webhook_outbox_depth, vetrina_webhook_outbox_lag_seconds and vetrina_webhook_pending_deliveries (read from the store at scrape time), and the Node.js process metrics. When the server sets METRICS_TOKEN it requires \`Authorization: Bearer <METRICS_TOKEN>\`. Counts against the catalog rate limit of the client IP (${limitInWords}).`,
        security: token ? [{ metricsBearer: [] }] : [],
        response: {
          200: text('Prometheus text exposition format 0.0.4'),
          ...(token && { 401: text('Missing or wrong bearer token') }),
          429: rateLimitedResponse(limitInWords),
          '4xx': malformedRequestResponse,
        },
      },
      onRequest: token ? [app.catalogRateLimit, requireBearer(token)] : app.catalogRateLimit,
    },
    // Each scrape is of this instance at this moment: no cache may keep one.
    async (_request, reply) => reply.type(registry.contentType).header('cache-control', 'no-store').send(await registry.metrics()),
  );
}
