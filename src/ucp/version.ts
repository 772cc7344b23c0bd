/**
 * The Universal Commerce Protocol release this service speaks (docs/ucp.md), and where
 * the release publishes its pages and schemas: a profile names them by these URLs.
 */
export const UCP_VERSION = '2026-04-08';

const RELEASE = `https://ucp.dev/${UCP_VERSION}`;

/** A page of the release's specification, e.g. `checkout`, `catalog/search`. */
export const specUrl = (page: string): string => `${RELEASE}/specification/${page}`;

/** A JSON Schema of the release, e.g. `shopping/checkout.json`. */
export const schemaUrl = (path: string): string => `${RELEASE}/schemas/${path}`;

/** A transport definition of the shopping service, e.g. `rest.openapi.json`. */
export const shoppingServiceUrl = (file: string): string => `${RELEASE}/services/shopping/${file}`;

/** The service every operation here belongs to. */
export const SHOPPING_SERVICE = 'dev.ucp.shopping';

/** The capabilities an operation's answer belongs to (overview.md, Response Capability Selection). */
export const ROOT_CAPABILITIES = {
  catalogSearch: 'dev.ucp.shopping.catalog.search',
  catalogLookup: 'dev.ucp.shopping.catalog.lookup',
  cart: 'dev.ucp.shopping.cart',
  checkout: 'dev.ucp.shopping.checkout',
  order: 'dev.ucp.shopping.order',
} as const;

export type RootCapability = (typeof ROOT_CAPABILITIES)[keyof typeof ROOT_CAPABILITIES];

/** The extensions this service honours (src/ucp/capabilities.ts says which roots each extends). */
export const EXTENSIONS = {
  fulfillment: 'dev.ucp.shopping.fulfillment',
  discount: 'dev.ucp.shopping.discount',
  buyerConsent: 'dev.ucp.shopping.buyer_consent',
} as const;
