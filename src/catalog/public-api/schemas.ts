import { Type, type TSchema } from 'typebox';
import { CATALOG_ERROR_CODES } from './errors.js';
import { LocaleCode } from '../model/locales.js';
import { IDENTIFIER_TYPES } from '../queries/lookup.js';
import { FEED_CHANGE_KINDS } from '../queries/change-feed.js';

/**
 * The catalog resources of the contract. Each has an `$id` equal to its
 * contract name: routes refer to them with `Type.Ref`, and `/openapi.json` lists them
 * under that name in `components.schemas`. A field every answer carries is `required`,
 * null or not: generated clients would otherwise type it as possibly absent.
 */

const nullable = <T extends TSchema>(schema: T, description: string) =>
  Type.Union([schema, Type.Null()], { description });

/** A plain `enum` (not a union of consts), so that clients and generators read it as the list of codes (docs/decisions.md, Invalid queries). */
export const PublicApiErrorCode = Type.Enum(CATALOG_ERROR_CODES, { type: 'string' });

export const Price = Type.Object(
  {
    amount: Type.Number({ description: 'Major-unit amount: 16.5 means 16.50 of the currency. Stored in minor units.' }),
    currency: Type.String({ description: 'ISO 4217 code, upper-case.' }),
  },
  {
    $id: 'Price',
    description:
      "The variant's calculated price for the resolved market: its region-specific price if one exists, else its price in the market currency.",
  },
);

export const PriceRange = Type.Object(
  {
    minimum: Type.Number(),
    maximum: Type.Number(),
    currency: Type.String(),
  },
  {
    $id: 'PriceRange',
    description: "Summary only: minimum and maximum over the product's non-null variant prices. The variant `price` is authoritative.",
  },
);

export const Availability = Type.Object(
  {
    status: Type.Union([Type.Literal('in_stock'), Type.Literal('backorder'), Type.Literal('out_of_stock')]),
    purchasable: Type.Boolean(),
  },
  {
    $id: 'Availability',
    description:
      'Purchasability, derived on every read: `in_stock` when inventory is not managed or the quantity is above 0; else `backorder` when backorder is allowed; else `out_of_stock` (not purchasable). Stock quantities are never exposed.',
  },
);

export const VariantOption = Type.Object(
  { name: Type.String(), value: Type.String() },
  { $id: 'VariantOption' },
);

export const Variant = Type.Object(
  {
    id: Type.String(),
    sku: nullable(Type.String(), 'Stock keeping unit.'),
    display_name: nullable(Type.String(), 'Option values joined in option order, e.g. "500 g / Whole bean"; null when the product has no options.'),
    options: Type.Array(Type.Ref('VariantOption')),
    price: Type.Union([Type.Ref('Price'), Type.Null()], {
      description: 'Calculated price for the resolved market; null when the variant has no price there.',
    }),
    availability: Type.Ref('Availability'),
  },
  { $id: 'Variant' },
);

export const Product = Type.Object(
  {
    id: Type.String(),
    handle: Type.String({ description: 'URL handle, shared across locales; used in `/public/v1/products/{handle}`.' }),
    title: Type.String({ description: 'In the requested locale, falling back to English.' }),
    description: nullable(Type.String(), 'In the requested locale, falling back to English; null when there is none.'),
    thumbnail: nullable(Type.String(), 'Image address; null when there is none.'),
    url: Type.String({ format: 'uri', description: 'Storefront address of the product.' }),
    variants: Type.Array(Type.Ref('Variant')),
    price_range: Type.Union([Type.Ref('PriceRange'), Type.Null()], {
      description: 'Summary only; null when no variant has a price in the market.',
    }),
    categories: Type.Array(Type.Ref('TaxonomyReference'), {
      description: 'The categories the product is in (not their ancestors), titled in the requested locale. See GET /public/v1/categories for the tree.',
    }),
    collection: Type.Union([Type.Ref('TaxonomyReference'), Type.Null()], { description: 'The collection the product belongs to; null when none.' }),
    tags: Type.Array(Type.String(), { description: 'Free tags, usable in the `tag` filter.' }),
    images: Type.Array(Type.Ref('ProductImage'), { description: 'Product images in display order, beside `thumbnail`; empty when there are none.' }),
  },
  { $id: 'Product', description: 'A published product. Draft and weighted products are never served.' },
);

export const TaxonomyReference = Type.Object(
  {
    handle: Type.String({ description: 'Names the category or collection in filters (`category`, `collection`).' }),
    title: Type.String({ description: 'In the requested locale, falling back to English.' }),
  },
  { $id: 'TaxonomyReference', description: 'A category or collection as a product names it.' },
);

export const ProductImage = Type.Object(
  {
    url: Type.String({ format: 'uri' }),
    alt: nullable(Type.String(), 'Text describing the image; null when there is none.'),
  },
  { $id: 'ProductImage' },
);

export const MarketContext = Type.Object(
  {
    locale: LocaleCode,
    country: Type.String({ description: 'ISO 3166-1 alpha-2, upper-case.' }),
    currency: Type.String({ description: 'ISO 4217, upper-case.' }),
    region_id: Type.String({ description: 'The region that serves the country.' }),
  },
  { $id: 'MarketContext', description: 'The market the request resolved to, echoed on every catalog response.' },
);

export const ProductList = Type.Object(
  {
    products: Type.Array(Type.Ref('Product')),
    count: Type.Integer({ description: 'Total number of products matching the query in this market (not the page size).' }),
    limit: Type.Integer(),
    offset: Type.Integer({ description: 'Position of the first product of this page in the full result.' }),
    has_more: Type.Boolean({ description: 'True exactly when `next_cursor` is not null.' }),
    next_cursor: nullable(Type.String(), 'Opaque cursor for the next page; null on the last page.'),
    context: Type.Ref('MarketContext'),
    request_id: Type.String({ format: 'uuid' }),
  },
  { $id: 'ProductList' },
);

export const ProductDetail = Type.Object(
  {
    product: Type.Ref('Product'),
    context: Type.Ref('MarketContext'),
    request_id: Type.String({ format: 'uuid' }),
  },
  { $id: 'ProductDetail' },
);

const identifierFields = {
  type: Type.Enum(IDENTIFIER_TYPES, { type: 'string', description: 'The kind of identifier: the parameter it was given in.' }),
  value: Type.String({ description: 'The identifier as given.' }),
};

export const ProductLookup = Type.Object(
  {
    products: Type.Array(Type.Ref('Product'), {
      description:
        'The products matched, each once even when several identifiers match it, in the order of its first match (product ids first, then variant ids, then SKUs, each in the order given); exactly as the list shows them in the market.',
    }),
    matches: Type.Array(
      Type.Object({
        ...identifierFields,
        product_id: Type.String({ description: 'The product matched, one of `products`.' }),
        variant_id: nullable(Type.String(), 'The variant a variant id or SKU names; null for a product id.'),
      }),
      { description: 'What each identifier that matched something matched, once per identifier, in the order given.' },
    ),
    not_found: Type.Array(Type.Object(identifierFields), {
      description: 'The identifiers that matched nothing, once each, in the order given: unknown, or of a draft or weighted product (never served).',
    }),
    context: Type.Ref('MarketContext'),
    request_id: Type.String({ format: 'uuid' }),
  },
  { $id: 'ProductLookup' },
);

const PRODUCT_COUNT_MARKET =
  'counted in the market of the request; with `available`, only the products available (or not) there, as the product list filter counts them';

export const Category = Type.Object(
  {
    handle: Type.String({ description: 'Pass it as `category` to GET /public/v1/products to list the products in the category and below it.' }),
    title: Type.String({ description: 'In the requested locale, falling back to English.' }),
    parent: nullable(Type.String(), 'Handle of the parent category; null at the top of the tree.'),
    depth: Type.Integer({ minimum: 0, description: '0 at the top of the tree, 1 for a child of a top-level category, and so on.' }),
    product_count: Type.Integer({
      minimum: 0,
      description: `Products the catalog serves in the category or in any category below it, each counted once, ${PRODUCT_COUNT_MARKET}: the \`count\` of GET /public/v1/products?category={handle} with the same market and \`available\`.`,
    }),
  },
  { $id: 'Category', description: 'A category of the tree, titled in the requested locale.' },
);

export const CategoryList = Type.Object(
  {
    categories: Type.Array(Type.Ref('Category'), {
      description: 'Every category, in tree order: each parent before its children, siblings in the catalog\'s order. Empty when the catalog has no categories.',
    }),
    context: Type.Ref('MarketContext'),
    request_id: Type.String({ format: 'uuid' }),
  },
  { $id: 'CategoryList' },
);

export const Collection = Type.Object(
  {
    handle: Type.String({ description: 'Pass it as `collection` to GET /public/v1/products to list the products of the collection.' }),
    title: Type.String({ description: 'In the requested locale, falling back to English.' }),
    product_count: Type.Integer({
      minimum: 0,
      description: `Products the catalog serves in the collection, ${PRODUCT_COUNT_MARKET}: the \`count\` of GET /public/v1/products?collection={handle} with the same market and \`available\`.`,
    }),
  },
  { $id: 'Collection', description: 'A collection, titled in the requested locale.' },
);

export const CollectionList = Type.Object(
  {
    collections: Type.Array(Type.Ref('Collection'), { description: "Every collection, in the catalog's order. Empty when the catalog has none." }),
    context: Type.Ref('MarketContext'),
    request_id: Type.String({ format: 'uuid' }),
  },
  { $id: 'CollectionList' },
);

export const PublicApiError = Type.Object(
  {
    error: Type.Object(
      {
        code: PublicApiErrorCode,
        message: Type.String(),
        hint: Type.String(),
      },
      { required: ['code', 'message', 'hint'] },
    ),
    request_id: Type.String({ format: 'uuid', description: 'Also sent as the `X-Request-Id` header.' }),
  },
  {
    $id: 'PublicApiError',
    description:
      'Catalog error. Codes: REGION_NOT_FOUND (400, invalid or unserved market, including malformed locale/country/currency), INVALID_QUERY (400, invalid q/limit/offset/cursor, an invalid filter or sort value, an unknown category or collection, price_min above price_max, cursor combined with offset, a cursor from another query, market, filters or sort, or a lookup with no, too many or malformed identifiers), INVALID_HANDLE (400), PRODUCT_NOT_FOUND (404, unknown, draft or weighted), CHANGES_EXPIRED (410, a change feed cursor older than the change log keeps), RATE_LIMITED (429), INTERNAL_ERROR (500). Bodies never contain stack traces, SQL or file paths.',
  },
);

export const ChangeFeedEntry = Type.Object(
  {
    cursor: Type.String({ description: 'The feed position right after this change: pass it as `since` (or, on the stream, it is the event id that Last-Event-ID sends back) to resume after it.' }),
    catalog_version: Type.Integer({ description: 'The catalog version this change made.' }),
    changed_at: Type.String({ format: 'date-time', description: 'When the change was committed.' }),
    product_id: Type.String(),
    handle: Type.String(),
    kinds: Type.Array(Type.Enum([...FEED_CHANGE_KINDS], { type: 'string' }), {
      description:
        'What changed: content (texts, options, variants, taxonomy, images), price, availability, published (now served: published, or created published) and withdrawn (no longer served: unpublished or deleted).',
    }),
    product: nullable(Type.Ref('Product'), 'The product as GET /public/v1/products renders it in the market now; null when it is no longer served.'),
  },
  { $id: 'ChangeFeedEntry', description: 'One product change, as the change feed and the change stream serve it.' },
);

export const ChangeFeed = Type.Object(
  {
    changes: Type.Array(Type.Ref('ChangeFeedEntry'), { description: 'The changes after `since`, oldest first; empty without `since`.' }),
    next_cursor: Type.String({ description: 'Opaque position after the last change answered (without `since`: the position of now). Pass it as `since` next time.' }),
    has_more: Type.Boolean({ description: 'True when more changes follow at once: ask again with next_cursor. False: up to date; ask again later, or follow GET /public/v1/changes/stream.' }),
    catalog_version: Type.Integer({ description: 'The catalog version this answer reflects.' }),
    context: Type.Ref('MarketContext'),
    request_id: Type.String({ format: 'uuid' }),
  },
  { $id: 'ChangeFeed' },
);

export const catalogSchemas = [
  Price,
  PriceRange,
  Availability,
  VariantOption,
  Variant,
  TaxonomyReference,
  ProductImage,
  Product,
  MarketContext,
  ProductList,
  ProductDetail,
  ProductLookup,
  Category,
  CategoryList,
  Collection,
  CollectionList,
  ChangeFeedEntry,
  ChangeFeed,
  PublicApiError,
];
