import { randomBytes } from 'node:crypto';

/** A random identifier with a readable prefix (`prod_...`, `sandbox_cart_...`): 24 hex digits, 96 bits. */
export const newId = (prefix: string): string => `${prefix}_${randomBytes(12).toString('hex')}`;

let orderedIdTime = 0;
let orderedIdCount = 0;

/**
 * An identifier of `newId`'s shape whose ids sort in the order this process made them:
 * 48 bits of milliseconds since 1970, then 48 bits counting up from a random start (below
 * 2^47, so it never overflows) each millisecond. Rows keyed by such ids are appended at
 * the end of their indexes; with random ids every row of a large write lands on a page of
 * its own, so each transaction rewrites a share of every index that grows with the table.
 */
export function newOrderedId(prefix: string): string {
  const now = Math.max(Date.now(), orderedIdTime);
  if (now === orderedIdTime) orderedIdCount += 1;
  else {
    orderedIdTime = now;
    orderedIdCount = randomBytes(6).readUIntBE(0, 6) % 2 ** 47;
  }
  return `${prefix}_${now.toString(16).padStart(12, '0')}${orderedIdCount.toString(16).padStart(12, '0')}`;
}
