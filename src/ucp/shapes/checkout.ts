import { Type, type Static } from 'typebox';
import { MAX_ID_LENGTH } from '../../catalog/queries/lookup.js';
import { MAX_CHECKOUT_LINES, type CheckoutCreateInput, type CheckoutUpdateInput } from '../../sandbox/checkout/checkout-service.js';
import type { CheckoutSessionView } from '../../sandbox/checkout/checkout-views.js';
import { UcpMessageSchema, UcpProtocolError } from '../errors.js';
import { checkoutProblemMessage, type UcpMessage } from '../messages.js';
import type { Negotiated } from '../negotiation/negotiated.js';
import { EXTENSIONS } from '../version.js';
import { commonFields } from './catalog-schemas.js';
import { ContextEcho, contextEcho } from './context.js';
import { Discounts, DiscountsInput } from './discounts.js';
import { bodyId, LineItem, LineItemsInput, pricedTotals, SIMULATED, SimulatedFields, Totals, ucpLineItem } from './line-items.js';
import { orderPermalink } from './order.js';
import { checkoutAddress, PostalAddress, PostalAddressInput, postalAddress } from './postal-address.js';

/*
 * UCP's checkout (checkout.md, schemas/shopping/checkout.json) and the extensions the
 * sandbox honours on it (fulfillment.md, buyer-consent.md; discount.md in discounts.ts)
 * over the sandbox's checkout sessions (src/sandbox/checkout/): requests mapped to the
 * session's choices, sessions rendered in minor units with their problems as messages.
 * An extension's fields are read and answered only when it was negotiated (overview.md,
 * Response Capability Selection).
 */

const text = (maxLength: number) => Type.Optional(Type.String({ maxLength }));

const Consent = Type.Object(
  {
    analytics: Type.Optional(Type.Boolean()),
    preferences: Type.Optional(Type.Boolean()),
    marketing: Type.Optional(Type.Boolean()),
    sale_of_data: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: true, description: 'The buyer consent extension (dev.ucp.shopping.buyer_consent), when negotiated: recorded on the session and echoed; nothing is ever sent to the buyer.' },
);

const buyerFields = { first_name: text(128), last_name: text(128), email: text(254), phone_number: text(40) };

const BuyerInput = Type.Object({ ...buyerFields, consent: Type.Optional(Consent) }, { additionalProperties: true, description: 'Kept and echoed; no field is required, since nothing is ever sent to the buyer.' });
type BuyerInput = Static<typeof BuyerInput>;

const Destination = Type.Object(
  { id: Type.Optional(Type.String({ maxLength: 64, description: 'Matched by selected_destination_id; answers name the destination destination_1.' })), ...PostalAddressInput.properties },
  { additionalProperties: true },
);
type Destination = Static<typeof Destination>;

const FulfillmentMethodInput = Type.Object(
  {
    id: Type.Optional(Type.String({ maxLength: 64 })),
    type: Type.Literal('shipping', { description: 'Shipping is the only method (allows_method_combinations: [["shipping"]]).' }),
    line_item_ids: Type.Optional(Type.Array(Type.String({ maxLength: MAX_ID_LENGTH }), { maxItems: MAX_CHECKOUT_LINES, description: 'Ignored: every line ships.' })),
    destinations: Type.Optional(Type.Array(Destination, { maxItems: 10 })),
    selected_destination_id: Type.Optional(Type.Union([Type.String({ maxLength: 64 }), Type.Null()], { description: 'The destination shipped to; with a single destination it may be left out.' })),
    groups: Type.Optional(
      Type.Array(
        Type.Object(
          { id: Type.Optional(Type.String({ maxLength: 64 })), selected_option_id: Type.Optional(Type.Union([Type.String({ maxLength: 64 }), Type.Null()])) },
          { additionalProperties: true },
        ),
        { maxItems: 1, description: 'One group: everything ships together.' },
      ),
    ),
  },
  { additionalProperties: true },
);
type FulfillmentMethodInput = Static<typeof FulfillmentMethodInput>;

const FulfillmentInput = Type.Object(
  { methods: Type.Optional(Type.Array(FulfillmentMethodInput, { maxItems: 1, description: 'One shipping method to one destination (allows_multi_destination.shipping: false).' })) },
  {
    additionalProperties: true,
    description: 'The fulfillment extension (dev.ucp.shopping.fulfillment), when negotiated: the destination and the option selected. On update, its absence clears both.',
  },
);
type FulfillmentInput = Static<typeof FulfillmentInput>;

const checkoutFields = {
  line_items: LineItemsInput,
  ...commonFields,
  buyer: Type.Optional(BuyerInput),
  fulfillment: Type.Optional(FulfillmentInput),
  discounts: Type.Optional(DiscountsInput),
  payment: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'Not read here: complete_checkout takes the instrument.' })),
};

export const CheckoutCreateRequest = Type.Object(
  {
    ...checkoutFields,
    cart_id: Type.Optional(
      Type.String({
        maxLength: MAX_ID_LENGTH,
        description: "A cart of the key to check out (the cart capability's conversion): its lines and market are used and line_items and context are ignored; the key's open checkout of the cart is answered if it has one.",
      }),
    ),
  },
  {
    additionalProperties: true,
    description:
      "A new checkout: its lines, and the context that picks its market (as create_cart's), or a cart_id; the buyer and, with the fulfillment extension, the destination and option.",
  },
);
export type CheckoutCreateRequest = Static<typeof CheckoutCreateRequest>;

export const CheckoutUpdateRequest = Type.Object(
  {
    id: bodyId('checkout'),
    ...checkoutFields,
  },
  {
    additionalProperties: true,
    description:
      "The whole checkout: its lines, buyer and (with the fulfillment extension) fulfillment replace the session's, and what is left out is cleared. The currency stays the session's; context is not read.",
  },
);
export type CheckoutUpdateRequest = Static<typeof CheckoutUpdateRequest>;

const Instrument = Type.Object(
  {
    id: Type.String({ maxLength: 128 }),
    handler_id: Type.String({ maxLength: 128, description: 'sandbox_payment: an instrument of another handler names no sandbox token (unknown_instrument).' }),
    type: Type.String({ maxLength: 64, description: 'card' }),
    selected: Type.Optional(Type.Boolean({ description: 'Marks the instrument paid with when there are several.' })),
    credential: Type.Optional(
      Type.Object(
        { type: Type.String({ maxLength: 64, description: 'sandbox_token' }), token: Type.Optional(Type.String({ maxLength: 256, description: 'A sandbox token.' })) },
        { additionalProperties: true },
      ),
    ),
  },
  { additionalProperties: true },
);
type Instrument = Static<typeof Instrument>;

export const CheckoutCompleteRequest = Type.Object(
  {
    payment: Type.Object(
      { instruments: Type.Array(Instrument, { minItems: 1, maxItems: 10 }) },
      { additionalProperties: true, description: 'The instrument to pay with: the selected one, or the only one.' },
    ),
    signals: commonFields.signals,
    attribution: commonFields.attribution,
  },
  {
    additionalProperties: true,
    description:
      'Pays with a sandbox instrument of the sandbox_payment handler: { id, handler_id: "sandbox_payment", type: "card", credential: { type: "sandbox_token", token } }.',
  },
);
export type CheckoutCompleteRequest = Static<typeof CheckoutCompleteRequest>;

/** The sandbox token an instrument names: none unless it is the sandbox handler's (the sandbox then refuses it as unknown_instrument). */
export function sandboxToken(instrument: Instrument, handlerId: string, credentialType: string): string {
  const { credential } = instrument;
  return instrument.handler_id === handlerId && credential?.type === credentialType ? (credential.token ?? '') : '';
}

/** The instrument a completion pays with: the selected one, else the only one; several and none selected is 400. */
export function chosenInstrument({ payment: { instruments } }: CheckoutCompleteRequest): Instrument {
  const selected = instruments.filter((instrument) => instrument.selected === true);
  const chosen = selected.length === 1 ? selected[0] : instruments.length === 1 ? instruments[0] : undefined;
  if (!chosen) throw new UcpProtocolError(400, 'invalid_request', 'payment.instruments holds several instruments: mark the one to pay with selected: true.');
  return chosen;
}

/** Whether a request reads and an answer shows each extension of the checkout. */
function extensionsOf(negotiated: Negotiated) {
  const { capabilities } = negotiated;
  return { fulfillment: capabilities.has(EXTENSIONS.fulfillment), consent: capabilities.has(EXTENSIONS.buyerConsent) };
}

/** A destination and an option are what the sandbox keeps of the fulfillment extension. */
function destinationOf(method: FulfillmentMethodInput | undefined): Destination | undefined {
  const destinations = method?.destinations ?? [];
  const selected = method?.selected_destination_id;
  if (selected === undefined || selected === null) return destinations.length === 1 ? destinations[0] : undefined;
  const destination = destinations.find((candidate) => candidate.id === selected);
  if (!destination) throw new UcpProtocolError(400, 'invalid_request', `fulfillment.methods[0].selected_destination_id ${selected} names none of its destinations.`);
  return destination;
}

function buyerInput(buyer: BuyerInput, consent: boolean): BuyerInput {
  if (consent) return buyer;
  const { consent: _ignored, ...fields } = buyer;
  return fields;
}

type ChoicesPayload = { buyer?: BuyerInput; fulfillment?: FulfillmentInput };

/**
 * What a create (`null`s never: absent is left as it is, or as the cart has it) or an
 * update (full replacement: absent is cleared) sets of the buyer, the address and the
 * fulfillment option. Without the fulfillment extension the address and option are
 * neither read nor cleared: the platform cannot see them.
 */
export function checkoutChoices(payload: ChoicesPayload, negotiated: Negotiated, replace: false): Pick<CheckoutCreateInput, 'buyer' | 'shipping_address' | 'fulfillment_option_id'>;
export function checkoutChoices(payload: ChoicesPayload, negotiated: Negotiated, replace: true): Omit<CheckoutUpdateInput, 'lines'>;
export function checkoutChoices(payload: ChoicesPayload, negotiated: Negotiated, replace: boolean): Omit<CheckoutUpdateInput, 'lines'> {
  const extensions = extensionsOf(negotiated);
  const cleared = replace ? null : undefined;
  const choices: Omit<CheckoutUpdateInput, 'lines'> = { buyer: payload.buyer ? buyerInput(payload.buyer, extensions.consent) : cleared };
  if (!extensions.fulfillment) return choices;
  const method = payload.fulfillment?.methods?.[0];
  const destination = destinationOf(method);
  return {
    ...choices,
    shipping_address: destination ? checkoutAddress(destination) : cleared,
    fulfillment_option_id: method?.groups?.[0]?.selected_option_id ?? cleared,
  };
}

/** The ids a sandbox session's fulfillment answers with: one method, one destination, one group. */
const FULFILLMENT_IDS = { method: 'shipping_1', destination: 'destination_1', group: 'package_1' } as const;

const Fulfillment = Type.Object({
  methods: Type.Array(
    Type.Object({
      id: Type.Literal(FULFILLMENT_IDS.method),
      type: Type.Literal('shipping'),
      line_item_ids: Type.Array(Type.String()),
      destinations: Type.Optional(Type.Array(Type.Object({ id: Type.Literal(FULFILLMENT_IDS.destination), ...PostalAddress.properties }))),
      selected_destination_id: Type.Union([Type.Literal(FULFILLMENT_IDS.destination), Type.Null()]),
      groups: Type.Array(
        Type.Object({
          id: Type.Literal(FULFILLMENT_IDS.group),
          line_item_ids: Type.Array(Type.String()),
          options: Type.Array(
            Type.Object({ id: Type.String(), title: Type.String(), totals: Type.Array(Type.Object({ type: Type.Literal('total'), amount: Type.Integer({ minimum: 0 }) })) }),
            { description: "The simulated shipping options of the session's currency." },
          ),
          selected_option_id: Type.Union([Type.String(), Type.Null()]),
        }),
      ),
    }),
  ),
}, { description: 'With the fulfillment extension: one shipping method of every line to one destination, in one group.' });
type Fulfillment = Static<typeof Fulfillment>;

function ucpFulfillment(session: CheckoutSessionView): Fulfillment {
  const lineIds = session.lines.map((line) => line.variant_id);
  const address = session.shipping_address;
  return {
    methods: [
      {
        id: FULFILLMENT_IDS.method,
        type: 'shipping',
        line_item_ids: lineIds,
        ...(address && { destinations: [{ id: FULFILLMENT_IDS.destination, ...postalAddress(address) }] }),
        selected_destination_id: address ? FULFILLMENT_IDS.destination : null,
        groups: [
          {
            id: FULFILLMENT_IDS.group,
            line_item_ids: lineIds,
            options: session.fulfillment_options.map((option) => ({ id: option.id, title: option.title, totals: [{ type: 'total', amount: option.amount }] })),
            selected_option_id: session.selected_fulfillment_option_id ?? null,
          },
        ],
      },
    ],
  };
}

export const CheckoutResult = Type.Object({
  id: Type.String(),
  status: Type.Union([Type.Literal('incomplete'), Type.Literal('ready_for_complete'), Type.Literal('completed'), Type.Literal('canceled')], {
    description: 'incomplete while messages list errors to fix, ready_for_complete without, completed once its order exists, canceled.',
  }),
  currency: Type.String({ description: "ISO 4217: fixed when the checkout is created, the market's." }),
  line_items: Type.Array(LineItem),
  totals: Totals,
  links: Type.Array(Type.Object({ type: Type.String(), url: Type.String({ format: 'uri' }), title: Type.Optional(Type.String()) }), {
    maxItems: 0,
    description: 'The sandbox has no policies to link to.',
  }),
  messages: Type.Optional(
    Type.Array(UcpMessageSchema, {
      description: 'What keeps it from completion (errors, recoverable, each with the JSONPath to fix), a declined payment (payment_failed), discount codes rejected, context hints not followed.',
    }),
  ),
  buyer: Type.Optional(Type.Object({ ...buyerFields, consent: Type.Optional(Consent) }, { description: 'consent with the buyer consent extension.' })),
  context: Type.Optional(ContextEcho),
  fulfillment: Type.Optional(Fulfillment),
  discounts: Type.Optional(Discounts),
  order: Type.Optional(Type.Object({ id: Type.String(), permalink_url: Type.String({ format: 'uri', description: 'Its get_order resource.' }) })),
  continue_url: Type.Optional(Type.String({ format: 'uri', description: 'While not completed or canceled: the storefront (the sandbox has no checkout page).' })),
  expires_at: Type.String({ format: 'date-time', description: 'The checkout expires with the sandbox key that made it.' }),
  ...SimulatedFields,
});
type UcpCheckout = Static<typeof CheckoutResult>;

export interface CheckoutAnswerOptions {
  negotiated: Negotiated;
  continueUrl: string;
  publicBaseUrl: string;
  /** Said about the request besides the session's problems: context hints not followed, discount codes rejected. */
  messages: readonly UcpMessage[];
  /** The discount extension's part, when it is negotiated. */
  discounts?: Static<typeof Discounts>;
}

export function ucpCheckout(session: CheckoutSessionView, options: CheckoutAnswerOptions): UcpCheckout {
  const extensions = extensionsOf(options.negotiated);
  const messages = [...session.problems.map(checkoutProblemMessage), ...options.messages];
  const context = contextEcho(session.market);
  const terminal = session.status === 'completed' || session.status === 'canceled';
  const { buyer } = session;
  return {
    id: session.id,
    status: session.status,
    currency: session.currency,
    line_items: session.lines.map(ucpLineItem),
    totals: pricedTotals(session),
    links: [],
    ...(messages.length > 0 && { messages }),
    ...(buyer && { buyer: buyerInput(buyer, extensions.consent) }),
    ...(context && { context }),
    ...(extensions.fulfillment && { fulfillment: ucpFulfillment(session) }),
    ...(options.discounts && { discounts: options.discounts }),
    ...(session.order_id !== undefined && { order: { id: session.order_id, permalink_url: orderPermalink(options.publicBaseUrl, session.order_id) } }),
    // checkout.md, Continue URL: provided while the session is not terminal, omitted after.
    ...(!terminal && { continue_url: options.continueUrl }),
    expires_at: session.expires_at,
    ...SIMULATED,
  };
}
