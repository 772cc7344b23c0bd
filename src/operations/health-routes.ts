import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { malformedRequestResponse } from '../catalog/public-api/routes/shared.js';
import type { ReadinessReport } from './readiness.js';

const CheckState = Type.String({ enum: ['ok', 'failed'] });

const Health = Type.Object({ status: Type.String({ enum: ['ok'] }) });

const Readiness = Type.Object({
  status: Type.String({ enum: ['ready', 'not_ready'] }),
  failed: Type.Array(Type.String(), { description: 'The checks that failed (store, read_model, redis, webhooks); empty when ready.' }),
  checks: Type.Object(
    {
      store: CheckState,
      read_model: CheckState,
      redis: Type.Optional(CheckState),
      webhooks: CheckState,
    },
    { description: '`redis` is checked only when REDIS_URL is set.' },
  ),
});

const json = (description: string, schema: object) => ({ description, content: { 'application/json': { schema } } });

/** Probes answer every time, and are never cached by anything in between. */
const NO_STORE = { 'cache-control': 'no-store' };

/** A probe every few seconds per instance would bury the traces of real requests (@fastify/otel's per-route switch). */
export const UNTRACED = { otel: false };

/** Liveness and readiness for orchestrators and load balancers; no rate limit applies to either. */
export function healthRoutes(app: FastifyInstance, checkReadiness: () => Promise<ReadinessReport>, outboxStuckMs: number): void {
  app.get(
    '/healthz',
    {
      config: UNTRACED,
      schema: {
        operationId: 'getLiveness',
        tags: ['operations'],
        summary: 'Liveness: the process answers HTTP',
        security: [],
        description:
          'Always 200 while the process serves requests, whatever the state of its dependencies: restart the instance only when this fails. While shutting down, requests on open connections get 503.',
        response: { 200: json('The process is alive', Health), '4xx': malformedRequestResponse },
      },
    },
    async (_request, reply) => reply.headers(NO_STORE).send({ status: 'ok' }),
  );

  app.get(
    '/readyz',
    {
      config: UNTRACED,
      schema: {
        operationId: 'getReadiness',
        tags: ['operations'],
        summary: 'Readiness: the instance can serve every route',
        security: [],
        description:
          `Checks, each within 2 s: the store answers a query, the catalog read model is loaded and its search index built (in the seconds after start; searches sent before then wait for it) and has not outgrown the heap (catalog changes that would grow it past what this instance's heap holds stop it applying changes: vetrina_catalog_outgrown_heap), Redis answers a PING when REDIS_URL is set, and the webhook outbox moves: no catalog change has waited more than ${outboxStuckMs} ms (WEBHOOK_OUTBOX_STUCK_MS) to become webhook deliveries (a receiver that fails does not count: its deliveries wait for their retries). 503 names the failed checks; take the instance out of rotation until it answers 200 again (it recovers by itself, except from an outgrown heap: restart it with a larger one). Catalog reads keep working while the store or Redis is down.`,
        response: {
          200: json('Ready', Readiness),
          '4xx': malformedRequestResponse,
          503: json('Not ready: `failed` names what failed', Readiness),
        },
      },
    },
    async (_request, reply) => {
      const report = await checkReadiness();
      return reply
        .code(report.ready ? 200 : 503)
        .headers(NO_STORE)
        .send({ status: report.ready ? 'ready' : 'not_ready', failed: report.failed, checks: report.checks });
    },
  );
}
