import type { CheckoutProblem, LineProblemKind, MissingField } from '../sandbox/checkout/problems.js';
import { DECLINED_BECAUSE } from '../sandbox/payment/simulated-payments.js';

/** A message of a UCP answer (types/message.json): an error, a warning or information. */
export type UcpMessage =
  | { type: 'error'; code: string; content: string; severity: 'recoverable' | 'requires_buyer_input' | 'requires_buyer_review' | 'unrecoverable'; path?: string }
  | { type: 'warning' | 'info'; code: string; content: string; path?: string };

type Severity = Extract<UcpMessage, { type: 'error' }>['severity'];

/*
 * What the sandbox reports as data (src/sandbox/checkout/problems.ts, a cart's refused
 * lines) in UCP's words, each kind worded here once: the standard error codes of
 * checkout.md (Standard Errors) where one fits, with a JSONPath to the field of the cart
 * or checkout that needs fixing.
 */

const LINE_PROBLEMS: Record<LineProblemKind, { code: 'item_unavailable' | 'out_of_stock'; says: string }> = {
  unknown_item: { code: 'item_unavailable', says: 'is not in the catalog' },
  out_of_stock: { code: 'out_of_stock', says: 'is out of stock' },
  not_priced: { code: 'item_unavailable', says: 'is not sold in this market' },
  unpublished: { code: 'item_unavailable', says: 'is no longer sold' },
};

/** Why the line of item `itemId` cannot be bought, and what follows from it (`consequence`, a sentence). */
export function lineProblemMessage(kind: LineProblemKind, itemId: string, severity: Severity, consequence: string, path?: string): UcpMessage {
  const { code, says } = LINE_PROBLEMS[kind];
  return { type: 'error', code, content: `Item ${itemId} ${says}: ${consequence}`, severity, ...(path !== undefined && { path }) };
}

/** Where each missing field is given: the fulfillment extension carries the destination and the option. */
const MISSING: Record<MissingField, { path: string; content: string }> = {
  lines: { path: '$.line_items', content: 'The checkout has no line items: add at least one.' },
  shipping_address: {
    path: '$.fulfillment.methods[0].destinations',
    content: 'A shipping destination is needed: give one in fulfillment.methods[0].destinations (the dev.ucp.shopping.fulfillment extension).',
  },
  'shipping_address.line_one': { path: '$.fulfillment.methods[0].destinations[0].street_address', content: 'The shipping destination needs a street_address.' },
  'shipping_address.city': { path: '$.fulfillment.methods[0].destinations[0].address_locality', content: 'The shipping destination needs an address_locality (the city).' },
  'shipping_address.postal_code': { path: '$.fulfillment.methods[0].destinations[0].postal_code', content: 'The shipping destination needs a postal_code.' },
  fulfillment_option: {
    path: '$.fulfillment.methods[0].groups[0].selected_option_id',
    content: 'A fulfillment option is needed: select one of fulfillment.methods[0].groups[0].options.',
  },
};

/** A checkout's problem as an error message: each one is `recoverable`, by an update or, for a decline, another instrument. */
export function checkoutProblemMessage(problem: CheckoutProblem): UcpMessage {
  switch (problem.kind) {
    case 'missing':
      return { type: 'error', code: 'missing', ...MISSING[problem.field], severity: 'recoverable' };
    case 'payment_declined':
      return {
        type: 'error',
        code: 'payment_failed',
        content: `${DECLINED_BECAUSE[problem.reason]} Nothing was charged and the checkout is unchanged: complete it again with another sandbox token.`,
        severity: 'recoverable',
      };
    default:
      return lineProblemMessage(
        problem.kind,
        problem.line.variant_id,
        'recoverable',
        'remove the line or choose another variant to complete the checkout.',
        `$.line_items[${problem.line.index}]`,
      );
  }
}
