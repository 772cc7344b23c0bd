import { EXTENSIONS, ROOT_CAPABILITIES, type RootCapability } from './version.js';

/** A capability this service serves, as its business profile declares it. */
export interface ServedCapability {
  name: string;
  /** Its page of the release's specification. */
  spec: string;
  /** Its JSON Schema in the release. */
  schema: string;
  /** The root capabilities an extension extends (overview.md, Extensions); none for a root. */
  extends?: readonly RootCapability[];
  /** The business configuration the profile declares, where the capability defines one. */
  config?: Record<string, unknown>;
}

const { catalogSearch, catalogLookup, cart, checkout, order } = ROOT_CAPABILITIES;

/**
 * What this service serves (docs/ucp.md, Capabilities): the profile declares it and
 * negotiation intersects the platform's capabilities with it. Extensions are declared
 * only where the sandbox honours them: fulfillment (one shipping option, one address),
 * buyer consent (recorded and echoed), and discount, whose codes are all rejected
 * (`discount_code_invalid`), since the sandbox has no discounts to apply.
 */
export const SERVED_CAPABILITIES: readonly ServedCapability[] = [
  { name: catalogSearch, spec: 'catalog/search', schema: 'shopping/catalog_search.json' },
  { name: catalogLookup, spec: 'catalog/lookup', schema: 'shopping/catalog_lookup.json' },
  { name: cart, spec: 'cart', schema: 'shopping/cart.json' },
  { name: checkout, spec: 'checkout', schema: 'shopping/checkout.json' },
  { name: order, spec: 'order', schema: 'shopping/order.json' },
  {
    name: EXTENSIONS.fulfillment,
    spec: 'fulfillment',
    schema: 'shopping/fulfillment.json',
    extends: [checkout],
    config: { allows_multi_destination: { shipping: false }, allows_method_combinations: [['shipping']] },
  },
  { name: EXTENSIONS.discount, spec: 'discount', schema: 'shopping/discount.json', extends: [cart, checkout] },
  { name: EXTENSIONS.buyerConsent, spec: 'buyer-consent', schema: 'shopping/buyer_consent.json', extends: [checkout] },
];
