import type { Db } from '../../store/database.js';
import { findOwnedRow } from '../owned-rows.js';
import type { PaymentOutcome } from './simulated-payments.js';

/** A delegated payment token as stored: its allowance and the outcome of the test card it stands for. */
export interface StoredPaymentToken {
  id: string;
  keyId: string;
  outcome: PaymentOutcome;
  /** Minor units of `currency` (upper case). */
  maxAmount: number;
  currency: string;
  checkoutId: string;
  merchantId: string;
  allowanceExpiresAt: string;
  createdAt: string;
  /** The key's expiry. */
  expiresAt: string;
}

export async function insertPaymentToken(db: Db, token: StoredPaymentToken): Promise<void> {
  await db
    .insertInto('sandbox_payment_tokens')
    .values({
      id: token.id,
      key_id: token.keyId,
      outcome: JSON.stringify(token.outcome),
      max_amount: token.maxAmount,
      currency: token.currency,
      checkout_id: token.checkoutId,
      merchant_id: token.merchantId,
      allowance_expires_at: token.allowanceExpiresAt,
      created_at: token.createdAt,
      expires_at: token.expiresAt,
    })
    .execute();
}

/** The token if it belongs to the key and the key has not expired (its allowance may have: the caller declines that). */
export function findOwnedPaymentToken(db: Db, tokenId: string, keyId: string, now: Date): Promise<StoredPaymentToken | undefined> {
  return findOwnedRow(db, { table: 'sandbox_payment_tokens', column: 'id', value: tokenId }, { keyId, now }, (row) => ({
    id: row.id,
    keyId: row.key_id,
    outcome: JSON.parse(row.outcome) as PaymentOutcome,
    maxAmount: Number(row.max_amount),
    currency: row.currency,
    checkoutId: row.checkout_id,
    merchantId: row.merchant_id,
    allowanceExpiresAt: row.allowance_expires_at,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  }));
}
