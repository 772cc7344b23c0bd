import { Type, type Static } from 'typebox';
import type { RefusedLine } from '../../sandbox/cart-service.js';
import type { ProtocolCartView } from '../../sandbox/cart-views.js';
import { UcpMessageSchema } from '../errors.js';
import { lineProblemMessage, type UcpMessage } from '../messages.js';
import { commonFields } from './catalog-schemas.js';
import { ContextEcho, contextEcho } from './context.js';
import { Discounts, DiscountsInput } from './discounts.js';
import { bodyId, LineItem, LineItemsInput, pricedTotals, SIMULATED, SimulatedFields, Totals, ucpLineItem } from './line-items.js';

/*
 * UCP's cart (cart.md, schemas/shopping/cart.json) over the sandbox's carts
 * (src/sandbox/cart-views.ts, ProtocolCartView): amounts in minor units, the market
 * the context picked at creation, one line per variant. A sandbox cart holds only what
 * can be bought: lines it cannot sell are not added, and the answer says why.
 */

const cartFields = {
  line_items: LineItemsInput,
  ...commonFields,
  buyer: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'Accepted; a sandbox cart keeps no buyer.' })),
  discounts: Type.Optional(DiscountsInput),
};

export const CartCreateRequest = Type.Object(cartFields, {
  additionalProperties: true,
  description:
    "A new cart: its lines, and the context that picks its market (address_country, else currency, else the default market; language picks the titles' language). Lines the market cannot sell are not added.",
});
export type CartCreateRequest = Static<typeof CartCreateRequest>;

export const CartUpdateRequest = Type.Object(
  {
    id: bodyId('cart'),
    ...cartFields,
  },
  {
    additionalProperties: true,
    description: 'The whole cart: its lines replace the cart\'s. The market stays the one the cart was created in (context is not read).',
  },
);
export type CartUpdateRequest = Static<typeof CartUpdateRequest>;

export const CartResult = Type.Object({
  id: Type.String(),
  line_items: Type.Array(LineItem),
  currency: Type.String({ description: 'ISO 4217: fixed when the cart is created.' }),
  totals: Totals,
  context: Type.Optional(ContextEcho),
  messages: Type.Optional(Type.Array(UcpMessageSchema, { description: 'Lines not added and why; discount codes rejected; context hints not followed.' })),
  discounts: Type.Optional(Discounts),
  continue_url: Type.String({ format: 'uri', description: 'The storefront: the sandbox has no cart page.' }),
  expires_at: Type.String({ format: 'date-time', description: 'The cart expires with the sandbox key that made it.' }),
  ...SimulatedFields,
});
type UcpCart = Static<typeof CartResult>;

export interface CartAnswerOptions {
  continueUrl: string;
  /** The key's expiry, which the cart shares. */
  expiresAt: Date;
  /** Said about the request besides its lines' refusals: context hints not followed, discount codes rejected. */
  messages: readonly UcpMessage[];
  /** The discount extension's part, when it is negotiated. */
  discounts?: Static<typeof Discounts>;
}

/** A line a change did not add to the cart, and why: the cart is there to fix. */
function refusedLineMessage(line: RefusedLine): UcpMessage {
  return lineProblemMessage(line.problem, line.variant_id, 'recoverable', 'it was not added to the cart.');
}

export function ucpCart(cart: ProtocolCartView, refused: readonly RefusedLine[], options: CartAnswerOptions): UcpCart {
  const messages = [...refused.map(refusedLineMessage), ...options.messages];
  const context = contextEcho(cart.market);
  return {
    id: cart.id,
    line_items: cart.lines.map(ucpLineItem),
    currency: cart.currency,
    totals: pricedTotals(cart),
    ...(context && { context }),
    ...(messages.length > 0 && { messages }),
    ...(options.discounts && { discounts: options.discounts }),
    continue_url: options.continueUrl,
    expires_at: options.expiresAt.toISOString(),
    ...SIMULATED,
  };
}
