import { containsCardNumber } from './card-numbers.js';

/**
 * docs/decisions.md, Simulated payments: the sandbox's payment instruments are tokens
 * with a fixed outcome, chosen the way a scenario is chosen, so a client can rehearse an
 * approval and each kind of decline on purpose. Nothing is charged and no payment
 * provider is called.
 */
export const DECLINE_REASONS = ['generic', 'insufficient_funds', 'expired_card'] as const;
/**
 * Declines of a delegated token by its allowance (delegated-payments.ts): the charge is
 * above its maximum, in another currency or for another session, or the allowance has
 * ended.
 */
export const ALLOWANCE_DECLINES = ['allowance_exceeded', 'allowance_mismatch', 'token_expired'] as const;
export type DeclineReason = (typeof DECLINE_REASONS)[number] | (typeof ALLOWANCE_DECLINES)[number];

/** Each decline in plain words, a sentence each protocol's message starts with. */
export const DECLINED_BECAUSE: Record<DeclineReason, string> = {
  generic: 'The payment was declined.',
  insufficient_funds: 'The payment was declined: insufficient funds.',
  expired_card: 'The payment was declined: the card has expired.',
  allowance_exceeded: "The payment was declined: the amount is above the delegated token's allowance.",
  allowance_mismatch: "The payment was declined: the delegated token's allowance is for another checkout session or currency.",
  token_expired: "The payment was declined: the delegated token's allowance has expired.",
};

export type PaymentOutcome = { outcome: 'approved' } | { outcome: 'declined'; reason: DeclineReason };

export interface SandboxPaymentToken {
  token: string;
  result: PaymentOutcome;
  description: string;
}

const SIMULATED = 'Simulated: nothing is charged.';

/** The tokens, for the payment handlers' schemas and the docs to list. */
export const SANDBOX_PAYMENT_TOKENS: readonly SandboxPaymentToken[] = [
  { token: 'tok_sandbox_success', result: { outcome: 'approved' }, description: `Approved: the checkout completes and a simulated order is created. ${SIMULATED}` },
  ...DECLINE_REASONS.map((reason) => ({
    token: `tok_sandbox_decline_${reason}`,
    result: { outcome: 'declined' as const, reason },
    description: `Declined (${reason.replaceAll('_', ' ')}): the checkout stays as it was, ready to be completed with another instrument. ${SIMULATED}`,
  })),
];

const BY_TOKEN = new Map(SANDBOX_PAYMENT_TOKENS.map((entry) => [entry.token, entry.result]));

/** What a client sent to pay: the sandbox token its protocol's instrument names, and the whole instrument as sent. */
export interface PaymentSubmission {
  token: string;
  /** Everything the client sent about the instrument; searched for card numbers, then dropped. */
  credential: unknown;
}

/**
 * A payment the sandbox will not run: a real-looking card number (never stored or
 * echoed), a token it does not know, or (delegating a card) a number that is no card
 * number at all.
 */
export type PaymentRefusal = 'real_card_refused' | 'unknown_instrument' | 'invalid_card';

/** A delegated token's id: `vt_sandbox_` and 24 hex digits (delegated-payments.ts). */
export const DELEGATED_TOKEN = /^vt_sandbox_[0-9a-f]{24}$/;

/**
 * The outcome of paying with `payment`, or why it cannot be tried, or that it is a
 * delegated token whose allowance decides (the checkout service asks
 * delegated-payments.ts). A card number anywhere in the submission, the token included,
 * is refused before the token is read.
 */
export function authorizePayment(payment: PaymentSubmission): PaymentOutcome | { refused: PaymentRefusal } | { delegated: string } {
  if (containsCardNumber(payment.token) || containsCardNumber(payment.credential)) return { refused: 'real_card_refused' };
  if (DELEGATED_TOKEN.test(payment.token)) return { delegated: payment.token };
  return BY_TOKEN.get(payment.token) ?? { refused: 'unknown_instrument' };
}
