import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import { CursorCodec, MAX_CURSOR_LENGTH } from '../../src/catalog/queries/cursor.js';
import type { CursorPosition } from '../../src/catalog/read-model/query.js';
import { CatalogReadError } from '../../src/catalog/read-model/read-errors.js';

const SECRET = Buffer.alloc(32, 7);
const SCOPE = 'q=oil&locale=en&country=IT&currency=EUR';
const POSITION: CursorPosition = { key: 2, createdAt: '2025-01-02T00:00:00.000Z', id: '01JH0000000000000000000000' };

/** A payload under a valid MAC (HMAC-SHA256 of the text under SECRET, 16 bytes): what only a holder of the secret could make. */
function signed(payload: string): string {
  const text = Buffer.from(payload).toString('base64url');
  return `${text}.${createHmac('sha256', SECRET).update(text).digest().subarray(0, 16).toString('base64url')}`;
}

/** Refused as an invalid cursor, which every surface answers as INVALID_QUERY. */
function assertInvalidQuery(decode: () => unknown, message: RegExp): void {
  assert.throws(decode, (error: unknown) => {
    assert.ok(error instanceof CatalogReadError);
    assert.equal(error.refusal.kind, 'invalid_cursor');
    assert.match(error.message, message);
    return true;
  });
}

describe('CursorCodec (docs/decisions.md, Cursors)', () => {
  const codec = new CursorCodec(SECRET);
  const cursor = codec.encode(POSITION, SCOPE);

  it('decodes a cursor it issued to the same position, within the length bound', () => {
    assert.deepEqual(codec.decode(cursor, SCOPE), POSITION);
    assert.ok(cursor.length <= MAX_CURSOR_LENGTH, cursor);
  });

  it('decodes it under another codec holding the same secret (another instance)', () => {
    assert.deepEqual(new CursorCodec(Buffer.from(SECRET)).decode(cursor, SCOPE), POSITION);
  });

  it('refuses it for another query or market', () => {
    assertInvalidQuery(() => codec.decode(cursor, `${SCOPE}&page=2`), /another query or market/);
  });

  it('refuses it under another secret', () => {
    assertInvalidQuery(() => new CursorCodec(Buffer.alloc(32, 8)).decode(cursor, SCOPE), /not one this API issued/);
  });

  it('refuses an edited payload that keeps the MAC', () => {
    const [text, mac] = cursor.split('.');
    const payload = JSON.parse(Buffer.from(text!, 'base64url').toString()) as Record<string, unknown>;
    const edited = Buffer.from(JSON.stringify({ ...payload, c: '2030-01-01T00:00:00.000Z' })).toString('base64url');
    assertInvalidQuery(() => codec.decode(`${edited}.${mac}`, SCOPE), /not one this API issued/);
  });

  const forgeries: [string, string][] = [
    ['no separator', cursor.replace('.', '')],
    ['a shortened MAC', cursor.slice(0, -2)],
    ['an empty string', ''],
    ['a validly signed payload that is no JSON', signed('not json')],
    ['a validly signed payload of another version', signed(JSON.stringify({ v: 2, f: 'x', t: 0, c: 'x', i: 'x' }))],
    ['a validly signed payload whose tier is no integer', signed(JSON.stringify({ v: 1, f: 'x', t: 0.5, c: 'x', i: 'x' }))],
  ];
  for (const [what, forged] of forgeries) {
    it(`refuses ${what}`, () => {
      assertInvalidQuery(() => codec.decode(forged, SCOPE), /not one this API issued/);
    });
  }

  it('checks the signing helper against a cursor the codec issued', () => {
    const [text] = cursor.split('.');
    assert.equal(signed(Buffer.from(text!, 'base64url').toString()), cursor);
  });
});
