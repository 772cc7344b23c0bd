import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import fp from 'fastify-plugin';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/**
 * Keeps a load balancer's `X-Request-Id` when it is a UUID (so one id follows a request
 * across hops) and otherwise makes one: error bodies promise a UUID.
 */
export function requestIdFor(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && UUID.test(incoming) ? incoming.toLowerCase() : randomUUID();
}

export const requestIdHeader = fp(
  async (app) => {
    // Callback style: an async hook costs every request a promise and a microtask.
    app.addHook('onRequest', (request, reply, done) => {
      reply.header('x-request-id', request.id);
      done();
    });
  },
  { name: 'request-id' },
);
