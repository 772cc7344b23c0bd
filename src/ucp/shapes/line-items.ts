import { Type, type Static } from 'typebox';
import { MAX_ID_LENGTH } from '../../catalog/queries/lookup.js';
import { MAX_CHECKOUT_LINES, type CheckoutLineInput } from '../../sandbox/checkout/checkout-service.js';
import type { CheckoutLineView } from '../../sandbox/checkout/checkout-views.js';
import type { LineItemView, PricedParts, TotalsView } from '../../sandbox/line-views.js';
import { MAX_QUANTITY } from '../../sandbox/schemas.js';
import { UcpProtocolError } from '../errors.js';

/*
 * Line items and totals as carts, checkouts and orders share them (types/line_item.json,
 * types/total.json, checkout.md Totals). A line is one variant: its `id` and its
 * `item.id` are the variant id, and lines naming the same variant are added up. Amounts
 * are minor units of the resource's currency.
 */

/** A line as a create or update gives it; what else a platform sends back from an answer (`totals`, the item's title and price) is ignored. */
const LineItemInput = Type.Object(
  {
    id: Type.Optional(Type.String({ maxLength: MAX_ID_LENGTH, description: "A line id of an earlier answer: ignored, the item identifies the line." })),
    item: Type.Object(
      { id: Type.String({ minLength: 1, maxLength: MAX_ID_LENGTH, description: 'A variant id (the `id` of a catalog variant).' }) },
      { additionalProperties: true },
    ),
    quantity: Type.Integer({ minimum: 1, maximum: MAX_QUANTITY, description: `1 to ${MAX_QUANTITY}, also once lines of the same variant are added up.` }),
  },
  { additionalProperties: true },
);

/** The lines of a request, for the descriptions of the operations that take them. */
export const LINE_ITEMS_RULE = `line_items: { item: { id: <variant id> }, quantity } (1 to ${MAX_QUANTITY} per variant once lines of the same variant are added up, else invalid_request).`;

export const LineItemsInput = Type.Array(LineItemInput, {
  maxItems: MAX_CHECKOUT_LINES,
  description: `The whole list of lines, at most ${MAX_CHECKOUT_LINES}: lines naming the same variant are added up into one.`,
});
export type LineItemsInput = Static<typeof LineItemsInput>;

/** The `id` an update may carry (REST bodies of the release do): the resource's own, else 400. */
export const bodyId = (resource: 'cart' | 'checkout') =>
  Type.Optional(Type.String({ maxLength: MAX_ID_LENGTH, description: `The ${resource}'s id, as in the path (REST) or the id argument (MCP); another id is 400.` }));

export function requireBodyId(resource: 'cart' | 'checkout', bodyId: string | undefined, id: string): void {
  if (bodyId !== undefined && bodyId !== id) throw new UcpProtocolError(400, 'invalid_request', `The body names ${resource} ${bodyId}, not ${id}.`);
}

/** The lines of a request as the sandbox takes them. */
export function lineInputs(lineItems: LineItemsInput): CheckoutLineInput[] {
  return lineItems.map((line) => ({ variant_id: line.item.id, quantity: line.quantity }));
}

/** Every sandbox resource (cart, checkout, order) says it is simulated, as every sandbox answer does. */
export const SimulatedFields = {
  environment: Type.Literal('sandbox'),
  simulated: Type.Literal(true, { description: 'Nothing real is bought, paid, reserved or shipped.' }),
};
export const SIMULATED = { environment: 'sandbox', simulated: true } as const;

const amount = (description: string) => Type.Integer({ minimum: 0, description: `${description}, in minor units of the currency.` });

const Total = Type.Object({
  type: Type.String({ description: '`subtotal` (the lines), `fulfillment` (shipping) or `total`.' }),
  display_text: Type.Optional(Type.String()),
  amount: amount('The amount'),
});

export const Totals = Type.Array(Total, { description: 'subtotal, fulfillment once an option is selected (its title as display_text), total: the total is their sum. No tax or discount ever applies.' });

type UcpTotal = Static<typeof Total>;

/** A line's totals: what it costs, with nothing added or taken off. */
export function lineTotals(amount: number): UcpTotal[] {
  return [
    { type: 'subtotal', amount },
    { type: 'total', amount },
  ];
}

/** A cart's, checkout's or order's totals; `fulfillment` names the selected option, whose amount is then shown. */
export function ucpTotals(totals: TotalsView, fulfillment?: string): UcpTotal[] {
  return [
    { type: 'subtotal', amount: totals.subtotal },
    ...(fulfillment === undefined ? [] : [{ type: 'fulfillment', display_text: fulfillment, amount: totals.fulfillment }]),
    { type: 'total', amount: totals.total },
  ];
}

/** The totals of a cart or checkout as priced now: the fulfillment line once an option is selected. */
export function pricedTotals({ totals, fulfillment_options, selected_fulfillment_option_id }: PricedParts): UcpTotal[] {
  return ucpTotals(totals, fulfillment_options.find((option) => option.id === selected_fulfillment_option_id)?.title);
}

/** An item's title: the product's, with the variant's option values in parentheses when it has options. */
export function itemTitle(item: LineItemView): string {
  return item.variant_display_name === null ? item.title : `${item.title} (${item.variant_display_name})`;
}

export const LineItem = Type.Object({
  id: Type.String({ description: 'The variant id: one line per variant.' }),
  item: Type.Object({
    id: Type.String({ description: 'The variant id.' }),
    title: Type.String({ description: "The product's title in the market's language, with the variant's option values in parentheses; the variant id when the catalog no longer has it." }),
    price: amount('The unit price in the market; 0 for a line that cannot be bought (its message says why)'),
    image_url: Type.Optional(Type.String({ format: 'uri' })),
  }),
  quantity: Type.Integer({ minimum: 1 }),
  totals: Type.Array(Total, { description: 'subtotal and total: unit price × quantity, 0 for a line that cannot be bought.' }),
});
type UcpLineItem = Static<typeof LineItem>;

/** A line of a cart or checkout as priced now; one that cannot be bought costs nothing and has its problem among the messages. */
export function ucpLineItem(line: CheckoutLineView): UcpLineItem {
  const sold = 'problem' in line ? undefined : line;
  return {
    id: line.variant_id,
    item: {
      id: line.variant_id,
      title: line.item === null ? line.variant_id : itemTitle(line.item),
      price: sold?.unit_price ?? 0,
      ...(line.item?.image_url && { image_url: line.item.image_url }),
    },
    quantity: line.quantity,
    totals: lineTotals(sold?.line_total ?? 0),
  };
}
