import fastifyCors, { type FastifyCorsOptions } from '@fastify/cors';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A route's own CORS policy over the service-wide one (@fastify/cors merges them):
     * `false` answers no origin, `{ origin }` decides per request.
     */
    cors?: false | Pick<FastifyCorsOptions, 'origin' | 'allowedHeaders'>;
  }
}

/** Request headers a page may send beyond the CORS-safelisted ones. */
export const CORS_REQUEST_HEADERS = ['Authorization', 'Content-Type', 'Idempotency-Key', 'If-None-Match', 'Sandbox-Scenario', 'UCP-Agent', 'Request-Id'];

/** Response headers a page may read beyond the CORS-safelisted ones. */
const EXPOSED_HEADERS = [
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'Retry-After',
  'X-Request-Id',
  'Request-Id',
  'Idempotency-Key',
  'Idempotent-Replayed',
  'Deprecation',
  'Sunset',
  'Link',
  'ETag',
];

/** How long a browser may reuse a preflight answer (Chromium caps it at 2 hours). */
const PREFLIGHT_MAX_AGE_SECONDS = 7200;

/**
 * Pages on other origins may call the service: any origin by default, or the `origins`
 * listed. Callers authenticate with bearer keys, never cookies, so no credentials mode
 * is offered. The headers are set in `onRequest`, before anything can refuse the
 * request, so errors (a 429, a 404) are readable by the page too; a preflight is
 * answered there, before rate limits and authentication.
 */
export const corsPolicy = fp<{ origins: string[] | '*' }>(
  async (app, { origins }) => {
    await app.register(fastifyCors, {
      origin: origins,
      credentials: false,
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
      allowedHeaders: CORS_REQUEST_HEADERS,
      exposedHeaders: EXPOSED_HEADERS,
      maxAge: PREFLIGHT_MAX_AGE_SECONDS,
      // An OPTIONS request without Origin is answered like a preflight (204) rather
      // than with the plugin's plain-text 400.
      strictPreflight: false,
    });
  },
  { name: 'cors' },
);
