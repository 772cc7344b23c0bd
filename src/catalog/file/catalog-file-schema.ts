import { Type, type Static, type TOptional } from 'typebox';
import { HANDLE_MAX_LENGTH, HANDLE_PATTERN } from '../model/handle.js';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '../model/locales.js';
import { MAX_CATALOG_CATEGORIES, MAX_CATALOG_COLLECTIONS, MAX_PRODUCT_CATEGORIES, MAX_PRODUCT_IMAGES, MAX_PRODUCT_TAGS, TAXONOMY_HANDLE_MAX_LENGTH } from '../model/taxonomy.js';

/**
 * The catalog file: what `npm run catalog:import` reads and `catalog:generate` writes.
 * `docs/catalog.schema.json` is generated from this schema (`npm run docs:schema`).
 */

/** Every code of two capital letters: the most countries, and so regions, a file can name. */
const MAX_COUNTRIES = 26 * 26;

export const CatalogFileRegion = Type.Object(
  {
    id: Type.String({ pattern: '^[a-z0-9_]{1,64}$', description: 'Stable region id, echoed as `region_id`, e.g. "reg_eu".' }),
    name: Type.String({ minLength: 1, maxLength: 120 }),
    currency: Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code; a region has exactly one currency.' }),
    countries: Type.Array(Type.String({ pattern: '^[A-Z]{2}$' }), {
      minItems: 1,
      maxItems: MAX_COUNTRIES,
      uniqueItems: true,
      description: 'ISO 3166-1 alpha-2 codes served by this region; a country belongs to one region only.',
    }),
  },
  { additionalProperties: false },
);

export const CatalogFileText = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: 300 }),
    description: Type.Optional(Type.Union([Type.String({ maxLength: 10000 }), Type.Null()])),
  },
  { additionalProperties: false },
);

export const CatalogFilePrice = Type.Object(
  {
    currency: Type.String({ pattern: '^[A-Z]{3}$' }),
    amount: Type.Integer({ minimum: 0, maximum: 1_000_000_000, description: 'Minor units: 1650 means 16.50.' }),
    region: Type.Optional(
      Type.String({ description: 'Region id for a region-specific price; its currency must equal `currency`.' }),
    ),
  },
  { additionalProperties: false },
);

/**
 * Prices per variant: one per currency and region, and a catalog serves a few dozen
 * markets at most. The bound keeps a product's prices (100 variants × 100) a size every
 * write handles in bounded statements (src/store/chunks.ts).
 */
export const MAX_VARIANT_PRICES = 100;

/** Options of a product, and so values of a variant. */
const MAX_PRODUCT_OPTIONS = 3;

/** The longest SKU; the batch lookup takes SKUs of the same bounds. */
export const SKU_MAX_LENGTH = 100;

export const CatalogFileVariant = Type.Object(
  {
    sku: Type.String({ minLength: 1, maxLength: SKU_MAX_LENGTH, description: 'Unique across the catalog; re-imports match variants by SKU.' }),
    options: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
      maxItems: MAX_PRODUCT_OPTIONS,
      description: "One value per product option, in the product's option order.",
    }),
    manage_inventory: Type.Boolean({ default: true }),
    inventory_quantity: Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0 }),
    allow_backorder: Type.Boolean({ default: false }),
    prices: Type.Array(CatalogFilePrice, { maxItems: MAX_VARIANT_PRICES, description: `At most one price per currency and region; at most ${MAX_VARIANT_PRICES}.` }),
  },
  { additionalProperties: false },
);

/** The shape of category, collection and tag handles: the same as product handles, and as short. */
const taxonomyHandle = (description: string) =>
  Type.String({ pattern: HANDLE_PATTERN, maxLength: TAXONOMY_HANDLE_MAX_LENGTH, description });

/** A title per locale; the default locale's is required, the others fall back to it. */
const localizedTitles = Type.Object(
  Object.fromEntries(
    LOCALES.map((locale) => {
      const title = Type.String({ minLength: 1, maxLength: 200 });
      return [locale, locale === DEFAULT_LOCALE ? title : Type.Optional(title)];
    }),
  ),
  { additionalProperties: false, description: `One title per locale; ${DEFAULT_LOCALE} is required, the other locales fall back to it.` },
);

export const CatalogFileCategory = Type.Object(
  {
    handle: taxonomyHandle('Unique among categories; products and the `category` filter name categories by it.'),
    parent: Type.Optional(
      Type.Union([taxonomyHandle('Handle of the parent category, declared in the same file.'), Type.Null()], {
        description: 'The parent category; absent or null for a top-level category. Categories form a tree.',
      }),
    ),
    titles: localizedTitles,
  },
  { additionalProperties: false },
);

export const CatalogFileCollection = Type.Object(
  {
    handle: taxonomyHandle('Unique among collections; products and the `collection` filter name collections by it.'),
    titles: localizedTitles,
  },
  { additionalProperties: false },
);

/**
 * The address of an image or thumbnail, which storefronts and agents follow or embed: a
 * web address only (a `javascript:` or `data:` one would run or carry content there).
 */
const webAddress = Type.String({
  format: 'uri',
  pattern: '^https?://',
  maxLength: 2000,
  description: 'An absolute http:// or https:// address (lowercase scheme).',
});

export const CatalogFileImage = Type.Object(
  {
    url: webAddress,
    alt: Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()], { description: 'Text describing the image.' })),
  },
  { additionalProperties: false },
);

/** The default locale's text is required, every other locale's optional. */
const translationFields = Object.fromEntries(
  LOCALES.map((locale) => [locale, locale === DEFAULT_LOCALE ? CatalogFileText : Type.Optional(CatalogFileText)]),
) as { [L in Locale]: L extends typeof DEFAULT_LOCALE ? typeof CatalogFileText : TOptional<typeof CatalogFileText> };

/** Variants of a product, and so values of one of its options. */
const MAX_PRODUCT_VARIANTS = 100;

export const CatalogFileProduct = Type.Object(
  {
    handle: Type.String({ pattern: HANDLE_PATTERN, maxLength: HANDLE_MAX_LENGTH, description: 'Unique; re-imports match products by handle.' }),
    status: Type.Enum(['draft', 'published'], { description: 'Only published products are served.' }),
    weighted: Type.Boolean({ default: false, description: 'Sold by weight; never served by the catalog.' }),
    thumbnail: Type.Optional(Type.Union([webAddress, Type.Null()])),
    created_at: Type.Optional(
      Type.String({ format: 'date-time', description: 'Defaults to the time of the first import; orders the catalog.' }),
    ),
    translations: Type.Object(translationFields, {
      additionalProperties: false,
      description: `One text per locale; ${DEFAULT_LOCALE} is required, the other locales fall back to it.`,
    }),
    categories: Type.Optional(
      Type.Array(taxonomyHandle('A category handle declared in `categories`.'), {
        maxItems: MAX_PRODUCT_CATEGORIES,
        uniqueItems: true,
        description: 'The categories the product is in; a category filter also finds the products of its subcategories.',
      }),
    ),
    collection: Type.Optional(
      Type.Union([taxonomyHandle('A collection handle declared in `collections`.'), Type.Null()], {
        description: 'The one collection the product belongs to, if any.',
      }),
    ),
    tags: Type.Optional(
      Type.Array(taxonomyHandle('A tag.'), { maxItems: MAX_PRODUCT_TAGS, uniqueItems: true, description: 'Free tags, such as `organic`.' }),
    ),
    images: Type.Optional(
      Type.Array(CatalogFileImage, { maxItems: MAX_PRODUCT_IMAGES, description: 'Product images in display order, beside `thumbnail`.' }),
    ),
    options: Type.Array(
      Type.Object(
        {
          name: Type.String({ minLength: 1, maxLength: 100 }),
          values: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: MAX_PRODUCT_VARIANTS, uniqueItems: true }),
        },
        { additionalProperties: false },
      ),
      { maxItems: MAX_PRODUCT_OPTIONS },
    ),
    variants: Type.Array(CatalogFileVariant, { minItems: 1, maxItems: MAX_PRODUCT_VARIANTS }),
  },
  { additionalProperties: false },
);

export const CatalogFile = Type.Object(
  {
    $schema: Type.Optional(Type.String()),
    version: Type.Literal(1),
    regions: Type.Array(CatalogFileRegion, { minItems: 1, maxItems: MAX_COUNTRIES, description: 'Each serves at least one country of its own.' }),
    categories: Type.Optional(
      Type.Array(CatalogFileCategory, {
        maxItems: MAX_CATALOG_CATEGORIES,
        description: 'The category tree; a parent may be listed before or after its children.',
      }),
    ),
    collections: Type.Optional(Type.Array(CatalogFileCollection, { maxItems: MAX_CATALOG_COLLECTIONS })),
    products: Type.Array(CatalogFileProduct),
  },
  {
    additionalProperties: false,
    $id: 'https://vetrina.dev/schemas/catalog-file-v1.json',
    title: 'Vetrina catalog file, version 1',
  },
);

export type CatalogFile = Static<typeof CatalogFile>;
export type CatalogFileProduct = Static<typeof CatalogFileProduct>;
export type CatalogFileVariant = Static<typeof CatalogFileVariant>;
export type CatalogFilePrice = Static<typeof CatalogFilePrice>;
export type CatalogFileRegion = Static<typeof CatalogFileRegion>;
export type CatalogFileCategory = Static<typeof CatalogFileCategory>;
export type CatalogFileCollection = Static<typeof CatalogFileCollection>;
