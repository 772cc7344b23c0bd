import type { FastifyPluginCallback } from 'fastify';

/**
 * @fastify/otel's plugin: a server span per request (`request`, with the route template,
 * method, path and status), continuing a caller's W3C `traceparent`, and active while the
 * request is handled, so what the request does is parented under it. One span per
 * request: the plugin's spans per hook and per handler are off. Registered before every
 * route (it instruments routes as they are added). Loaded only when tracing is on.
 */
export async function requestSpans(): Promise<FastifyPluginCallback> {
  const { FastifyOtelInstrumentation } = await import('@fastify/otel');
  return new FastifyOtelInstrumentation({ instrumentHooks: false, instrumentHandler: false }).plugin();
}
