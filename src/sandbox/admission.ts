import type { FastifyReply, FastifyRequest } from 'fastify';
import { requireScope, type SandboxPrincipal } from './auth.js';
import type { SandboxServices } from './sandbox-plugin.js';
import type { Scope } from './scopes.js';

export interface AdmissionOptions {
  /** The scope the call needs, named in a 401. */
  scope?: Scope;
  /** Refuse a key without `scope` with 401 here; false leaves the service to answer 403. */
  enforceScope?: boolean;
  /** The credentials, as an Authorization header value; the request's own header by default. */
  authorization?: string | undefined;
}

/**
 * Lets a cart call in, for the REST routes and the MCP tools alike: authenticate the
 * bearer key (naming `scope` in a 401), count the call against the key's cart limit,
 * then (unless the service is left to answer 403) refuse a key without `scope` with 401.
 */
export async function admitCartCall(
  services: SandboxServices,
  request: FastifyRequest,
  reply: FastifyReply,
  { scope, enforceScope = true, authorization = request.headers.authorization }: AdmissionOptions = {},
): Promise<SandboxPrincipal> {
  const principal = await services.authenticate(authorization, request.ip, scope);
  request.sandboxPrincipal = principal;
  await services.rateLimits.carts(request, reply);
  if (scope && enforceScope) requireScope(principal, scope, 401);
  return principal;
}
