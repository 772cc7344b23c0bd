import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { CatalogReadError } from '../read-model/read-errors.js';
import type { CursorPosition } from '../read-model/query.js';

interface CursorPayload {
  v: 1;
  /** Fingerprint of the query, filters, sort and market the cursor belongs to. */
  f: string;
  /** The sort key; null for `Infinity`, which JSON cannot write. */
  t: number | string | null;
  c: string;
  i: string;
}

export const MAX_CURSOR_LENGTH = 512;

/** Bytes of the HMAC-SHA256 kept in a cursor: 128 bits, far beyond guessing. */
const MAC_BYTES = 16;
const SEPARATOR = '.';

/**
 * Cursors are keyset positions, not offsets: the next page starts after the last
 * product seen, so products added or repriced meanwhile never shift a walk. Each carries
 * a MAC under the deployment's secret, so a client cannot forge a position or edit one:
 * an edited cursor is refused like any other cursor this API did not issue, on every
 * instance, since they share the secret.
 */
export class CursorCodec {
  constructor(private readonly secret: Buffer) {}

  encode(position: CursorPosition, scope: string): string {
    const key = position.key === Infinity ? null : position.key;
    const payload: CursorPayload = { v: 1, f: fingerprint(scope), t: key, c: position.createdAt, i: position.id };
    const text = Buffer.from(JSON.stringify(payload)).toString('base64url');
    // A timestamp and a generated product id: about 150 characters; a title key (TITLE_SORT_KEY_LENGTH
    // letters, digits and spaces, at most 3 bytes each as UTF-8) adds at most 256: within MAX_CURSOR_LENGTH.
    return `${text}${SEPARATOR}${this.mac(text).toString('base64url')}`;
  }

  decode(cursor: string, scope: string): CursorPosition {
    const separator = cursor.lastIndexOf(SEPARATOR);
    const text = cursor.slice(0, separator);
    // The signature is compared as the text encode() writes: Node's base64 decoder skips
    // padding, spaces and stray characters, so decoded bytes would let one cursor be spelled
    // many ways, each a separate cache key here and on a CDN. (The payload text is signed as sent.)
    const signature = Buffer.from(cursor.slice(separator + 1));
    const expected = Buffer.from(this.mac(text).toString('base64url'));
    if (separator < 0 || signature.length !== expected.length || !timingSafeEqual(signature, expected)) throw notIssued();
    let payload: Partial<CursorPayload>;
    try {
      payload = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Partial<CursorPayload>;
    } catch {
      throw notIssued();
    }
    if (
      payload?.v !== 1 ||
      typeof payload.f !== 'string' ||
      !(payload.t === null || Number.isInteger(payload.t) || typeof payload.t === 'string') ||
      typeof payload.c !== 'string' ||
      typeof payload.i !== 'string'
    ) {
      throw notIssued();
    }
    if (payload.f !== fingerprint(scope)) {
      throw new CatalogReadError('The cursor was issued for another query or market, or other filters or sort.', { kind: 'invalid_cursor', reason: 'other_list' });
    }
    return { key: payload.t ?? Infinity, createdAt: payload.c, id: payload.i };
  }

  private mac(text: string): Buffer {
    return createHmac('sha256', this.secret).update(text).digest().subarray(0, MAC_BYTES);
  }
}

function fingerprint(scope: string): string {
  return createHash('sha256').update(scope).digest('base64url').slice(0, 12);
}

function notIssued(): CatalogReadError {
  return new CatalogReadError('The cursor is not one this API issued, or it was changed.', { kind: 'invalid_cursor', reason: 'not_issued' });
}
