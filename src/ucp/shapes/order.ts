import { Type, type Static } from 'typebox';
import type { OrderView } from '../../sandbox/checkout/checkout-views.js';
import { UCP_PATHS } from '../endpoints.js';
import { LineItem, SIMULATED, SimulatedFields, Totals, ucpLineItem, ucpTotals } from './line-items.js';
import { PostalAddress, postalAddress } from './postal-address.js';

/**
 * A simulated order as UCP's order entity (order.md, schemas/shopping/order.json): the
 * answer of get_order and the body of the order webhook's events, besides `ucp`, which
 * each adds. Amounts are minor units, frozen when the checkout completed. The sandbox
 * ships nothing: every line stays `processing` with nothing fulfilled, under one
 * shipping expectation to the checkout's address, and no fulfillment event or
 * adjustment ever happens.
 */

const LineReference = Type.Object({ id: Type.String({ description: 'A line item of the order.' }), quantity: Type.Integer({ minimum: 1 }) });

/** The order entity's fields (besides `ucp`), for the document: the release's order.json is the authority. */
export const UcpOrderSchema = Type.Object(
  {
    id: Type.String(),
    checkout_id: Type.String({ description: 'The checkout session whose completion made it.' }),
    permalink_url: Type.String({ format: 'uri', description: 'The order on this service: its get_order resource under the REST endpoint.' }),
    line_items: Type.Array(
      Type.Object({
        ...LineItem.properties,
        quantity: Type.Object({ original: Type.Integer({ minimum: 1 }), total: Type.Integer({ minimum: 1 }), fulfilled: Type.Literal(0) }),
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
    totals: Totals,
    ...SimulatedFields,
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

export function ucpOrder(order: OrderView, publicBaseUrl: string): UcpOrder {
  const { fulfillment_option: shipping, totals } = order;
  return {
    id: order.id,
    checkout_id: order.checkout_id,
    permalink_url: orderPermalink(publicBaseUrl, order.id),
    line_items: order.lines.map((line) => ({
      ...ucpLineItem(line),
      quantity: { original: line.quantity, total: line.quantity, fulfilled: 0 },
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
    totals: ucpTotals(totals, shipping.title),
    ...SIMULATED,
  };
}
