import fp from 'fastify-plugin';
import { ServiceMetrics } from './service-metrics.js';

declare module 'fastify' {
  interface FastifyInstance {
    metrics: ServiceMetrics;
  }
}

/** Requests that matched no route share one label, so probing random paths cannot grow the series. */
const UNMATCHED_ROUTE = 'unmatched';

/** Creates the app's metrics and records every answered request by route template and status. */
export const metricsPlugin = fp(
  async (app) => {
    const metrics = new ServiceMetrics();
    app.decorate('metrics', metrics);
    // Callback style, as every request passes here: an async hook costs a promise and a microtask.
    app.addHook('onResponse', (request, reply, done) => {
      const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
      metrics.httpRequests.inc({ method: request.method, route, status: reply.statusCode });
      metrics.httpDuration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
      done();
    });
  },
  { name: 'metrics' },
);
