import { Type, type Static } from 'typebox';
import type { OrderView } from '../../sandbox/checkout/checkout-views.js';

/**
 * UCP's postal address (types/postal_address.json) from the sandbox's address
 * (src/sandbox/checkout/checkout-store.ts, CheckoutAddress): the fields have other
 * names, and a whole `name` (ACP's) has no field in UCP.
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

/** The fields that have a value. */
function present<T extends Record<string, string | undefined>>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>;
}
