import { Type, type Static, type TOptional } from 'typebox';
import { HANDLE_MAX_LENGTH, HANDLE_PATTERN } from '../handle.js';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '../locales.js';

/**
 * The catalog file: what `npm run catalog:import` reads and `catalog:generate` writes.
 * `docs/catalog.schema.json` is generated from this schema (`npm run docs:schema`).
 */

export const CatalogFileRegion = Type.Object(
  {
    id: Type.String({ pattern: '^[a-z0-9_]{1,64}$', description: 'Stable region id, echoed as `region_id`, e.g. "reg_eu".' }),
    name: Type.String({ minLength: 1, maxLength: 120 }),
    currency: Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code; a region has exactly one currency.' }),
    countries: Type.Array(Type.String({ pattern: '^[A-Z]{2}$' }), {
      minItems: 1,
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

export const CatalogFileVariant = Type.Object(
  {
    sku: Type.String({ minLength: 1, maxLength: 100, description: 'Unique across the catalog; re-imports match variants by SKU.' }),
    options: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
      description: "One value per product option, in the product's option order.",
    }),
    manage_inventory: Type.Boolean({ default: true }),
    inventory_quantity: Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0 }),
    allow_backorder: Type.Boolean({ default: false }),
    prices: Type.Array(CatalogFilePrice, { description: 'At most one price per currency and region.' }),
  },
  { additionalProperties: false },
);

/** The default locale's text is required, every other locale's optional. */
const translationFields = Object.fromEntries(
  LOCALES.map((locale) => [locale, locale === DEFAULT_LOCALE ? CatalogFileText : Type.Optional(CatalogFileText)]),
) as { [L in Locale]: L extends typeof DEFAULT_LOCALE ? typeof CatalogFileText : TOptional<typeof CatalogFileText> };

export const CatalogFileProduct = Type.Object(
  {
    handle: Type.String({ pattern: HANDLE_PATTERN, maxLength: HANDLE_MAX_LENGTH, description: 'Unique; re-imports match products by handle.' }),
    status: Type.Enum(['draft', 'published'], { description: 'Only published products are served.' }),
    weighted: Type.Boolean({ default: false, description: 'Sold by weight; never served by the catalog.' }),
    thumbnail: Type.Optional(Type.Union([Type.String({ format: 'uri', maxLength: 2000 }), Type.Null()])),
    created_at: Type.Optional(
      Type.String({ format: 'date-time', description: 'Defaults to the time of the first import; orders the catalog.' }),
    ),
    translations: Type.Object(translationFields, {
      additionalProperties: false,
      description: `One text per locale; ${DEFAULT_LOCALE} is required, the other locales fall back to it.`,
    }),
    options: Type.Array(
      Type.Object(
        {
          name: Type.String({ minLength: 1, maxLength: 100 }),
          values: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, uniqueItems: true }),
        },
        { additionalProperties: false },
      ),
      { maxItems: 3 },
    ),
    variants: Type.Array(CatalogFileVariant, { minItems: 1, maxItems: 100 }),
  },
  { additionalProperties: false },
);

export const CatalogFile = Type.Object(
  {
    $schema: Type.Optional(Type.String()),
    version: Type.Literal(1),
    regions: Type.Array(CatalogFileRegion, { minItems: 1 }),
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
export type CatalogFileRegion = Static<typeof CatalogFileRegion>;
