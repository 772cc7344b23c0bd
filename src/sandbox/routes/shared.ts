import type { FastifyReply, FastifyRequest, onRequestHookHandler, preValidationHookHandler } from 'fastify';
import { Type } from 'typebox';
import type { Config } from '../../config.js';
import type { SandboxPrincipal } from '../auth.js';
import { admitCartCall } from '../admission.js';
import { recordCall } from '../recorded-call.js';
import type { SandboxServices } from '../sandbox-plugin.js';
import type { Scope } from '../scopes.js';

/** What every route module gets from the plugin. */
export interface SandboxRouteKit {
  config: Config;
  services: SandboxServices;
  /**
   * The onRequest guard of a cart route: authenticate, count the call against the key's
   * limit, then (explicit routes, docs/decisions.md, Scope per route) answer a missing `scope` with 401. Without
   * `enforce` the scope is only named in a 401 and the service checks it (403).
   */
  guard(scope?: Scope, enforce?: boolean): onRequestHookHandler[];
}

export const CartParams = Type.Object({
  id: Type.String({
    description: "The cart id (`sandbox_cart_` + 24 lowercase hex). Unknown, malformed or another key's id: 404.",
  }),
});

const IdempotencyKey = Type.String({
  minLength: 1,
  maxLength: 255,
  description: 'Makes the request safe to retry: see the route description. Echoed on the response.',
});

// Lower-case: with a custom validator compiler Fastify validates header schemas as written,
// against Node's lower-cased header names (HTTP header names are case-insensitive).
export const requiredIdempotencyKey = Type.Object({ 'idempotency-key': IdempotencyKey });
export const optionalIdempotencyKey = Type.Object({ 'idempotency-key': Type.Optional(IdempotencyKey) });

export const IDEMPOTENCY_RULES =
  'Idempotency (scoped to the key, the method and the route with its parameters, however the path is spelled; for the shared public key also to the client IP): the first response is stored for 24 h and replayed byte for byte with `Idempotent-Replayed: true`; the same Idempotency-Key with a different body is 422 sandbox_idempotency_mismatch; concurrent duplicates have exactly one effect. 400 answers are not stored.';

/** For routes whose body is optional: no body is validated (and defaulted) as `{}`; a JSON `null` is still refused. */
export const optionalBody: preValidationHookHandler = async (request) => {
  if (request.body === undefined) request.body = {};
};

export function principalOf(request: FastifyRequest): SandboxPrincipal {
  // The route's guard ran in onRequest; a route without one never calls this.
  return request.sandboxPrincipal!;
}

export function buildGuard(services: SandboxServices): SandboxRouteKit['guard'] {
  return (scope, enforce = true) => [
    async (request, reply) => {
      await admitCartCall(services, request, reply, { scope, enforceScope: enforce });
    },
  ];
}

/**
 * The matched route with its parameters filled in, so every spelling of one URL
 * (percent-encoded letters, a trailing slash) is one idempotency scope.
 */
function routePath(request: FastifyRequest): string {
  const params = request.params as Record<string, string>;
  return request.routeOptions.url!.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
}

/**
 * Answers a POST through the idempotency store when the request carries an
 * Idempotency-Key, else directly; the error handler renders what is not recorded.
 */
export async function sendIdempotently(
  services: SandboxServices,
  request: FastifyRequest,
  reply: FastifyReply,
  successStatus: number,
  run: () => Promise<object>,
): Promise<FastifyReply> {
  const idempotencyKey = request.headers['idempotency-key'];
  if (typeof idempotencyKey !== 'string') return reply.code(successStatus).send(await run());

  const scope = { keyId: principalOf(request).keyId, idempotencyKey, method: request.method, path: routePath(request) };
  const outcome = await services.runIdempotently(scope, request.body, () => recordCall(successStatus, run));
  if (outcome.replayed) reply.header('idempotent-replayed', 'true');
  return reply.code(outcome.statusCode).headers(outcome.headers).type('application/json; charset=utf-8').send(outcome.body);
}
