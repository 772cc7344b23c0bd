import { Type, type Static } from 'typebox';

/*
 * The feed's shapes as this service serves them, for /openapi.json and the code's types:
 * the subset of the release's schema.feed.json that the catalog fills. The release's
 * schemas are the authority; the tests validate every feed answer against them.
 */

const FeedPrice = Type.Object(
  {
    amount: Type.Integer({ minimum: 0, description: 'In minor units of the currency (cents for EUR).' }),
    currency: Type.String({ pattern: '^[A-Z]{3}$', description: "The market's currency (ISO 4217)." }),
  },
  { additionalProperties: false },
);

const FeedMedia = Type.Object(
  {
    type: Type.Literal('image'),
    url: Type.String({ format: 'uri' }),
    alt_text: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

export const FeedVariantSchema = Type.Object(
  {
    id: Type.String({ description: 'The variant id: the item id a checkout takes.' }),
    title: Type.String({ description: 'The product title, then the option values ("Coffee - 500 g / Whole bean").' }),
    price: Type.Optional(FeedPrice),
    availability: Type.Object(
      {
        available: Type.Boolean({ description: 'Whether the market can buy it now: priced in the market and in stock or on backorder.' }),
        status: Type.Optional(Type.String({ description: 'in_stock, backorder or out_of_stock; absent for a variant without a price in the market.' })),
      },
      { additionalProperties: false },
    ),
    categories: Type.Optional(
      Type.Array(
        Type.Object(
          {
            value: Type.String({ description: 'The category path in the locale, top first ("Pantry > Olive oil").' }),
            taxonomy: Type.Literal('merchant'),
          },
          { additionalProperties: false },
        ),
      ),
    ),
    variant_options: Type.Optional(Type.Array(Type.Object({ name: Type.String(), value: Type.String() }, { additionalProperties: false }))),
  },
  { additionalProperties: false, title: 'AcpFeedVariant' },
);

export const FeedProductSchema = Type.Object(
  {
    id: Type.String({ description: 'The product id, stable across updates.' }),
    title: Type.Optional(Type.String()),
    description: Type.Optional(Type.Object({ plain: Type.String() }, { additionalProperties: false })),
    url: Type.Optional(Type.String({ format: 'uri', description: 'The storefront page (STOREFRONT_URL).' })),
    media: Type.Optional(Type.Array(FeedMedia, { description: 'Images in display order, the thumbnail first.' })),
    variants: Type.Array(FeedVariantSchema, { description: 'Every variant; empty in a push for a product no longer served.' }),
  },
  { additionalProperties: false, title: 'AcpFeedProduct' },
);

export const FeedProductsSchema = Type.Object(
  { products: Type.Array(FeedProductSchema, { description: 'Every published product, newest first.' }) },
  { additionalProperties: false, title: 'AcpFeedProducts' },
);

export const FeedMetadataSchema = Type.Object(
  {
    id: Type.String({ description: 'The feed of this market and locale, e.g. `it-en`.' }),
    target_country: Type.String({ pattern: '^[A-Z]{2}$' }),
    updated_at: Type.Optional(Type.String({ format: 'date-time', description: 'When the catalog version the feed shows was made; absent when the change log no longer holds it.' })),
  },
  { additionalProperties: false, title: 'AcpFeedMetadata' },
);

export type FeedProduct = Static<typeof FeedProductSchema>;
export type FeedVariant = Static<typeof FeedVariantSchema>;
export type FeedMetadata = Static<typeof FeedMetadataSchema>;
