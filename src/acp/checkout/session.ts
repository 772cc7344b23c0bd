import { Type } from 'typebox';
import type { CheckoutSessionView, CheckoutStatus } from '../../sandbox/checkout/checkout-views.js';
import type { FulfillmentOptionView, LineItemView, SoldLineView, TotalsView } from '../../sandbox/line-views.js';
import { ACP_PATHS } from '../endpoints.js';
import { ACP_VERSION } from '../version.js';
import { problemMessage, type AcpMessage } from './messages.js';

type CheckoutAddress = NonNullable<CheckoutSessionView['shipping_address']>;

/** The sandbox's statuses as the release names them: `not_ready_for_payment` while there is something to fix. */
const STATUSES: Record<CheckoutStatus, string> = {
  incomplete: 'not_ready_for_payment',
  ready_for_complete: 'ready_for_payment',
  completed: 'completed',
  canceled: 'canceled',
};

/**
 * The release's CheckoutSessionBase allows no field of its own beyond its list, so the
 * sandbox says it is simulated in the one it leaves open: `metadata`.
 */
export const SIMULATED_METADATA = { environment: 'sandbox', simulated: true } as const;

export interface SessionContext {
  /** The payment handlers of `capabilities.payment`, as they are now. */
  paymentHandlers: object[];
  /** Where a buyer can carry on without the agent (the storefront), while the session is open. */
  continueUrl: string;
  publicBaseUrl: string;
  /** Messages of this answer only (rejected discount codes). */
  notes?: readonly AcpMessage[];
}

/** A sandbox session as an ACP CheckoutSession: minor units, the currency lower-case as the release writes it. */
export function acpSession(session: CheckoutSessionView, context: SessionContext): Record<string, unknown> {
  const open = session.status === 'incomplete' || session.status === 'ready_for_complete';
  const sold = session.lines.filter((line): line is SoldLineView => !('problem' in line));
  const address = session.shipping_address && releaseAddress(session.shipping_address);
  const { buyer } = session;
  const selected = session.selected_fulfillment_option_id;
  return {
    id: session.id,
    protocol: { version: ACP_VERSION },
    capabilities: { payment: { handlers: context.paymentHandlers } },
    ...(buyer?.email !== undefined && { buyer: pickDefined({ first_name: buyer.first_name, last_name: buyer.last_name, email: buyer.email, phone_number: buyer.phone_number }) }),
    status: STATUSES[session.status],
    currency: session.currency.toLowerCase(),
    ...(session.market && { locale: session.market.locale }),
    line_items: session.lines.map((line) => ('problem' in line ? problemLineItem(line.variant_id, line.quantity, line.item, line.problem === 'out_of_stock') : soldLineItem(line))),
    ...(session.shipping_address && {
      fulfillment_details: pickDefined({ name: session.shipping_address.name, phone_number: session.shipping_address.phone_number, address }),
    }),
    fulfillment_options: session.fulfillment_options.map(fulfillmentOption),
    ...(selected !== undefined && { selected_fulfillment_options: [{ type: 'shipping', option_id: selected, item_ids: sold.map((line) => line.variant_id) }] }),
    totals: acpTotals(session.totals, selected !== undefined),
    messages: [...session.problems.flatMap((problem) => (problem.kind === 'payment_declined' ? [] : [problemMessage(problem)])), ...(context.notes ?? [])],
    links: [],
    created_at: session.created_at,
    updated_at: session.updated_at,
    expires_at: session.expires_at,
    ...(open && { continue_url: context.continueUrl }),
    metadata: SIMULATED_METADATA,
  };
}

/** The totals of a session or a cart (minor units): shipping once an option is chosen. */
export function acpTotals(totals: TotalsView, shippingChosen: boolean) {
  return [
    { type: 'items_base_amount', display_text: 'Items', amount: totals.subtotal },
    { type: 'subtotal', display_text: 'Subtotal', amount: totals.subtotal },
    ...(shippingChosen ? [{ type: 'fulfillment', display_text: 'Shipping (simulated)', amount: totals.fulfillment }] : []),
    { type: 'total', display_text: 'Total', amount: totals.total },
  ];
}

/** Where a simulated order is read: its completed session (the release defines no order resource). */
export const orderPermalink = (publicBaseUrl: string, checkoutSessionId: string) => `${publicBaseUrl}${ACP_PATHS.checkoutSessions}/${checkoutSessionId}`;

/** The completion's answer: the session and its order. */
export function withOrder(session: Record<string, unknown>, orderId: string, publicBaseUrl: string): Record<string, unknown> {
  const id = session.id as string;
  return { ...session, order: { id: orderId, checkout_session_id: id, permalink_url: orderPermalink(publicBaseUrl, id) } };
}

/** The release's Address requires name, line_one, city, state, country and postal_code: an address kept without one of them (made over UCP) is left out. */
export function releaseAddress(address: CheckoutAddress): Record<string, string> | undefined {
  const { name, line_one, line_two, city, state, country, postal_code } = address;
  if (name === undefined || line_one === undefined || city === undefined || state === undefined || postal_code === undefined) return undefined;
  return pickDefined({ name, line_one, line_two, city, state, country, postal_code });
}

/** A line that can be bought now, of a session or a cart. */
export function soldLineItem(line: SoldLineView) {
  return {
    ...describedLine(line.variant_id, line.quantity, line.item),
    unit_amount: line.unit_price,
    availability_status: 'in_stock',
    totals: lineTotals(line.line_total),
  };
}

/** A line that cannot be bought: described as the catalog shows it, if it does, and counted for nothing. */
function problemLineItem(variantId: string, quantity: number, item: LineItemView | null, outOfStock: boolean) {
  return { ...describedLine(variantId, quantity, item), ...(outOfStock && { availability_status: 'out_of_stock' }), totals: lineTotals(0) };
}

function describedLine(variantId: string, quantity: number, item: LineItemView | null) {
  return {
    // One line per variant: the variant id names the line too.
    id: variantId,
    item: { id: variantId },
    quantity,
    ...(item && {
      name: itemName(item),
      ...(item.image_url !== null && { images: [item.image_url] }),
      product_id: item.product_id,
      sku: item.sku,
      variant_id: variantId,
    }),
  };
}

/** A line's name: the product title with the variant's option values. */
export const itemName = (item: LineItemView) => (item.variant_display_name === null ? item.title : `${item.title} (${item.variant_display_name})`);

function lineTotals(amount: number) {
  return [
    { type: 'items_base_amount', display_text: 'Base amount', amount },
    { type: 'subtotal', display_text: 'Subtotal', amount },
    { type: 'total', display_text: 'Total', amount },
  ];
}

function fulfillmentOption(option: FulfillmentOptionView) {
  return { type: 'shipping', id: option.id, title: option.title, totals: [{ type: 'total', display_text: option.title, amount: option.amount }] };
}

function pickDefined<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as Partial<T>;
}

// The answer as the document describes it; the release's CheckoutSession is the authority and the tests check every answer against it.
const Total = Type.Object({ type: Type.String(), display_text: Type.String(), amount: Type.Integer({ description: 'Minor units.' }) });
export const AcpTotalsSchema = Type.Array(Total);
export const AcpLineItemSchema = Type.Object({
  id: Type.String(),
  item: Type.Object({ id: Type.String() }),
  quantity: Type.Integer({ minimum: 1 }),
  name: Type.Optional(Type.String()),
  images: Type.Optional(Type.Array(Type.String())),
  product_id: Type.Optional(Type.String()),
  sku: Type.Optional(Type.String()),
  variant_id: Type.Optional(Type.String()),
  unit_amount: Type.Optional(Type.Integer()),
  availability_status: Type.Optional(Type.String()),
  totals: AcpTotalsSchema,
});
export const AcpMessageSchema = Type.Object(
  {
    type: Type.Union([Type.Literal('info'), Type.Literal('warning'), Type.Literal('error')]),
    code: Type.Optional(Type.String({ description: 'Errors: missing, invalid, out_of_stock, region_restricted; warnings: discount_code_invalid.' })),
    content_type: Type.Literal('plain'),
    content: Type.String(),
    param: Type.Optional(Type.String({ description: 'RFC 9535 JSONPath of the field it is about.' })),
    resolution: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
const AddressOut = Type.Object(
  {
    name: Type.String(),
    line_one: Type.String(),
    line_two: Type.Optional(Type.String()),
    city: Type.String(),
    state: Type.String(),
    country: Type.String(),
    postal_code: Type.String(),
  },
  { additionalProperties: false },
);

export const AcpCheckoutSessionSchema = Type.Object(
  {
    id: Type.String({ description: 'sandbox_checkout_ + 24 hex.' }),
    protocol: Type.Object({ version: Type.Literal(ACP_VERSION) }),
    capabilities: Type.Object({ payment: Type.Object({ handlers: Type.Array(Type.Object({}, { additionalProperties: true })) }) }),
    buyer: Type.Optional(
      Type.Object({ first_name: Type.Optional(Type.String()), last_name: Type.Optional(Type.String()), email: Type.String(), phone_number: Type.Optional(Type.String()) }),
    ),
    status: Type.Union(['not_ready_for_payment', 'ready_for_payment', 'completed', 'canceled'].map((status) => Type.Literal(status))),
    currency: Type.String({ description: 'ISO 4217, lower case.' }),
    locale: Type.Optional(Type.String({ description: 'The language of the names.' })),
    line_items: Type.Array(AcpLineItemSchema),
    fulfillment_details: Type.Optional(Type.Object({ name: Type.Optional(Type.String()), phone_number: Type.Optional(Type.String()), address: Type.Optional(AddressOut) })),
    fulfillment_options: Type.Array(Type.Object({ type: Type.Literal('shipping'), id: Type.String(), title: Type.String(), totals: Type.Array(Total) })),
    selected_fulfillment_options: Type.Optional(
      Type.Array(Type.Object({ type: Type.Literal('shipping'), option_id: Type.String(), item_ids: Type.Array(Type.String()) })),
    ),
    totals: AcpTotalsSchema,
    messages: Type.Array(AcpMessageSchema),
    links: Type.Array(Type.Object({ type: Type.String(), url: Type.String() })),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
    expires_at: Type.String({ format: 'date-time', description: "The sandbox key's expiry, which the session shares." }),
    continue_url: Type.Optional(Type.String({ format: 'uri' })),
    metadata: Type.Object({ environment: Type.Literal('sandbox'), simulated: Type.Literal(true) }, { description: 'Every session is simulated.' }),
  },
  { title: 'AcpCheckoutSession' },
);

export const AcpCheckoutSessionWithOrderSchema = Type.Object(
  {
    ...AcpCheckoutSessionSchema.properties,
    order: Type.Object({
      id: Type.String({ description: 'The simulated order: sandbox_order_ + 24 hex.' }),
      checkout_session_id: Type.String(),
      permalink_url: Type.String({ format: 'uri', description: 'The completed session.' }),
    }),
  },
  { title: 'AcpCheckoutSessionWithOrder' },
);
