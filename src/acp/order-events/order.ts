import type { OrderView } from '../../sandbox/checkout/checkout-views.js';
import { acpTotals, itemName, orderPermalink, releaseAddress } from '../checkout/session.js';

/**
 * Where a simulated order stands in the events the sandbox sends of it: `created` when
 * its session completes, then `processing` (its shipment being prepared). The sandbox
 * ships nothing, as its UCP orders say (src/ucp/shapes/order.ts): no order goes further,
 * and no carrier or tracking number is ever invented.
 */
export type OrderStage = 'created' | 'processing';

/** The one shipment of a sandbox order: everything ships together. */
const SHIPMENT_ID = 'shipment_1';

const NOTHING_SHIPPED = 'Simulated by the Vetrina sandbox: nothing is shipped, so this shipment has no carrier or tracking.';

/**
 * A simulated order as the release's Order (openapi.agentic_checkout.yaml), the `data`
 * of its webhook events: the whole order, as rfc.orders.md asks of every event, at
 * `stage`. Amounts are minor units, frozen at completion. The release's Order allows no
 * field of its own beyond its list, so being simulated is said where text is free: the
 * shipment's description and events, and the shipping total's label.
 */
export function acpOrder(order: OrderView, stage: OrderStage, publicBaseUrl: string) {
  const destination = releaseAddress(order.shipping_address);
  return {
    type: 'order',
    id: order.id,
    checkout_session_id: order.checkout_id,
    permalink_url: orderPermalink(publicBaseUrl, order.checkout_id),
    status: stage,
    line_items: order.lines.map((line) => ({
      // One line per variant, as in the session: the variant id names the line.
      id: line.variant_id,
      title: itemName(line.item),
      product_id: line.item.product_id,
      ...(line.item.image_url !== null && { image_url: line.item.image_url }),
      quantity: { ordered: line.quantity, current: line.quantity, fulfilled: 0 },
      unit_price: line.unit_price,
      subtotal: line.line_total,
      status: 'processing',
    })),
    fulfillments: [
      {
        id: SHIPMENT_ID,
        type: 'shipping',
        status: stage === 'created' ? 'pending' : 'processing',
        line_items: order.lines.map((line) => ({ id: line.variant_id, quantity: line.quantity })),
        ...(destination && { destination }),
        description: `${order.fulfillment_option.title}. ${NOTHING_SHIPPED}`,
        events: stage === 'created' ? [] : [{ id: `${SHIPMENT_ID}_processing`, type: 'processing', occurred_at: order.created_at, description: NOTHING_SHIPPED }],
      },
    ],
    adjustments: [],
    totals: acpTotals(order.totals, true),
  };
}
