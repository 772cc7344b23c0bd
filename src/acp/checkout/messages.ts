import type { CheckoutProblem, LineProblemKind, MissingField } from '../../sandbox/checkout/problems.js';

/** A message of a session (the release's MessageInfo, MessageWarning, MessageError), plain text. */
export type AcpMessage =
  | { type: 'info'; content_type: 'plain'; content: string; param?: string }
  | { type: 'warning' | 'error'; code: string; content_type: 'plain'; content: string; param?: string; resolution?: 'recoverable' | 'requires_buyer_input' };

/*
 * What the sandbox reports as data (src/sandbox/checkout/problems.ts) in ACP's words,
 * each kind once: the release's MessageError codes, with the JSONPath of the session
 * field to fix. A client fixes each by an update (`recoverable`).
 */

const LINE_PROBLEMS: Record<LineProblemKind, { code: 'invalid' | 'out_of_stock' | 'region_restricted'; says: string }> = {
  unknown_item: { code: 'invalid', says: 'is not in the catalog' },
  out_of_stock: { code: 'out_of_stock', says: 'is out of stock' },
  not_priced: { code: 'region_restricted', says: 'is not sold in this market' },
  unpublished: { code: 'invalid', says: 'is no longer sold' },
};

const MISSING: Record<MissingField, { param: string; content: string }> = {
  lines: { param: '$.line_items', content: 'The session has no items: add at least one.' },
  shipping_address: { param: '$.fulfillment_details.address', content: 'A shipping address is needed: give fulfillment_details.address.' },
  'shipping_address.line_one': { param: '$.fulfillment_details.address.line_one', content: 'The shipping address needs a line_one.' },
  'shipping_address.city': { param: '$.fulfillment_details.address.city', content: 'The shipping address needs a city.' },
  'shipping_address.postal_code': { param: '$.fulfillment_details.address.postal_code', content: 'The shipping address needs a postal_code.' },
  fulfillment_option: {
    param: '$.selected_fulfillment_options',
    content: 'A fulfillment option is needed: select one of fulfillment_options in selected_fulfillment_options.',
  },
};

/** A session's problem as an error message. A declined payment is not one: it is the completion's error (src/acp/checkout/checkout-operations.ts). */
export function problemMessage(problem: Exclude<CheckoutProblem, { kind: 'payment_declined' }>): AcpMessage {
  if (problem.kind === 'missing') return { type: 'error', code: 'missing', content_type: 'plain', ...MISSING[problem.field], resolution: 'recoverable' };
  return unsellableItemMessage(problem.kind, problem.line.variant_id, 'remove it or choose another item to complete the checkout.', `$.line_items[${problem.line.index}]`);
}

/** An item that cannot be bought now, as an error message: what is wrong with it, then what follows (`then`). */
export function unsellableItemMessage(kind: LineProblemKind, variantId: string, then: string, param?: string): AcpMessage {
  const { code, says } = LINE_PROBLEMS[kind];
  return { type: 'error', code, content_type: 'plain', content: `Item ${variantId} ${says}: ${then}`, ...(param !== undefined && { param }), resolution: 'recoverable' };
}

/** What is wrong with an item, in words (`is out of stock`). */
export function unsellableItemSays(kind: LineProblemKind): string {
  return LINE_PROBLEMS[kind].says;
}

/** Each discount code sent, rejected: the sandbox has no discounts, and says so rather than pretend one. */
export function rejectedCodeMessages(codes: readonly string[] | undefined, field: 'discounts.codes' | 'coupons'): AcpMessage[] {
  return (codes ?? []).map((code, index) => ({
    type: 'warning',
    code: 'discount_code_invalid',
    content_type: 'plain',
    content: `The code ${JSON.stringify(code)} was not applied: the sandbox has no discounts.`,
    param: `$.${field}[${index}]`,
  }));
}
