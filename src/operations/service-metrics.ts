import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Catalog reads take well under a millisecond in memory; sandbox writes a few milliseconds. */
const LATENCY_BUCKETS_SECONDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The counters other modules update. A registry per app, not prom-client's global one,
 * so apps in one process (the tests) never share or clash over metrics.
 */
export class ServiceMetrics {
  readonly registry = new Registry();

  readonly httpRequests = new Counter({
    name: 'vetrina_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });

  readonly httpDuration = new Histogram({
    name: 'vetrina_http_request_duration_seconds',
    help: 'Time from receiving a request to sending the response, by method and route template.',
    labelNames: ['method', 'route'] as const,
    buckets: LATENCY_BUCKETS_SECONDS,
    registers: [this.registry],
  });

  readonly rateLimitRejections = new Counter({
    name: 'vetrina_rate_limit_rejections_total',
    help: 'Requests answered 429, by rate limit (catalog, sandbox-keys, sandbox-carts).',
    labelNames: ['limit'] as const,
    registers: [this.registry],
  });

  readonly rateLimitFallbacks = new Counter({
    name: 'vetrina_rate_limit_redis_fallbacks_total',
    help: 'Requests counted by this instance alone because the shared Redis counter failed.',
    registers: [this.registry],
  });

  readonly webhookAttempts = new Counter({
    name: 'vetrina_webhook_attempts_total',
    help: 'Webhook delivery attempts by this instance, by outcome (delivered: a 2xx answer; failed: anything else).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }
}
