import { Type, type Static } from 'typebox';
import type { RefusedLine } from '../../sandbox/cart-service.js';
import type { ProtocolCartView } from '../../sandbox/cart-views.js';
import { unsellableItemMessage, type AcpMessage } from '../checkout/messages.js';
import { AcpBuyer, LineItems } from '../checkout/requests.js';
import { AcpLineItemSchema, AcpMessageSchema, AcpTotalsSchema, acpTotals, soldLineItem } from '../checkout/session.js';

/*
 * ACP's cart (rfc.cart.md, schema.cart.json) over the sandbox's carts
 * (src/sandbox/cart-views.ts, ProtocolCartView): the same carts /sandbox/v1 and UCP
 * serve, in the release's shapes, the line items and totals as a checkout session's.
 * A sandbox cart holds only what can be bought: an item it cannot sell is not added,
 * and the answer says why in a message (the release forbids dropping one silently).
 */

export const AcpCartCreateRequest = Type.Object(
  {
    line_items: LineItems('The items to put in the cart.'),
    buyer: Type.Optional(AcpBuyer),
    locale: Type.Optional(
      Type.String({
        maxLength: 64,
        description:
          "BCP 47 (en-US, it-IT): its region picks the cart's market and so its currency, its language the names' (en or it). Absent: the Accept-Language header's first language. Without a region the sandbox sells in, the default market.",
      }),
    ),
  },
  { additionalProperties: false },
);
export type AcpCartCreateRequest = Static<typeof AcpCartCreateRequest>;

export const AcpCartUpdateRequest = Type.Object(
  {
    line_items: LineItems("The whole cart: these items replace the cart's."),
    buyer: Type.Optional(AcpBuyer),
  },
  { additionalProperties: false },
);
export type AcpCartUpdateRequest = Static<typeof AcpCartUpdateRequest>;

export const AcpCartCancelRequest = Type.Object({}, { additionalProperties: true, description: 'Optional; not read.' });

/**
 * The release's Cart allows no field beyond its list (no metadata), so a sandbox cart says
 * it is simulated in the one place left: an info message, on every answer.
 */
const SIMULATED_NOTE: AcpMessage = {
  type: 'info',
  content_type: 'plain',
  content: "A sandbox cart: simulated. Prices are the live catalog's in the cart's market; nothing is reserved, and nothing is bought until a checkout session completes, simulated too.",
};

export interface CartAnswer {
  /** Where a buyer can carry on without the agent: the storefront. */
  continueUrl: string;
  /** The key's expiry, which the cart shares. */
  expiresAt: Date;
  /** Items the change did not add, and why. */
  refused?: readonly RefusedLine[];
  /** Said about the request besides them (a locale's country not followed). */
  notes?: readonly AcpMessage[];
}

/** A sandbox cart as the release's Cart: minor units, the currency lower-case as the release writes it. */
export function acpCart(cart: ProtocolCartView, { continueUrl, expiresAt, refused = [], notes = [] }: CartAnswer): Record<string, unknown> {
  return {
    id: cart.id,
    line_items: cart.lines.map(soldLineItem),
    currency: cart.currency.toLowerCase(),
    // A shipping option chosen over /sandbox/v1 counts, as it will in a checkout session made from the cart.
    totals: acpTotals(cart.totals, cart.selected_fulfillment_option_id !== undefined),
    messages: [SIMULATED_NOTE, ...refused.map((line) => unsellableItemMessage(line.problem, line.variant_id, 'it was not added to the cart.')), ...notes],
    continue_url: continueUrl,
    expires_at: expiresAt.toISOString(),
  };
}

// The answer as the document describes it; the release's Cart is the authority and the tests check every answer against it.
export const AcpCartSchema = Type.Object(
  {
    id: Type.String({ description: 'sandbox_cart_ + 24 hex: the same cart at /sandbox/v1/carts/{id}.' }),
    line_items: Type.Array(AcpLineItemSchema, { description: "One line per variant, priced from the live catalog in the cart's market; only what can be bought now." }),
    currency: Type.String({ description: "ISO 4217, lower case: the market's, fixed when the cart is created." }),
    totals: AcpTotalsSchema,
    messages: Type.Array(AcpMessageSchema, { description: 'Always an info message saying the cart is simulated; errors for items not added (out_of_stock, region_restricted, invalid).' }),
    continue_url: Type.String({ format: 'uri', description: 'The storefront: the sandbox has no cart page.' }),
    expires_at: Type.String({ format: 'date-time', description: "The sandbox key's expiry, which the cart shares (an update does not extend it)." }),
  },
  { title: 'AcpCart' },
);
