import { Type, type Static } from 'typebox';
import type { LiveCatalog } from '../../catalog/read-model/live-catalog.js';
import type { CheckoutLineInput } from '../../sandbox/checkout/checkout-service.js';
import { AcpProblem } from '../errors.js';

/*
 * The checkout requests as this service validates them, written from the release's
 * OpenAPI (openapi.agentic_checkout.yaml): the fields the sandbox reads are checked as
 * the release defines them; the ones it accepts and does not read (attribution, risk
 * signals, intent traces, capabilities) are taken as any object of their kind. Unknown
 * top-level fields are refused, as the release's additionalProperties: false does.
 */

const text = (description: string, maxLength = 1024) => Type.String({ maxLength, description });
const Anything = (description: string) => Type.Object({}, { additionalProperties: true, description });

export const AcpAddress = Type.Object(
  {
    name: text('Recipient name.', 256),
    line_one: text('Street address.', 256),
    line_two: Type.Optional(text('Apartment, suite...', 256)),
    city: text('City.', 256),
    state: text('State, province or region.', 256),
    country: Type.String({ pattern: '^[A-Za-z]{2}$', description: 'ISO 3166-1 alpha-2: a served country selling the session\'s currency moves its market there.' }),
    postal_code: text('Postal code.', 64),
  },
  { additionalProperties: false },
);

export const AcpBuyer = Type.Object(
  {
    first_name: Type.Optional(text('Kept.', 256)),
    last_name: Type.Optional(text('Kept.', 256)),
    full_name: Type.Optional(text('Accepted, not kept.', 256)),
    email: Type.String({ format: 'email', maxLength: 320, description: 'Kept.' }),
    phone_number: Type.Optional(text('Kept.', 64)),
    customer_id: Type.Optional(text('Accepted, not kept.', 256)),
    account_type: Type.Optional(Type.Union([Type.Literal('guest'), Type.Literal('registered'), Type.Literal('business')])),
    authentication_status: Type.Optional(Type.Union([Type.Literal('authenticated'), Type.Literal('guest'), Type.Literal('requires_signin')])),
    company: Type.Optional(Anything('Accepted, not kept.')),
    loyalty: Type.Optional(Anything('Accepted, not kept.')),
    tax_exemption: Type.Optional(Anything('Accepted, not kept: the sandbox charges no tax.')),
  },
  { additionalProperties: false },
);
export type AcpBuyer = Static<typeof AcpBuyer>;

export const AcpItem = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 255, description: 'A catalog variant id (catalog answers carry it). Each item is one unit: an id given n times is a line of quantity n.' }),
    name: Type.Optional(text('Ignored: the catalog names the item.')),
    unit_amount: Type.Optional(Type.Integer({ description: 'Ignored: the live catalog prices the item.' })),
  },
  { additionalProperties: false },
);

export const AcpFulfillmentDetails = Type.Object(
  {
    name: Type.Optional(text('Contact name; the address keeps its own.', 256)),
    phone_number: Type.Optional(text('Kept with the address.', 64)),
    email: Type.Optional(Type.String({ format: 'email', maxLength: 320, description: 'Accepted, not kept: the sandbox sends nothing.' })),
    address: Type.Optional(AcpAddress),
  },
  { additionalProperties: false },
);
export type AcpFulfillmentDetails = Static<typeof AcpFulfillmentDetails>;

const Discounts = Type.Object(
  { codes: Type.Optional(Type.Array(text('A code.', 255), { maxItems: 20 })) },
  { additionalProperties: false, description: 'The sandbox has no discounts: each code is answered with a warning discount_code_invalid.' },
);
const Coupons = Type.Array(text('A code.', 255), { maxItems: 20, description: 'Deprecated in the release for discounts.codes; answered the same way.' });

const LINE_ITEMS_MAX = 1000;
export const LineItems = (description: string) => Type.Array(AcpItem, { minItems: 1, maxItems: LINE_ITEMS_MAX, description });

/** Every item must name a variant of the catalog (the release's invalid_item_id); one that is, but cannot be bought now, is answered with a message. */
export function requireKnownItems(catalog: LiveCatalog, items: readonly { id: string }[]): void {
  const unknown = items.findIndex((item) => !catalog.variantById.has(item.id));
  if (unknown >= 0) {
    throw new AcpProblem(400, 'invalid_item_id', `Item ${items[unknown]!.id} is not in the catalog: use the id of a catalog variant.`, `$.line_items[${unknown}].id`);
  }
}

/** Each item is one unit; the sandbox adds up the units of one variant into one line (of a session or a cart). */
export function linesOf(items: readonly { id: string }[]): CheckoutLineInput[] {
  return items.map((item) => ({ variant_id: item.id, quantity: 1 }));
}

export const AcpCreateRequest = Type.Object(
  {
    buyer: Type.Optional(AcpBuyer),
    line_items: LineItems('The items to buy.'),
    currency: Type.String({ pattern: '^[A-Za-z]{3}$', description: 'ISO 4217 (lower case in the release): picks the market, with the address\'s country when one is given.' }),
    fulfillment_details: Type.Optional(AcpFulfillmentDetails),
    capabilities: Anything("The agent's capabilities: accepted; the answer states the seller's."),
    fulfillment_groups: Type.Optional(Type.Array(Anything('Accepted, not read.'), { maxItems: LINE_ITEMS_MAX })),
    affiliate_attribution: Type.Optional(Anything('Accepted, not kept.')),
    coupons: Type.Optional(Coupons),
    discounts: Type.Optional(Discounts),
    locale: Type.Optional(text('Accepted; the market picks the language.', 64)),
    timezone: Type.Optional(text('Accepted, not read.', 64)),
    quote_id: Type.Optional(text('Accepted, not read.', 255)),
    metadata: Type.Optional(Anything('Accepted, not kept.')),
  },
  { additionalProperties: false },
);
export type AcpCreateRequest = Static<typeof AcpCreateRequest>;

export const AcpSelectedFulfillmentOption = Type.Object(
  {
    type: Type.Union([Type.Literal('shipping'), Type.Literal('digital'), Type.Literal('pickup'), Type.Literal('local_delivery')]),
    option_id: Type.String({ maxLength: 255, description: 'One of the session\'s fulfillment_options.' }),
    item_ids: Type.Array(Type.String({ maxLength: 255 }), { maxItems: LINE_ITEMS_MAX, description: 'Accepted: the one shipping option serves every line.' }),
  },
  { additionalProperties: false },
);

export const AcpUpdateRequest = Type.Object(
  {
    buyer: Type.Optional(AcpBuyer),
    line_items: Type.Optional(LineItems('Replaces the session\'s items.')),
    fulfillment_details: Type.Optional(AcpFulfillmentDetails),
    fulfillment_groups: Type.Optional(Type.Array(Anything('Accepted, not read.'), { maxItems: LINE_ITEMS_MAX })),
    selected_fulfillment_options: Type.Optional(
      Type.Array(AcpSelectedFulfillmentOption, { maxItems: 1, description: 'One shipping option for every line; [] clears the choice.' }),
    ),
    coupons: Type.Optional(Coupons),
    discounts: Type.Optional(Discounts),
  },
  { additionalProperties: false },
);
export type AcpUpdateRequest = Static<typeof AcpUpdateRequest>;

export const AcpPaymentData = Type.Object(
  {
    handler_id: Type.Optional(Type.String({ maxLength: 255, description: 'The payment handler of the session\'s capabilities.' })),
    instrument: Type.Optional(
      Type.Object(
        {
          type: Type.String({ maxLength: 64, description: 'card' }),
          credential: Type.Object(
            { type: Type.String({ maxLength: 64 }), token: Type.String({ maxLength: 255, description: 'The payment token.' }) },
            { additionalProperties: true },
          ),
        },
        { additionalProperties: true },
      ),
    ),
    billing_address: Type.Optional(AcpAddress),
    purchase_order_number: Type.Optional(text('Refused: the sandbox takes tokens only.', 255)),
    payment_terms: Type.Optional(Type.Union(['immediate', 'net_15', 'net_30', 'net_60', 'net_90'].map((term) => Type.Literal(term)))),
    due_date: Type.Optional(Type.String({ format: 'date-time' })),
    approval_required: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const AcpCompleteRequest = Type.Object(
  {
    buyer: Type.Optional(AcpBuyer),
    payment_data: AcpPaymentData,
    authentication_result: Type.Optional(Anything('Accepted: the sandbox never asks for 3-D Secure.')),
    affiliate_attribution: Type.Optional(Anything('Accepted, not kept.')),
    risk_signals: Type.Optional(Anything('Accepted, not read.')),
    marketing_consents: Type.Optional(Type.Array(Anything('Accepted, not kept.'), { maxItems: 20 })),
  },
  { additionalProperties: false },
);
export type AcpCompleteRequest = Static<typeof AcpCompleteRequest>;

export const AcpCancelRequest = Type.Object({ intent_trace: Type.Optional(Anything('Accepted, not kept.')) }, { additionalProperties: true });
