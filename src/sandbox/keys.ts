import { LRUCache } from 'lru-cache';
import { newId } from '../lib/new-id.js';
import type { Db } from '../store/database.js';
import { HOUR_MS, later } from './clock.js';
import { DEFAULT_SCOPES, SCOPES, type Scope } from './scopes.js';
import { generateToken, hashToken } from './tokens.js';

export const KEY_LIFETIME_HOURS = 24;
export const KEY_LIFETIME_MS = KEY_LIFETIME_HOURS * HOUR_MS;

export interface IssuedKey {
  environment: 'sandbox';
  token_type: 'Bearer';
  access_token: string;
  expires_at: string;
  scopes: Scope[];
  available_scopes: Scope[];
}

export interface StoredKey {
  readonly id: string;
  readonly scopes: readonly Scope[];
  readonly expiresAt: Date;
}

/**
 * Creates a key that expires KEY_LIFETIME_HOURS after `now`. The scopes were validated by the caller's schema
 * (known, unique, at most 3); none named means all three (docs/decisions.md, Default scopes).
 */
export async function issueKey(db: Db, now: Date, requested: readonly Scope[] | undefined): Promise<IssuedKey> {
  const wanted = requested && requested.length > 0 ? requested : DEFAULT_SCOPES;
  const scopes = SCOPES.filter((scope) => wanted.includes(scope));
  const token = generateToken();
  const expiresAt = later(now, KEY_LIFETIME_MS).toISOString();
  await db
    .insertInto('sandbox_keys')
    .values({
      id: newId('sbk'),
      token_hash: hashToken(token),
      scopes: scopes.join(' '),
      created_at: now.toISOString(),
      expires_at: expiresAt,
    })
    .execute();
  return {
    environment: 'sandbox',
    token_type: 'Bearer',
    access_token: token,
    expires_at: expiresAt,
    scopes,
    available_scopes: [...SCOPES],
  };
}

/** Finds the stored key of a token, expired or not; the caller decides what expiry means. */
export type KeyLookup = (token: string, now: Date) => Promise<StoredKey | undefined>;

/** Live keys an instance remembers; one is a few hundred bytes. */
const REMEMBERED_KEYS = 10_000;
/**
 * A remembered key is trusted only until this long before its expiry: the purge on
 * another instance, whose clock may be ahead of this one's, can delete it from then on.
 */
const CLOCK_SKEW_ALLOWANCE_MS = 5 * 60_000;

/**
 * Looks keys up by the token's hash, in memory and then in the store: every cart call
 * authenticates, and the store query was nearly a third of a sandbox flow's statements.
 * Remembering is exact on every instance because a stored key never changes: it is
 * inserted whole and deleted only by the purge, after it expired. So a remembered key
 * is the row the store holds until shortly before its expiry; from then on the store is
 * asked, and the caller gets the store's answer (expired, or unknown once purged). An
 * unknown token is never remembered, so a key issued on another instance is found as
 * soon as it exists.
 */
export function keyLookup(db: Db): KeyLookup {
  const live = new LRUCache<string, StoredKey>({ max: REMEMBERED_KEYS });
  const trusted = (key: StoredKey, now: Date) => key.expiresAt.getTime() - now.getTime() > CLOCK_SKEW_ALLOWANCE_MS;
  return async (token, now) => {
    const tokenHash = hashToken(token);
    const remembered = live.get(tokenHash);
    if (remembered && trusted(remembered, now)) return remembered;
    const key = await findKeyByHash(db, tokenHash);
    if (key && trusted(key, now)) live.set(tokenHash, key);
    else live.delete(tokenHash);
    return key;
  };
}

async function findKeyByHash(db: Db, tokenHash: string): Promise<StoredKey | undefined> {
  const row = await db.selectFrom('sandbox_keys').select(['id', 'scopes', 'expires_at']).where('token_hash', '=', tokenHash).executeTakeFirst();
  if (!row) return undefined;
  return { id: row.id, scopes: row.scopes.split(' ') as Scope[], expiresAt: new Date(row.expires_at) };
}
