/** The sandbox scopes (docs/decisions.md, Scope per route). */
export const SCOPES = ['catalog:read', 'cart:write', 'checkout:create'] as const;
export type Scope = (typeof SCOPES)[number];

/** docs/decisions.md, Default scopes: a key request naming no scope gets all three, so one empty POST can walk the whole flow. */
export const DEFAULT_SCOPES: readonly Scope[] = SCOPES;

/** docs/decisions.md, Keys: the shared public key can read the catalog and nothing else. */
export const PUBLIC_KEY_SCOPES: readonly Scope[] = ['catalog:read'];

/** docs/decisions.md, Scope per route: what each cart operation needs. */
export const CART_SCOPE: Scope = 'cart:write';
export const CHECKOUT_SCOPE: Scope = 'checkout:create';
