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
  id: string;
  scopes: Scope[];
  expiresAt: Date;
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

/** The stored key a token belongs to, expired or not; the caller decides what expiry means. */
export async function findKeyByToken(db: Db, token: string): Promise<StoredKey | undefined> {
  const row = await db
    .selectFrom('sandbox_keys')
    .select(['id', 'scopes', 'expires_at'])
    .where('token_hash', '=', hashToken(token))
    .executeTakeFirst();
  if (!row) return undefined;
  return { id: row.id, scopes: row.scopes.split(' ') as Scope[], expiresAt: new Date(row.expires_at) };
}
