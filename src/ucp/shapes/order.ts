import { Type, type Static } from 'typebox';
import type { OrderView } from '../../sandbox/checkout/checkout-views.js';
import { UCP_PATHS } from '../endpoints.js';

/**
 * A simulated order as UCP's order entity (order.md, schemas/shopping/order.json): the
 * answer of get_order and the body of the order webhook's events, besides `ucp`, which
 * each adds. Amounts are minor units, frozen when the checkout completed. The sandbox
 * ships nothing: every line stays `processing` with nothing fulfilled, under one
 * shipping expectation to the checkout's address, and no fulfillment event or
 * adjustment ever happens.
 */

/** What the sandbox keeps of an address, as a shipment's destination. */
type OrderAddress = OrderView['shipping_address'];

const amount = (description: string) => Type.Integer({ minimum: 0, description: `${description}, in minor units of the order's currency.` });

const Total = Type.Object({
  type: Type.String({ description: '`subtotal` (the lines), `fulfillment` (shipping) or `total`.' }),
  display_text: Type.Optional(Type.String()),
  amount: amount('The amount'),
});

const LineReference = Type.Object({ id: Type.String({ description: 'A line item of the order.' }), quantity: Type.Integer({ minimum: 1 }) });

const PostalAddress = Type.Object({
  street_address: Type.Optional(Type.String()),
  extended_address: Type.Optional(Type.String()),
  address_locality: Type.Optional(Type.String()),
  address_region: Type.Optional(Type.String()),
  address_country: Type.Optional(Type.String({ description: 'ISO 3166-1 alpha-2.' })),
  postal_code: Type.Optional(Type.String()),
  first_name: Type.Optional(Type.String()),
  last_name: Type.Optional(Type.String()),
  phone_number: Type.Optional(Type.String()),
});

/** The order entity's fields (besides `ucp`), for the document: the release's order.json is the authority. */
export const UcpOrderSchema = Type.Object(
  {
    id: Type.String(),
    checkout_id: Type.String({ description: 'The checkout session whose completion made it.' }),
    permalink_url: Type.String({ format: 'uri', description: 'The order on this service: its get_order resource under the REST endpoint.' }),
    line_items: Type.Array(
      Type.Object({
        id: Type.String({ description: "The line's variant id: a checkout has one line per variant." }),
        item: Type.Object({
          id: Type.String({ description: 'The variant id.' }),
          title: Type.String({ description: "The product's title, and the variant's option values in parentheses when it has options." }),
          price: amount('The unit price'),
          image_url: Type.Optional(Type.String({ format: 'uri' })),
        }),
        quantity: Type.Object({ original: Type.Integer({ minimum: 1 }), total: Type.Integer({ minimum: 1 }), fulfilled: Type.Literal(0) }),
        totals: Type.Array(Total),
        status: Type.Literal('processing', { description: 'Nothing is ever shipped from the sandbox.' }),
      }),
    ),
    fulfillment: Type.Object({
      expectations: Type.Array(
        Type.Object({
          id: Type.String(),
          line_items: Type.Array(LineReference),
          method_type: Type.Literal('shipping'),
          destination: PostalAddress,
          description: Type.String({ description: 'The simulated shipping option chosen.' }),
        }),
      ),
      events: Type.Array(Type.Object({}, { additionalProperties: true }), { maxItems: 0, description: 'Always empty: nothing is shipped.' }),
    }),
    currency: Type.String({ description: 'ISO 4217, the checkout session\'s.' }),
    totals: Type.Array(Total),
    environment: Type.Literal('sandbox'),
    simulated: Type.Literal(true, { description: 'Nothing real was bought, paid or shipped.' }),
  },
  { title: 'UcpOrder' },
);

export type UcpOrder = Static<typeof UcpOrderSchema>;

/** The one expectation of a sandbox order: everything ships together. */
const SHIPMENT_ID = 'shipment_1';

/** Where an order is read on this service (its get_order resource). */
export function orderPermalink(publicBaseUrl: string, orderId: string): string {
  return `${publicBaseUrl}${UCP_PATHS.rest}/orders/${encodeURIComponent(orderId)}`;
}

/** A sandbox address as UCP's postal address (types/postal_address.json); a whole `name` has no field there and is left out. */
export function postalAddress(address: OrderAddress): Static<typeof PostalAddress> {
  const fields: Static<typeof PostalAddress> = {
    street_address: address.line_one,
    extended_address: address.line_two,
    address_locality: address.city,
    address_region: address.state,
    address_country: address.country,
    postal_code: address.postal_code,
    first_name: address.first_name,
    last_name: address.last_name,
    phone_number: address.phone_number,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

export function ucpOrder(order: OrderView, publicBaseUrl: string): UcpOrder {
  const { fulfillment_option: shipping, totals } = order;
  return {
    id: order.id,
    checkout_id: order.checkout_id,
    permalink_url: orderPermalink(publicBaseUrl, order.id),
    line_items: order.lines.map((line) => ({
      id: line.variant_id,
      item: {
        id: line.variant_id,
        title: line.item.variant_display_name === null ? line.item.title : `${line.item.title} (${line.item.variant_display_name})`,
        price: line.unit_price,
        ...(line.item.image_url !== null && { image_url: line.item.image_url }),
      },
      quantity: { original: line.quantity, total: line.quantity, fulfilled: 0 },
      totals: [
        { type: 'subtotal', amount: line.line_total },
        { type: 'total', amount: line.line_total },
      ],
      status: 'processing',
    })),
    fulfillment: {
      expectations: [
        {
          id: SHIPMENT_ID,
          line_items: order.lines.map((line) => ({ id: line.variant_id, quantity: line.quantity })),
          method_type: 'shipping',
          destination: postalAddress(order.shipping_address),
          description: shipping.title,
        },
      ],
      events: [],
    },
    currency: order.currency,
    totals: [
      { type: 'subtotal', amount: totals.subtotal },
      { type: 'fulfillment', display_text: shipping.title, amount: totals.fulfillment },
      { type: 'total', amount: totals.total },
    ],
    environment: 'sandbox',
    simulated: true,
  };
}
