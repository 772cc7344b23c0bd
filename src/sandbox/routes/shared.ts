import type { FastifyReply, FastifyRequest, onRequestHookHandler, preValidationHookHandler } from 'fastify';
import { Type } from 'typebox';
import type { Config, SandboxConfig } from '../../config.js';
import { admitKey, admitKeyWithScope } from '../admission.js';
import type { SandboxPrincipal } from '../auth.js';
import type { SandboxCartService } from '../cart-service.js';
import { sandboxIdempotencyWording } from '../errors.js';
import { cartLimitNote, idempotencyMismatchMessage, idempotencyRules, type IdempotencyTerms, type SandboxOperation } from '../operations.js';
import { scenarioParameter, SCENARIOS, type Scenario } from '../scenarios.js';
import { idempotencyKey } from '../schemas.js';
import type { Scope } from '../scopes.js';
import type { SandboxServices } from '../services.js';

/** What every route group gets from the plugin. */
export interface SandboxRouteKit {
  config: Config;
  services: SandboxServices;
}

export const CartParams = Type.Object({
  id: Type.String({
    description: "The cart id (`sandbox_cart_` + 24 lowercase hex). Unknown, malformed or another key's id: 404.",
  }),
});

const IdempotencyKey = idempotencyKey('Makes the request safe to retry: see the route description. Echoed on the response.');

const CartScenario = scenarioParameter(SCENARIOS);

// Lower-case: with a custom validator compiler Fastify validates header schemas as written,
// against Node's lower-cased header names (HTTP header names are case-insensitive).
/** The request headers of every cart route: Sandbox-Scenario (docs/decisions.md, Scenarios), and Idempotency-Key where honoured. */
export const cartHeaders = Type.Object({ 'sandbox-scenario': CartScenario });
export const cartHeadersRequiringIdempotencyKey = Type.Object({ 'idempotency-key': IdempotencyKey, 'sandbox-scenario': CartScenario });
export const cartHeadersWithIdempotencyKey = Type.Object({ 'idempotency-key': Type.Optional(IdempotencyKey), 'sandbox-scenario': CartScenario });

/** The scenario a request asked for; its route's header schema has checked the value. */
export function scenarioOf(request: FastifyRequest): Scenario | undefined {
  return request.headers['sandbox-scenario'] as Scenario | undefined;
}

/** The cart operations as the request's scenario shapes them. */
export function cartsFor(services: SandboxServices, request: FastifyRequest): SandboxCartService {
  return services.carts.withScenario(scenarioOf(request));
}

/** The idempotency rules in REST's terms: a header, the request body. */
const REST_IDEMPOTENCY: IdempotencyTerms = { key: 'Idempotency-Key', input: 'body', otherInput: 'a different request body' };

/** The rules as REST clients meet them: the route's path however spelled, a byte-for-byte replay marked as one. */
export const IDEMPOTENCY_RULES = `${idempotencyRules(REST_IDEMPOTENCY)} On REST the operation and its targets are the route with its parameters, however the path is spelled; a replay is the first response byte for byte, with \`Idempotent-Replayed: true\`.`;

const IDEMPOTENCY_WORDING = sandboxIdempotencyWording(idempotencyMismatchMessage(REST_IDEMPOTENCY));

const HEADERS_BY_IDEMPOTENCY = { required: cartHeadersRequiringIdempotencyKey, optional: cartHeadersWithIdempotencyKey } as const;

/**
 * The parts of a route's schema that follow from its operation: names, scope, the
 * idempotency header and the operation's own description, told in REST's terms.
 */
export function operationSchema(op: SandboxOperation, config: SandboxConfig) {
  const access = op.scope === undefined ? '' : op.scopeRefusal === 403 ? `Needs ${op.scope}: without a key 401, with a key lacking the scope 403. ` : `Needs ${op.scope} (else 401). `;
  const idempotency =
    op.idempotency === undefined ? '' : ` Idempotency-Key is ${op.idempotency}. ${IDEMPOTENCY_RULES}`;
  const limit = op.scope === undefined ? '' : ` ${cartLimitNote(config)}`;
  return {
    operationId: op.operationId,
    tags: ['sandbox'],
    summary: op.title,
    description: `${access}${op.describe(config)}${idempotency}${limit}`,
    security: op.scope === undefined ? [] : [{ sandboxBearer: [op.scope] }],
    headers: op.idempotency === undefined ? cartHeaders : HEADERS_BY_IDEMPOTENCY[op.idempotency],
  };
}

/** For routes whose body is optional: no body is validated (and defaulted) as `{}`; a JSON `null` is still refused. */
export const optionalBody: preValidationHookHandler = async (request) => {
  if (request.body === undefined) request.body = {};
};

/** docs/decisions.md, Scope per route: the explicit cart routes want a key holding `scope`, else 401 naming it. */
export function requireKeyWithScope(services: SandboxServices, scope: Scope): onRequestHookHandler {
  return async (request, reply) => {
    await admitKeyWithScope(services, request, reply, scope);
  };
}

/**
 * docs/decisions.md, Scope per route: checkout and the compatibility route want a valid key, else 401
 * (naming `scope` when the route has one); the cart service answers a missing scope with 403.
 */
export function requireKey(services: SandboxServices, scope?: Scope): onRequestHookHandler {
  return async (request, reply) => {
    await admitKey(services, request, reply, scope);
  };
}

export function principalOf(request: FastifyRequest): SandboxPrincipal {
  // The route's requireKey hook ran in onRequest; a route without one never calls this.
  return request.sandboxPrincipal!;
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
  /** What the stored request is compared by: the body, unless the route says otherwise. */
  input: unknown = request.body,
): Promise<FastifyReply> {
  const key = request.headers['idempotency-key'];
  if (typeof key !== 'string') return reply.code(successStatus).send(await run());

  const outcome = await services.runIdempotently({
    scope: { keyId: principalOf(request).keyId, idempotencyKey: key, method: request.method, path: routePath(request) },
    input,
    wording: IDEMPOTENCY_WORDING,
    successStatus,
    run,
  });
  if (outcome.replayed) reply.header('idempotent-replayed', 'true');
  return reply.code(outcome.statusCode).headers(outcome.headers).type('application/json; charset=utf-8').send(outcome.json);
}
