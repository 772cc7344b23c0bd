import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import fp from 'fastify-plugin';
import { addressMatcher } from '../lib/address-list.js';

/** A UUID (RFC 9562, any case), as a JSON Schema `pattern` too: JSON Schema patterns have no flags. */
export const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$';
const UUID = new RegExp(UUID_PATTERN);

export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);

/**
 * Fastify's `genReqId` for a deployment trusting `trustProxy` (config.ts, TRUST_PROXY):
 * keeps the `X-Request-Id` of a request that comes from a trusted proxy, when it is a UUID
 * (so one id follows a request across hops), and otherwise makes one. Any other client's id
 * is replaced: it would choose the id its requests are logged under, and could give many
 * requests the same one. Error bodies promise a UUID.
 */
export function requestIdGenerator(trustProxy: string[] | false): (req: IncomingMessage) => string {
  const isTrustedProxy = trustProxy ? addressMatcher(trustProxy) : () => false;
  return (req) => {
    const incoming = req.headers['x-request-id'];
    const fromProxy = isTrustedProxy(req.socket.remoteAddress ?? '');
    return fromProxy && isUuid(incoming) ? incoming.toLowerCase() : randomUUID();
  };
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
