import { newId } from '../../lib/new-id.js';
import type { Db } from '../../store/database.js';
import type { SandboxPrincipal } from '../auth.js';
import type { Clock } from '../clock.js';
import { requireScope, SandboxRefusalError } from '../refusals.js';
import { CHECKOUT_SCOPE } from '../scopes.js';
import { containsCardNumber, holdsCardNumber } from './card-numbers.js';
import { findOwnedPaymentToken, insertPaymentToken, type StoredPaymentToken } from './delegated-payment-store.js';
import type { PaymentOutcome } from './simulated-payments.js';

/**
 * docs/acp.md, Delegated payment: the sandbox stands in for the payment provider a
 * protocol delegates card details to. It takes only its own test card numbers, each
 * with a fixed outcome as the sandbox tokens have, and issues for one a token with an
 * allowance (the most it may pay, in which currency, for which session, until when).
 * A completion paying with the token is declined when the allowance does not cover it,
 * else has its card's outcome. Nothing is charged and no provider is called.
 */

export interface SandboxTestCard {
  /** The number as issued: the widely published test numbers, which pass the Luhn check. */
  number: string;
  result: PaymentOutcome;
}

/** The test cards, for the docs and descriptions to list; any other number is refused. */
export const SANDBOX_TEST_CARDS: readonly SandboxTestCard[] = [
  { number: '4242424242424242', result: { outcome: 'approved' } },
  { number: '4000000000000002', result: { outcome: 'declined', reason: 'generic' } },
  { number: '4000000000009995', result: { outcome: 'declined', reason: 'insufficient_funds' } },
  { number: '4000000000000069', result: { outcome: 'declined', reason: 'expired_card' } },
];

const BY_NUMBER = new Map(SANDBOX_TEST_CARDS.map((card) => [card.number, card.result]));
const TEST_NUMBERS = SANDBOX_TEST_CARDS.map((card) => card.number);

export interface Allowance {
  /** Minor units of `currency`. */
  maxAmount: number;
  /** ISO 4217, any case. */
  currency: string;
  /** The checkout session the token may pay. */
  checkoutId: string;
  merchantId: string;
  /** RFC 3339: from then on the token is declined (an allowance already ended rehearses that). */
  expiresAt: string;
}

export interface Delegation {
  /** The card number as sent: digits, with single spaces or dashes between groups. */
  cardNumber: string;
  allowance: Allowance;
  /** Everything else the client sent, searched for card numbers, then dropped. */
  rest: unknown;
}

/** What a completion would charge. */
export interface Charge {
  checkoutId: string;
  currency: string;
  /** Minor units. */
  amount: number;
}

export class DelegatedPaymentService {
  constructor(private readonly deps: { db: Db; clock: Clock }) {}

  /**
   * A token for a test card, under the key: refused when the number is not a test card
   * but looks like a real one (`real_card_refused`), is no card number at all
   * (`invalid_card`), or a card number is anywhere else in the request
   * (`real_card_refused`). Only the card's outcome is stored, never its number.
   */
  async issue(principal: SandboxPrincipal, delegation: Delegation): Promise<StoredPaymentToken> {
    requireScope(principal, CHECKOUT_SCOPE);
    const outcome = BY_NUMBER.get(delegation.cardNumber.replace(/[ -]/g, ''));
    if (!outcome) {
      if (holdsCardNumber(delegation.cardNumber)) throw refused('real_card_refused', 'The card number looks like a real card; the sandbox never takes one.');
      throw refused('invalid_card', 'The card number is not a card number.');
    }
    if (containsCardNumber(delegation.rest)) throw refused('real_card_refused', 'The request holds what looks like a real card number besides the card; the sandbox never takes one.');
    const now = this.deps.clock();
    const { allowance } = delegation;
    const token: StoredPaymentToken = {
      id: newId('vt_sandbox'),
      keyId: principal.keyId,
      outcome,
      maxAmount: allowance.maxAmount,
      currency: allowance.currency.toUpperCase(),
      checkoutId: allowance.checkoutId,
      merchantId: allowance.merchantId,
      allowanceExpiresAt: new Date(allowance.expiresAt).toISOString(),
      createdAt: now.toISOString(),
      // Only stored keys hold the checkout scope, so there is an expiry, and the token shares it.
      expiresAt: principal.expiresAt!.toISOString(),
    };
    await insertPaymentToken(this.deps.db, token);
    return token;
  }

  /**
   * The outcome of charging a delegated token: declined when its allowance has ended
   * (`token_expired`), is for another session or currency (`allowance_mismatch`) or is
   * below the amount (`allowance_exceeded`), else its card's. Another key's token, or an
   * unknown one, is `unknown_instrument`.
   */
  async authorize(principal: SandboxPrincipal, tokenId: string, charge: Charge): Promise<PaymentOutcome> {
    const now = this.deps.clock();
    const token = await findOwnedPaymentToken(this.deps.db, tokenId, principal.keyId, now);
    if (!token) throw refused('unknown_instrument', `No delegated token ${tokenId} belongs to this key.`);
    if (Date.parse(token.allowanceExpiresAt) <= now.getTime()) return { outcome: 'declined', reason: 'token_expired' };
    if (token.checkoutId !== charge.checkoutId || token.currency !== charge.currency) return { outcome: 'declined', reason: 'allowance_mismatch' };
    if (charge.amount > token.maxAmount) return { outcome: 'declined', reason: 'allowance_exceeded' };
    return token.outcome;
  }
}

function refused(kind: 'real_card_refused' | 'invalid_card' | 'unknown_instrument', message: string): SandboxRefusalError {
  const accepted = kind === 'unknown_instrument' ? [] : TEST_NUMBERS;
  const hint = kind === 'unknown_instrument' ? ' Delegate a payment first.' : ` Sandbox test cards: ${TEST_NUMBERS.join(', ')}.`;
  return new SandboxRefusalError(`${message}${hint}`, { kind, accepted });
}
