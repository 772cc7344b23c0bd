import type { Clock } from './clock.js';
import { insufficientScope, invalidKey, missingKey } from './errors.js';
import type { KeyLookup } from './keys.js';
import { PUBLIC_KEY_SCOPES, type Scope } from './scopes.js';
import { TOKEN_PREFIX, TOKEN_SHAPE, sameSecret } from './tokens.js';

/** Who is calling: the key a request authenticated with. */
export interface SandboxPrincipal {
  /**
   * Owns the caller's carts, idempotency records and cart-call window: the key's id. The
   * shared public key is used by unrelated clients, so its id is per client IP, and one
   * user of it never replays another's answer or uses up another's window.
   */
  keyId: string;
  scopes: readonly Scope[];
  /** null for the shared public key, which never expires. */
  expiresAt: Date | null;
}

/** The shared public key is configured, not stored, so it has an id of its own per client. */
function publicKeyId(clientIp: string): string {
  return `public:${clientIp}`;
}

const BEARER = /^Bearer +(\S+) *$/i;

/**
 * Turns an `Authorization` header into a principal, or throws 401 `sandbox_unauthorized`.
 * `scope`, when given, is named in the 401 so the client learns what the route needs.
 */
export async function authenticate(
  deps: { findKey: KeyLookup; clock: Clock; publicKey: string },
  authorization: string | undefined,
  clientIp: string,
  scope?: Scope,
): Promise<SandboxPrincipal> {
  if (authorization === undefined || authorization.trim() === '') throw missingKey(scope);
  const token = BEARER.exec(authorization)?.[1];
  if (token === undefined || !TOKEN_SHAPE.test(token)) {
    throw invalidKey(`The Authorization header must be "Bearer ${TOKEN_PREFIX}...".`, scope);
  }
  if (sameSecret(token, deps.publicKey)) return { keyId: publicKeyId(clientIp), scopes: PUBLIC_KEY_SCOPES, expiresAt: null };

  const now = deps.clock();
  const key = await deps.findKey(token, now);
  if (!key) throw invalidKey('Unknown sandbox key.', scope);
  if (key.expiresAt <= now) {
    throw invalidKey(`The sandbox key expired at ${key.expiresAt.toISOString()}; create a new one.`, scope);
  }
  return { keyId: key.id, scopes: key.scopes, expiresAt: key.expiresAt };
}

/** docs/decisions.md, Scope per route: the cart service's own check, 403 for a key without `scope`. */
export function requireScopeOr403(principal: SandboxPrincipal, scope: Scope): void {
  if (!principal.scopes.includes(scope)) throw insufficientScope(scope, 403);
}

/** docs/decisions.md, Scope per route: the explicit routes' check before the service, 401 for a key without `scope`. */
export function requireScopeOr401(principal: SandboxPrincipal, scope: Scope): void {
  if (!principal.scopes.includes(scope)) throw insufficientScope(scope, 401);
}
