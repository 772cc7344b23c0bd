import type { FastifyReply, FastifyRequest } from 'fastify';
import { requireScopeOr401, type SandboxPrincipal } from './auth.js';
import type { Scope } from './scopes.js';
import type { SandboxServices } from './services.js';

// How a cart call gets in, for the REST routes and the MCP tools alike (docs/decisions.md,
// Scope per route). `authorization` is the credentials as an Authorization header value:
// the request's own header unless the caller found the key elsewhere.

/**
 * A valid key, else 401 (naming `scope`, when the call has one, in the challenge); then
 * the call counts against the key's cart limit. What the key may do is left to the cart
 * service, which answers a missing scope with 403: checkout and the compatibility route.
 */
export async function admitKey(
  services: SandboxServices,
  request: FastifyRequest,
  reply: FastifyReply,
  scope?: Scope,
  authorization = request.headers.authorization,
): Promise<SandboxPrincipal> {
  const principal = await services.authenticate(authorization, request.ip, scope);
  request.sandboxPrincipal = principal;
  await services.rateLimits.carts(request, reply);
  return principal;
}

/** A valid key holding `scope`, else 401 naming it: the explicit cart routes and every MCP cart tool. */
export async function admitKeyWithScope(
  services: SandboxServices,
  request: FastifyRequest,
  reply: FastifyReply,
  scope: Scope,
  authorization = request.headers.authorization,
): Promise<SandboxPrincipal> {
  const principal = await admitKey(services, request, reply, scope, authorization);
  requireScopeOr401(principal, scope);
  return principal;
}
