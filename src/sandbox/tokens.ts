import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const TOKEN_PREFIX = 'sbx_test_';
/** 43 base62 characters carry about 256 bits. */
export const TOKEN_RANDOM_LENGTH = 43;
const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** Bytes at or above this would make `byte % 62` favour the first characters. */
const UNBIASED_LIMIT = 256 - (256 % BASE62.length);

const TOKEN_BODY_MAX_LENGTH = 200;
/** What a token may look like at all; anything else is rejected before any lookup. */
export const TOKEN_SHAPE = new RegExp(`^${TOKEN_PREFIX}[A-Za-z0-9_]{8,${TOKEN_BODY_MAX_LENGTH}}$`);
/** TOKEN_SHAPE in words, for the configuration's check of the shared public key. */
export const TOKEN_SHAPE_RULE = `start with "${TOKEN_PREFIX}" followed by 8 to ${TOKEN_BODY_MAX_LENGTH} letters, digits or underscores`;

/** docs/decisions.md, Keys: `sbx_test_` followed by random base62 characters from the CSPRNG. */
export function generateToken(): string {
  let random = '';
  while (random.length < TOKEN_RANDOM_LENGTH) {
    for (const byte of randomBytes(64)) {
      if (byte < UNBIASED_LIMIT && random.length < TOKEN_RANDOM_LENGTH) random += BASE62[byte % BASE62.length];
    }
  }
  return TOKEN_PREFIX + random;
}

/** Only this hash is stored, so a leaked database does not leak usable keys. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Compares two secrets in time independent of where they differ (and of their lengths). */
export function sameSecret(a: string, b: string): boolean {
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}
