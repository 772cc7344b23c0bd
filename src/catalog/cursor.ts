import { createHash } from 'node:crypto';
import { HttpProblem } from '../http/problem.js';

/** Where a page ended: the sort key of its last product. */
export interface CursorPosition {
  /** Relevance tier (0 without a query). */
  tier: number;
  createdAt: string;
  id: string;
}

interface CursorPayload {
  v: 1;
  /** Fingerprint of the query and market the cursor belongs to. */
  f: string;
  t: number;
  c: string;
  i: string;
}

export const MAX_CURSOR_LENGTH = 512;

/**
 * Cursors are keyset positions, not offsets: the next page starts after the last
 * product seen, so products added or repriced meanwhile never shift a walk.
 */
export function encodeCursor(position: CursorPosition, scope: string): string {
  const payload: CursorPayload = { v: 1, f: fingerprint(scope), t: position.tier, c: position.createdAt, i: position.id };
  return Buffer.from(JSON.stringify(payload)).toString('base64url');
}

export function decodeCursor(cursor: string, scope: string): CursorPosition {
  let payload: Partial<CursorPayload>;
  try {
    payload = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Partial<CursorPayload>;
  } catch {
    throw invalidCursor('The cursor is not one this API issued.');
  }
  if (
    payload?.v !== 1 ||
    typeof payload.f !== 'string' ||
    !Number.isInteger(payload.t) ||
    typeof payload.c !== 'string' ||
    typeof payload.i !== 'string'
  ) {
    throw invalidCursor('The cursor is not one this API issued.');
  }
  if (payload.f !== fingerprint(scope)) {
    throw invalidCursor('The cursor was issued for another query or market.');
  }
  return { tier: payload.t!, createdAt: payload.c, id: payload.i };
}

function fingerprint(scope: string): string {
  return createHash('sha256').update(scope).digest('base64url').slice(0, 12);
}

function invalidCursor(message: string): HttpProblem {
  return new HttpProblem(400, 'INVALID_QUERY', message, {
    hint: 'Send the next_cursor of the previous page unchanged, with the same q, locale, country and currency, and without offset.',
  });
}
