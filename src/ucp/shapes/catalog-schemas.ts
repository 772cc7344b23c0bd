import { Type, type Static, type TSchema } from 'typebox';
import { DEFAULT_LIMIT } from '../../catalog/queries/catalog-service.js';
import { MAX_CURSOR_LENGTH } from '../../catalog/queries/cursor.js';
import { MAX_ID_LENGTH, MAX_LOOKUP_IDENTIFIERS } from '../../catalog/queries/lookup.js';
import { MAX_FILTER_VALUES, MAX_PAGE_SIZE, MAX_QUERY_LENGTH } from '../../catalog/public-api/query-schemas.js';
import { UcpContext } from './context.js';

/*
 * The schemas of UCP's catalog requests and answers as this service serves them, written
 * from the meaning of the UCP 2026-04-08 catalog capability (search and lookup). Answer
 * schemas have an `$id` (their name in /openapi.json's components); request schemas are
 * inlined in the routes and tools that take them.
 */

/** Option names, labels and category values: words, not texts. */
const LABEL_MAX_LENGTH = 200;
/** Selections and relaxation preferences: one per option of a product at most. */
const MAX_SELECTIONS = 20;

const openObject = (description: string) => Type.Optional(Type.Object({}, { additionalProperties: true, description }));

/** Fields every catalog, cart and checkout request takes besides its own: the market hints, and what UCP lets a platform pass that we do not use. */
export const commonFields = {
  context: Type.Optional(UcpContext),
  signals: openObject('Platform-observed signals (UCP signals): accepted, not used.'),
  attribution: openObject('Referral context (UCP attribution): accepted, not used.'),
};

export const UcpSearchFilters = Type.Object(
  {
    categories: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: LABEL_MAX_LENGTH }), {
        maxItems: MAX_FILTER_VALUES,
        description: `Category handles (the \`value\` of a product's \`categories\`), up to ${MAX_FILTER_VALUES}: products in any of them or in a category below one. A value that is no category of the catalog matches nothing and is reported in \`messages\`.`,
      }),
    ),
    price: Type.Optional(
      Type.Object(
        {
          min: Type.Optional(Type.Integer({ minimum: 0, description: 'Lowest variant price, inclusive, in minor units.' })),
          max: Type.Optional(Type.Integer({ minimum: 0, description: 'Highest variant price, inclusive, in minor units; not below min.' })),
        },
        {
          description:
            "Variant prices in the market within the bounds, in minor units of context.currency. Applied when context.currency is the market's currency or absent; in another currency it is not applied (prices are not converted) and `messages` says so. Products are kept when a variant is within the bounds, and only those variants are shown.",
        },
      ),
    ),
    available: Type.Optional(
      Type.Boolean({
        description: 'Filter of this service: true keeps the variants that can be bought in the market (and the products with one); false keeps the others.',
      }),
    ),
  },
  {
    additionalProperties: true,
    description: 'Filters, combined with AND. Other members are ignored and reported in `messages`.',
  },
);

const filters = Type.Optional(UcpSearchFilters);

export const UcpSearchRequest = Type.Object(
  {
    query: Type.Optional(
      Type.String({
        maxLength: MAX_QUERY_LENGTH,
        description:
          'Free text over the title (in the locale) and the handle, as /public/v1 searches: case- and accent-insensitive, word prefixes; ordered by relevance, ties newest first. Without it (browsing by filters), newest first. A search needs a query with a word or a filter.',
      }),
    ),
    ...commonFields,
    filters,
    pagination: Type.Optional(
      Type.Object({
        cursor: Type.Optional(
          Type.String({ maxLength: MAX_CURSOR_LENGTH, description: 'The `pagination.cursor` of the previous page, with the same query, filters and context.' }),
        ),
        limit: Type.Optional(
          Type.Integer({ minimum: 1, description: `Page size; default ${DEFAULT_LIMIT}, and at most ${MAX_PAGE_SIZE} are returned whatever is asked.` }),
        ),
      }),
    ),
  },
  { description: 'A catalog search (UCP dev.ucp.shopping.catalog.search).' },
);
export type UcpSearchRequest = Static<typeof UcpSearchRequest>;

export const UcpLookupRequest = Type.Object(
  {
    // The bound is checked by the lookup, which answers UCP's own code for it (request_too_large).
    ids: Type.Array(Type.String({ minLength: 1, maxLength: MAX_ID_LENGTH }), {
      minItems: 1,
      description: `Product ids, variant ids or SKUs, 1 to ${MAX_LOOKUP_IDENTIFIERS} (more is \`request_too_large\`); duplicates are answered once.`,
    }),
    ...commonFields,
    filters,
  },
  { description: 'A batch lookup (UCP dev.ucp.shopping.catalog.lookup).' },
);
export type UcpLookupRequest = Static<typeof UcpLookupRequest>;

const SelectedOption = Type.Object({
  name: Type.String({ maxLength: LABEL_MAX_LENGTH, description: 'Option name, e.g. "Size".' }),
  label: Type.String({ maxLength: LABEL_MAX_LENGTH, description: 'Option value, e.g. "500 g".' }),
  id: Type.Optional(Type.String({ maxLength: LABEL_MAX_LENGTH, description: 'Option value id: none are issued here, so it is ignored.' })),
});

export const UcpGetProductRequest = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: MAX_ID_LENGTH, description: 'A product id, variant id or SKU.' }),
    selected: Type.Optional(
      Type.Array(SelectedOption, {
        maxItems: MAX_SELECTIONS,
        description: 'Option selections so far, each option name once. When no variant matches them all, the lowest-priority ones that match nothing are dropped (see preferences).',
      }),
    ),
    preferences: Type.Optional(
      Type.Array(Type.String({ maxLength: LABEL_MAX_LENGTH }), {
        maxItems: MAX_SELECTIONS,
        description: 'Option names, highest priority first, for relaxing selections; options not named come after, in the order selected.',
      }),
    ),
    ...commonFields,
    filters,
  },
  { description: 'One product in detail (UCP get_product).' },
);
export type UcpGetProductRequest = Static<typeof UcpGetProductRequest>;

const UcpPrice = Type.Object(
  {
    amount: Type.Integer({ minimum: 0, description: 'Minor units of the currency: 1290 is 12.90 EUR.' }),
    currency: Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217; the currency of the market the request resolved to.' }),
  },
  { $id: 'UcpPrice' },
);

const Description = Type.Object({ plain: Type.String() }, { description: 'Plain text; empty when the product has no description.' });

const SelectedOptionOut = Type.Object({ name: Type.String(), label: Type.String() });

const UcpVariant = Type.Object(
  {
    id: Type.String({ description: 'Variant id: the `item.id` of cart and checkout lines.' }),
    sku: Type.String(),
    title: Type.String({ description: 'Option values joined in option order ("500 g / Whole bean"); the product title when it has no options.' }),
    description: Description,
    price: Type.Ref('UcpPrice'),
    availability: Type.Object(
      {
        available: Type.Boolean({ description: 'Purchasable: in stock or on backorder.' }),
        status: Type.Union([Type.Literal('in_stock'), Type.Literal('backorder'), Type.Literal('out_of_stock')]),
      },
      { description: "Derived on every read, as /public/v1's availability." },
    ),
    options: Type.Optional(Type.Array(SelectedOptionOut, { description: "The variant's option values; absent when the product has no options." })),
    inputs: Type.Optional(
      Type.Array(
        Type.Object({
          id: Type.String({ description: 'An identifier of the request.' }),
          match: Type.Union([Type.Literal('exact'), Type.Literal('featured')], {
            description: 'exact: a variant id or SKU; featured: a product id, for which this variant was chosen.',
          }),
        }),
        { minItems: 1, description: 'Lookup answers only: the request identifiers that resolved to this variant.' },
      ),
    ),
  },
  { $id: 'UcpVariant', description: 'A variant priced in the market.' },
);

const productFields = (optionValue: TSchema) => ({
  id: Type.String(),
  handle: Type.String(),
  title: Type.String({ description: 'In the locale, falling back to English.' }),
  description: Description,
  url: Type.String({ format: 'uri', description: 'The storefront page of the product.' }),
  categories: Type.Optional(
    Type.Array(Type.Object({ value: Type.String({ description: 'Category handle, usable in filters.categories.' }), taxonomy: Type.Literal('merchant') }), {
      description: 'The categories the product is in (not their ancestors); absent when none.',
    }),
  ),
  price_range: Type.Object(
    { min: Type.Ref('UcpPrice'), max: Type.Ref('UcpPrice') },
    { description: "Over all the product's variants priced in the market." },
  ),
  media: Type.Optional(
    Type.Array(
      Type.Object({ type: Type.Literal('image'), url: Type.String({ format: 'uri' }), alt_text: Type.Optional(Type.String()) }),
      { description: 'Images in display order, the thumbnail first; absent when none.' },
    ),
  ),
  options: Type.Optional(
    Type.Array(Type.Object({ name: Type.String(), values: Type.Array(optionValue, { minItems: 1 }) }), {
      description: "Each option with the values its variants use; absent when the product has none.",
    }),
  ),
  variants: Type.Array(Type.Ref('UcpVariant'), {
    minItems: 1,
    description: 'The featured variant first (the first that can be bought), then the others in catalog order. Only variants priced in the market and within the filters.',
  }),
  tags: Type.Optional(Type.Array(Type.String())),
  metadata: Type.Optional(Type.Object({ collection: Type.String({ description: 'Handle of the collection the product belongs to.' }) })),
});

const UcpProduct = Type.Object(productFields(Type.Object({ label: Type.String() })), {
  $id: 'UcpProduct',
  description: 'A published product in UCP shape, in the market the request resolved to (amounts in minor units).',
});

const UcpDetailProduct = Type.Object(
  {
    ...productFields(
      Type.Object({
        label: Type.String(),
        available: Type.Boolean({ description: 'A variant with this value and the other selections can be bought.' }),
        exists: Type.Boolean({ description: 'A variant with this value and the other selections is sold in the market within the filters.' }),
      }),
    ),
    selected: Type.Optional(
      Type.Array(SelectedOptionOut, {
        description: 'The effective selections (after relaxation; for a variant id, its options; without selections, the featured variant\'s); absent when the product has no options.',
      }),
    ),
  },
  { $id: 'UcpDetailProduct', description: 'A product with the variants matching the effective selections, featured first.' },
);

export const ucpCatalogSchemas = [UcpPrice, UcpVariant, UcpProduct, UcpDetailProduct];

/** The notes of a catalog answer: hints not followed, filters not applied, identifiers not found. */
const InfoMessages = Type.Optional(
  Type.Array(
    Type.Object({
      type: Type.Literal('info'),
      code: Type.String({
        description:
          'market_fallback (the context names no served market), filter_ignored, unknown_category, price_filter_ignored (filters.price in another currency), not_found (an identifier that names nothing), item_unavailable (an identifier whose product or variant is not sold in the market or not within the filters).',
      }),
      content: Type.String({ description: 'Says what and why; for not_found, the identifier itself.' }),
    }),
    { description: 'Absent when there is nothing to say.' },
  ),
);

export const UcpSearchResult = Type.Object({
  products: Type.Array(Type.Ref('UcpProduct'), {
    description: 'A page of the products matching, in /public/v1\'s order; a product whose variants all fall outside the filters (when both price and available are given) is left out of its page.',
  }),
  pagination: Type.Object({
    cursor: Type.Optional(Type.String({ description: 'For the next page; present exactly when has_next_page.' })),
    has_next_page: Type.Boolean(),
    total_count: Type.Integer({ minimum: 0, description: 'Products matching in the market, on all pages.' }),
  }),
  messages: InfoMessages,
});

export const UcpLookupResult = Type.Object({
  products: Type.Array(Type.Ref('UcpProduct'), {
    description: 'Each product found once, in the order of its first identifier; its variants are those the identifiers resolved to, each with `inputs`.',
  }),
  messages: InfoMessages,
});

export const UcpGetProductResult = Type.Object({
  product: Type.Ref('UcpDetailProduct'),
  messages: InfoMessages,
});
