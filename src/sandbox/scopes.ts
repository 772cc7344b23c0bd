/** The sandbox scopes (contract section 5). */
export const SCOPES = ['catalog:read', 'cart:write', 'checkout:create'] as const;
export type Scope = (typeof SCOPES)[number];

/** Decision 12: a key request naming no scope gets all three, so one empty POST can walk the whole flow. */
export const DEFAULT_SCOPES: readonly Scope[] = SCOPES;

/** Decision 11: the shared public key can read the catalog and nothing else. */
export const PUBLIC_KEY_SCOPES: readonly Scope[] = ['catalog:read'];

/** Decision 13: what each cart operation needs. */
export const CART_SCOPE: Scope = 'cart:write';
export const CHECKOUT_SCOPE: Scope = 'checkout:create';
