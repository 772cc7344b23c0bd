import { randomBytes } from 'node:crypto';

/** A random identifier with a readable prefix (`prod_...`, `sandbox_cart_...`): 24 hex digits, 96 bits. */
export const newId = (prefix: string): string => `${prefix}_${randomBytes(12).toString('hex')}`;
