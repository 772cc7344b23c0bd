import { Type, type Static } from 'typebox';
import type { OrderView } from '../../sandbox/checkout/checkout-views.js';

/**
 * UCP's postal address (types/postal_address.json) and the sandbox's address
 * (src/sandbox/checkout/checkout-store.ts, CheckoutAddress), both ways: the fields have
 * other names, and a whole `name` (ACP's) has no field in UCP.
 */

/** The sandbox's address, as its views carry it (the store module is the sandbox's own). */
type CheckoutAddress = OrderView['shipping_address'];

/** An address as answers carry it, for the document. */
export const PostalAddress = Type.Object({
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

const text = (maxLength: number, description?: string) => Type.Optional(Type.String({ maxLength, ...(description && { description }) }));

/** An address as a request gives it: the country is required, since it decides the market (src/sandbox/cart-pricing.ts, cartMarket). */
export const PostalAddressInput = Type.Object(
  {
    street_address: text(120, 'Needed to complete a checkout.'),
    extended_address: text(120),
    address_locality: text(80, 'The city: needed to complete a checkout.'),
    address_region: text(80),
    address_country: Type.String({
      pattern: '^[A-Za-z]{2}$',
      description:
        "ISO 3166-1 alpha-2, any case (the alpha-3 codes and names UCP tolerates are not accepted here). A served country whose region sells the checkout's currency prices the checkout in its market.",
    }),
    postal_code: text(20, 'Needed to complete a checkout.'),
    first_name: text(128),
    last_name: text(128),
    phone_number: text(40),
  },
  { additionalProperties: true },
);
export type PostalAddressInput = Static<typeof PostalAddressInput>;

/** A sandbox address as UCP's postal address; a whole `name` has no field there and is left out. */
export function postalAddress(address: CheckoutAddress): Static<typeof PostalAddress> {
  return present({
    street_address: address.line_one,
    extended_address: address.line_two,
    address_locality: address.city,
    address_region: address.state,
    address_country: address.country,
    postal_code: address.postal_code,
    first_name: address.first_name,
    last_name: address.last_name,
    phone_number: address.phone_number,
  });
}

/** A UCP postal address as the sandbox keeps it. */
export function checkoutAddress(address: PostalAddressInput): CheckoutAddress {
  return {
    ...present({
      line_one: address.street_address,
      line_two: address.extended_address,
      city: address.address_locality,
      state: address.address_region,
      postal_code: address.postal_code,
      first_name: address.first_name,
      last_name: address.last_name,
      phone_number: address.phone_number,
    }),
    country: address.address_country,
  };
}

/** The fields that have a value. */
function present<T extends Record<string, string | undefined>>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>;
}
