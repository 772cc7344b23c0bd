import type { UnsellableKind } from '../cart-pricing.js';
import type { DeclineReason } from '../payment/simulated-payments.js';

/**
 * What keeps a line from being bought, as data each protocol words (UCP: messages with
 * item_unavailable or out_of_stock; ACP: its own codes): the variant is not in the
 * published catalog, is out of stock, has no price in the session's market, or was
 * offered when it was put in the session and is no longer published.
 */
export type LineProblemKind = UnsellableKind | 'unpublished';

/** What a session still needs before it can be completed; the address fields are those a shipment needs. */
export type MissingField = 'lines' | 'shipping_address' | 'shipping_address.line_one' | 'shipping_address.city' | 'shipping_address.postal_code' | 'fulfillment_option';

/**
 * Why a session is not ready, or why its completion did not go through. Problems are
 * answers, never thrown: the session is still there and the client can fix them.
 */
export type CheckoutProblem =
  /** `line.index` is the line's place in the session's lines. */
  | { kind: LineProblemKind; line: { index: number; variant_id: string } }
  | { kind: 'missing'; field: MissingField }
  /** Only in the answer to the completion that was declined; the session stays as it was. */
  | { kind: 'payment_declined'; reason: DeclineReason };
