import type { LiveCatalog } from '../../catalog/read-model/live-catalog.js';
import { priceCart, type PricedCart } from '../cart-pricing.js';
import { describeVariant, fulfillmentOption, localeOf, pricedParts, soldLine, type LineItemView, type PricedParts, type SoldLineView } from '../line-views.js';
import type { ShippingRate } from '../shipping.js';
import type { CheckoutAddress, CheckoutBuyer, CheckoutLine, OrderSnapshot, StoredCheckout, StoredOrder } from './checkout-store.js';
import type { CheckoutProblem, LineProblemKind, MissingField } from './problems.js';

/**
 * A session's status: `incomplete` while it has problems, `ready_for_complete` when it
 * has none (both follow from the live catalog at each read), `completed` once its
 * order exists, `canceled` after a cancellation.
 */
export type CheckoutStatus = 'incomplete' | 'ready_for_complete' | 'completed' | 'canceled';

/** A line that cannot be bought now; `item` is null when its variant is not in the published catalog. */
export interface ProblemLineView {
  variant_id: string;
  quantity: number;
  item: LineItemView | null;
  problem: LineProblemKind;
}

/** Tell them apart with `'problem' in line`. */
export type CheckoutLineView = SoldLineView | ProblemLineView;

/**
 * A checkout session as the protocol adapters (UCP, ACP) render it: amounts in minor
 * units, priced from the live catalog until completion and from the order's frozen
 * snapshot after it. Totals count the lines that can be bought.
 */
export interface CheckoutSessionView extends PricedParts {
  id: string;
  environment: 'sandbox';
  simulated: true;
  status: CheckoutStatus;
  currency: string;
  /** In the order they were given, one per variant. */
  lines: CheckoutLineView[];
  buyer?: CheckoutBuyer;
  shipping_address?: CheckoutAddress;
  /** Empty when ready, completed or canceled. A declined completion answers its decline here. */
  problems: CheckoutProblem[];
  /** The cart the session was made from. */
  cart_id?: string;
  order_id?: string;
  created_at: string;
  updated_at: string;
  /** The session expires with the key that made it. */
  expires_at: string;
}

/** A simulated order: what was bought at which prices, frozen when its session completed. Nothing real exists behind it. */
export interface OrderView extends OrderSnapshot {
  id: string;
  checkout_id: string;
  environment: 'sandbox';
  simulated: true;
  currency: string;
  created_at: string;
  expires_at: string;
}

/** An open or canceled session priced from the live catalog now: its lines and, while open, what keeps it from completion. */
export interface Assessment {
  priced: PricedCart<CheckoutLine>;
  lines: CheckoutLineView[];
  problems: CheckoutProblem[];
}

/** Prices the session and finds its problems in one synchronous pass over `catalog`. */
export function assess(checkout: StoredCheckout, catalog: LiveCatalog, rates: ShippingRate[]): Assessment {
  const { state } = checkout;
  const priced = priceCart(catalog, checkout.currency, state, rates);
  const locale = localeOf(state.opened_for);
  const sold = new Map(priced.lines.map((line) => [line.variant_id, line]));
  const lineProblems = new Map(
    priced.unsellable.map(({ line, index, problem }) => [index, problem === 'unknown_item' && line.offered ? ('unpublished' as const) : problem]),
  );
  const lines = state.items.map((line, index): CheckoutLineView => {
    const priced = sold.get(line.variant_id);
    if (priced) return soldLine(catalog, priced, locale);
    return { variant_id: line.variant_id, quantity: line.quantity, item: describeVariant(catalog, line.variant_id, locale), problem: lineProblems.get(index)! };
  });
  const problems: CheckoutProblem[] = [
    ...[...lineProblems].map(([index, kind]) => ({ kind, line: { index, variant_id: state.items[index]!.variant_id } })),
    ...missingFields(checkout, priced).map((field) => ({ kind: 'missing' as const, field })),
  ];
  return { priced, lines, problems };
}

/** The address fields a shipment needs. */
const SHIPMENT_FIELDS = ['line_one', 'city', 'postal_code'] as const;

function missingFields({ state }: StoredCheckout, priced: PricedCart<CheckoutLine>): MissingField[] {
  const address = state.shipping_address;
  return [
    ...(state.items.length === 0 ? (['lines'] as const) : []),
    ...(address ? SHIPMENT_FIELDS.filter((field) => !address[field]?.trim()).map((field) => `shipping_address.${field}` as const) : (['shipping_address'] as const)),
    ...(priced.shipping ? [] : (['fulfillment_option'] as const)),
  ];
}

/** An open or canceled session as it stands now. */
export function sessionView(checkout: StoredCheckout, { priced, lines, problems }: Assessment): CheckoutSessionView {
  const open = checkout.status === 'open';
  return {
    ...common(checkout),
    status: open ? (problems.length > 0 ? 'incomplete' : 'ready_for_complete') : 'canceled',
    lines,
    ...pricedParts(priced, checkout.currency, checkout.state.opened_for),
    problems: open ? problems : [],
  };
}

/** A completed session, as its order froze it. */
export function completedSessionView(checkout: StoredCheckout, order: StoredOrder): CheckoutSessionView {
  const { market, lines, fulfillment_option, totals } = order.snapshot;
  return {
    ...common(checkout),
    status: 'completed',
    market,
    lines,
    fulfillment_options: [fulfillment_option],
    selected_fulfillment_option_id: fulfillment_option.id,
    totals,
    problems: [],
    order_id: order.id,
  };
}

function common(checkout: StoredCheckout) {
  const { buyer, shipping_address, cart_id } = checkout.state;
  return {
    id: checkout.id,
    environment: 'sandbox' as const,
    simulated: true as const,
    currency: checkout.currency,
    ...(buyer && { buyer }),
    ...(shipping_address && { shipping_address }),
    ...(cart_id && { cart_id }),
    created_at: checkout.createdAt,
    updated_at: checkout.updatedAt,
    expires_at: checkout.expiresAt,
  };
}

/**
 * What a ready session's order keeps, from its assessment in the same pass: a ready
 * session has a market, an address and a fulfillment option, and every line sold.
 */
export function orderSnapshot(checkout: StoredCheckout, { priced, lines }: Assessment, token: string): OrderSnapshot {
  const { buyer, shipping_address, opened_for } = checkout.state;
  const { market, totals } = pricedParts(priced, checkout.currency, opened_for);
  return {
    market: market!,
    lines: lines as SoldLineView[],
    ...(buyer && { buyer }),
    shipping_address: shipping_address!,
    fulfillment_option: fulfillmentOption(priced.shipping!),
    totals,
    payment: { token },
  };
}

export function orderView(order: StoredOrder): OrderView {
  return {
    id: order.id,
    checkout_id: order.checkoutId,
    environment: 'sandbox',
    simulated: true,
    currency: order.currency,
    ...order.snapshot,
    created_at: order.createdAt,
    expires_at: order.expiresAt,
  };
}
