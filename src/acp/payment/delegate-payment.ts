import { Type, type Static } from 'typebox';
import { SANDBOX_TEST_CARDS } from '../../sandbox/payment/delegated-payments.js';
import { DECLINED_BECAUSE } from '../../sandbox/payment/simulated-payments.js';
import { CHECKOUT_SCOPE } from '../../sandbox/scopes.js';
import { AcpProblem, wordSandboxRefusal } from '../errors.js';
import { SandboxRefusalError } from '../../sandbox/refusals.js';
import type { AcpOperation, AcpOperationKit } from '../operation.js';

/*
 * The delegate payment request as this service validates it, written from the release's
 * openapi.delegate_payment.yaml: unknown fields are refused, as its additionalProperties:
 * false does; what the sandbox does not read (risk signals, the billing address, the
 * card's display fields) is checked and dropped.
 */
const text = (maxLength: number, description?: string) => Type.String({ maxLength, ...(description && { description }) });
const StringMap = (description: string) => Type.Record(Type.String({ maxLength: 64 }), text(1024), { description, maxProperties: 50 });

const PaymentMethodCard = Type.Object(
  {
    type: Type.Literal('card'),
    card_number_type: Type.Union([Type.Literal('fpan'), Type.Literal('network_token')]),
    number: text(64, `One of the sandbox's test cards: ${SANDBOX_TEST_CARDS.map((card) => card.number).join(', ')}. Any other number is refused (invalid_card).`),
    exp_month: Type.Optional(text(2)),
    exp_year: Type.Optional(text(4)),
    name: Type.Optional(text(256)),
    cvc: Type.Optional(text(4)),
    cryptogram: Type.Optional(text(256)),
    eci_value: Type.Optional(text(2)),
    checks_performed: Type.Optional(Type.Array(Type.Union(['avs', 'cvv', 'ani', 'auth0'].map((check) => Type.Literal(check))), { maxItems: 4 })),
    iin: Type.Optional(text(8)),
    display_card_funding_type: Type.Union([Type.Literal('credit'), Type.Literal('debit'), Type.Literal('prepaid')]),
    display_wallet_type: Type.Optional(text(64)),
    display_brand: Type.Optional(text(64)),
    display_last4: Type.Optional(Type.String({ pattern: '^[0-9]{4}$' })),
    metadata: StringMap('Accepted, not kept.'),
    virtual: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

const Allowance = Type.Object(
  {
    reason: Type.Literal('one_time'),
    max_amount: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'The most the token may pay, in minor units.' }),
    currency: Type.String({ pattern: '^[a-z]{3}$', description: 'ISO 4217, lower case: the currency of the session it may pay.' }),
    checkout_session_id: text(255, 'The session the token may pay.'),
    merchant_id: text(256, 'Echoed in the answer\'s metadata.'),
    expires_at: Type.String({ format: 'date-time', description: 'From then on a completion with the token is declined (one already past rehearses that).' }),
  },
  { additionalProperties: false },
);

const Address = Type.Object(
  {
    name: text(256),
    line_one: text(60),
    line_two: Type.Optional(text(60)),
    city: text(60),
    state: text(64),
    country: Type.String({ minLength: 2, maxLength: 2 }),
    postal_code: text(20),
  },
  { additionalProperties: false },
);

export const DelegatePaymentRequest = Type.Object(
  {
    payment_method: PaymentMethodCard,
    allowance: Allowance,
    billing_address: Type.Optional(Address),
    risk_signals: Type.Array(
      Type.Object(
        { type: Type.Literal('card_testing'), score: Type.Integer(), action: Type.Union([Type.Literal('blocked'), Type.Literal('manual_review'), Type.Literal('authorized')]) },
        { additionalProperties: false },
      ),
      { maxItems: 20, description: 'Accepted, not read.' },
    ),
    metadata: StringMap('Echoed in the answer\'s metadata.'),
  },
  { additionalProperties: false },
);
type DelegatePaymentRequest = Static<typeof DelegatePaymentRequest>;

const DelegatePaymentResponse = Type.Object(
  {
    id: Type.String({ description: 'The delegated token: vt_sandbox_ + 24 hex; pay with it as payment_data.instrument.credential.token.' }),
    created: Type.String({ format: 'date-time' }),
    metadata: Type.Record(Type.String(), Type.String(), {
      description: 'The request\'s metadata, with merchant_id, checkout_session_id, idempotency_key, and environment "sandbox", simulated "true".',
    }),
  },
  { title: 'AcpDelegatePaymentResponse' },
);

const CARDS = SANDBOX_TEST_CARDS.map(({ number, result }) => `${number} (${result.outcome === 'approved' ? 'approved' : `declined: ${result.reason}`})`).join(', ');
const ALLOWANCE_RULES = `A completion with the token is declined (402 payment_declined) when the allowance has expired (${DECLINED_BECAUSE.token_expired}), is for another session or currency, or is below the session's total; else the card decides.`;

/**
 * ACP's delegated payment (rfc.delegate_payment.md, openapi.delegate_payment.yaml),
 * simulated: the sandbox issues its own tokens for its own test cards
 * (src/sandbox/payment/delegated-payments.ts), which checkout completion accepts.
 */
export function delegatePaymentOperations({ sandbox }: AcpOperationKit): AcpOperation<any>[] {
  const delegate: AcpOperation<DelegatePaymentRequest> = {
    name: 'delegatePayment',
    title: 'Delegate a payment (simulated)',
    description: `Issues a sandbox payment token for one of the sandbox's test cards, with an allowance: the most it may pay (max_amount, minor units), in which currency, for which checkout session, until when. Test cards: ${CARDS}. Any other number is refused with 400 invalid_card: one that looks like a real card (13 to 19 digits passing the Luhn check), or no card number at all; so is a card number anywhere else in the request. No card number is stored or echoed. ${ALLOWANCE_RULES} Needs a sandbox key with ${CHECKOUT_SCOPE}; the token belongs to the key and expires with it. Simulated: nothing is charged and no payment provider is called.`,
    method: 'POST',
    path: '/agentic_commerce/delegate_payment',
    successStatus: 201,
    body: { schema: DelegatePaymentRequest, required: true },
    result: DelegatePaymentResponse,
    scope: CHECKOUT_SCOPE,
    errors: { 400: 'invalid_card: not a sandbox test card (a real-looking card is never taken).' },
    run: async ({ body }, { principal, request }) => {
      const { number, ...card } = body.payment_method;
      const { allowance } = body;
      try {
        const token = await sandbox.delegatedPayments.issue(principal, {
          cardNumber: number,
          allowance: {
            maxAmount: allowance.max_amount,
            currency: allowance.currency,
            checkoutId: allowance.checkout_session_id,
            merchantId: allowance.merchant_id,
            expiresAt: allowance.expires_at,
          },
          rest: { ...body, payment_method: card },
        });
        return {
          id: token.id,
          created: token.createdAt,
          metadata: {
            ...body.metadata,
            merchant_id: allowance.merchant_id,
            checkout_session_id: allowance.checkout_session_id,
            idempotency_key: request.headers['idempotency-key'] as string,
            environment: 'sandbox',
            simulated: 'true',
          },
        };
      } catch (error) {
        // The release's delegate payment errors have one code for a card it will not take.
        if (error instanceof SandboxRefusalError && (error.refusal.kind === 'invalid_card' || error.refusal.kind === 'real_card_refused')) {
          throw new AcpProblem(400, 'invalid_card', error.message, error.refusal.kind === 'invalid_card' ? '$.payment_method.number' : undefined);
        }
        throw wordSandboxRefusal(error) ?? error;
      }
    },
  };
  return [delegate];
}
