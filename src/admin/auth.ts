import { createHash, timingSafeEqual } from 'node:crypto';
import type { AdminToken } from '../config.js';
import { unauthorized } from './errors.js';

const BEARER = /^Bearer +(\S+) *$/i;

/**
 * The name of the admin token in `authorization`, or a 401. The token's digest is compared
 * with every configured digest, in constant time and without stopping at a match, so
 * the time taken tells nothing about which token matched or how much of one.
 */
export function authenticateAdmin(tokens: readonly AdminToken[], authorization: string | undefined): string {
  if (authorization === undefined || authorization.trim() === '') throw unauthorized('This route needs an admin token.', false);
  const token = BEARER.exec(authorization)?.[1];
  if (token === undefined) throw unauthorized('The Authorization header must be "Bearer <token>".', true);
  const digest = createHash('sha256').update(token).digest();
  let actor: string | undefined;
  for (const candidate of tokens) {
    if (timingSafeEqual(digest, candidate.sha256)) actor ??= candidate.name;
  }
  if (actor === undefined) throw unauthorized('Unknown admin token.', true);
  return actor;
}
