import { Type, type TSchema } from 'typebox';
import { CatalogFilePrice, CatalogFileProduct, CatalogFileRegion, CatalogFileVariant, MAX_VARIANT_PRICES } from '../catalog/file/catalog-file-schema.js';
import { LOCALES, DEFAULT_LOCALE } from '../catalog/model/locales.js';
import { BULK_MAX_ROWS } from '../catalog/store/write/bulk.js';
import { ADMIN_DOCUMENT_PATH, ADMIN_ERROR_CODES, AdminProblem } from './errors.js';

/**
 * The admin API's schemas. None has an `$id`: shared schemas would also appear in the
 * public document's components, and the admin API has a document of its own.
 */

const requestId = Type.String({ format: 'uuid', description: 'Also sent as the `X-Request-Id` header.' });
const version = Type.Integer({ minimum: 1, description: 'Grows with every change; sent as the ETag ("<version>").' });

const AdminError = Type.Object({
  error: Type.Object({
    code: Type.Enum(ADMIN_ERROR_CODES, { type: 'string' }),
    message: Type.String(),
    hint: Type.String(),
    details: Type.Optional(
      Type.Object(
        {},
        {
          additionalProperties: true,
          description:
            'For a program to act on: `current_version` (412 on a stale If-Match), `problems` (`[{path, message}]`, 400 on a product or price rule, or an invalid import file), `rows` (`[{index, sku, code, message}]`, a refused bulk request).',
        },
      ),
    ),
  }),
  request_id: requestId,
});

const jsonBody = (schema: TSchema) => ({ 'application/json': { schema } });
const requestIdHeader = { 'X-Request-Id': Type.String({ format: 'uuid' }) };
export const etagHeader = { ETag: Type.String({ description: 'The strong entity tag "<version>"; send it back in If-Match.' }) };

/** A success answer: its body and the headers it carries. */
export const ok = (description: string, schema: TSchema, headers: Record<string, TSchema> = {}) => ({
  description,
  headers: { ...requestIdHeader, ...headers },
  content: jsonBody(schema),
});

/** What every admin route may answer besides its own errors. */
const COMMON_ERRORS: Partial<Record<number, string>> = {
  400: 'INVALID_REQUEST: a body, path, query or header that breaks the schema (the message names the field), or malformed JSON.',
  401: 'UNAUTHORIZED: no admin token, or an unknown one (with WWW-Authenticate: Bearer).',
  429: 'RATE_LIMITED: the token used up its window (Retry-After says when to retry).',
  500: 'INTERNAL_ERROR: an unexpected failure; nothing was written.',
  503: 'STORE_UNAVAILABLE: the store is unreachable; nothing was written (Retry-After).',
};

/** An error answer, in the admin envelope. */
export const errorResponse = (description: string) => ({ description, headers: requestIdHeader, content: jsonBody(AdminError) });

/** The error answers of a route: the common ones plus its own, by status (a route's own text wins). */
export function errorResponses(own: Partial<Record<number, string>>): Record<number, object> {
  const all = { ...COMMON_ERRORS, ...own };
  return Object.fromEntries(Object.entries(all).map(([status, description]) => [status, errorResponse(description!)]));
}

/** A request refused before its route ran, on the one admin route that needs no token (its document). */
export const malformedRequestResponse = errorResponse(
  'INVALID_REQUEST: a repeated Host or Authorization header (400), or a body with a Content-Encoding (415).',
);

export const STALE = 'PRECONDITION_FAILED: If-Match names another version (details.current_version), or the resource does not exist.';

export const IfMatch = Type.Object({
  'if-match': Type.Optional(
    Type.String({ maxLength: 1000, description: 'Write only if the resource is at one of these versions: `"3"` (its ETag), `"3", "4"`, or `*` (any existing version). Otherwise 412.' }),
  ),
});

export const HandleParams = Type.Object({ handle: CatalogFileProduct.properties.handle });

/** A variant as stored: the catalog file's variant, with its id and version. */
export const AdminVariant = Type.Object({ id: Type.String(), version, ...CatalogFileVariant.properties });

/** A locale's text as stored: the description is always there, null when there is none. */
const StoredText = Type.Required(CatalogFileProduct.properties.translations.properties.en);

/**
 * A product as stored, drafts included: the catalog file's product, with ids, versions and
 * times. What the file may leave out but the store always has (null or not) is required.
 */
export const AdminProduct = Type.Object({
  id: Type.String(),
  version,
  ...CatalogFileProduct.properties,
  thumbnail: Type.Required(Type.Pick(CatalogFileProduct, ['thumbnail'])).properties.thumbnail,
  translations: Type.Object(
    Object.fromEntries(LOCALES.map((locale) => [locale, locale === DEFAULT_LOCALE ? StoredText : Type.Optional(StoredText)])),
    { additionalProperties: false, description: `One text per locale that has one; ${DEFAULT_LOCALE} always.` },
  ),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
  variants: Type.Array(AdminVariant),
});

/** The catalog file's product; the handle comes from the path (one in the body must equal it). */
export const ProductBody = Type.Object(
  { ...CatalogFileProduct.properties, handle: Type.Optional(CatalogFileProduct.properties.handle) },
  { additionalProperties: false },
);

const textOrNull = Type.Union([CatalogFileProduct.properties.translations.properties.en, Type.Null()]);

export const ProductPatchBody = Type.Object(
  {
    status: Type.Optional(CatalogFileProduct.properties.status),
    translations: Type.Optional(
      Type.Object(Object.fromEntries(LOCALES.map((locale) => [locale, Type.Optional(textOrNull)])), {
        additionalProperties: false,
        minProperties: 1,
        description: `Per locale, the new text (title and optional description), or null to remove that locale's text; ${DEFAULT_LOCALE} cannot be removed.`,
      }),
    ),
    thumbnail: Type.Optional(CatalogFileProduct.properties.thumbnail),
    categories: CatalogFileProduct.properties.categories,
    collection: CatalogFileProduct.properties.collection,
    tags: CatalogFileProduct.properties.tags,
    images: CatalogFileProduct.properties.images,
  },
  { additionalProperties: false, minProperties: 1, description: 'At least one field; each given field replaces the stored one whole (null removes the collection, [] empties a list).' },
);

const stockFields = {
  manage_inventory: Type.Optional(Type.Boolean({ description: 'Whether stock is counted; when false the variant is always in stock.' })),
  // Not the catalog file's field: its default (0) would turn a patch that leaves stock alone into one that empties it.
  inventory_quantity: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000, description: 'Units in stock; counted only when manage_inventory is true.' })),
  allow_backorder: Type.Optional(Type.Boolean({ description: 'Whether it can be bought with no stock left.' })),
};

const priceFields = {
  currency: CatalogFilePrice.properties.currency,
  region: Type.Optional(
    Type.String({ maxLength: 64, description: "A region-specific price, named as the catalog file, PUT and GET name it (preferred); the region's currency must be `currency`." }),
  ),
  region_id: Type.Optional(Type.String({ maxLength: 64, description: 'The former name of `region`, still accepted; a price naming two different regions is 400.' })),
  amount: Type.Union([CatalogFilePrice.properties.amount, Type.Null()], { description: 'Minor units (1650 is 16.50), or null to remove this price.' }),
};

/**
 * A price entry as the catalog writes it: `region` and its former name `region_id` are
 * one field (the routes that took `region_id` are released); naming two different
 * regions is refused. `at` names the entry in the message, e.g. `body.rows[2]`.
 */
export function priceSetting<P extends { region?: string; region_id?: string }>({ region, region_id, ...price }: P, at: string): Omit<P, 'region' | 'region_id'> & { region_id?: string } {
  if (region !== undefined && region_id !== undefined && region !== region_id) {
    throw new AdminProblem(
      'INVALID_REQUEST',
      `Invalid request: ${at} names region "${region}" and region_id "${region_id}".`,
      `Send region only (region_id is its former name); see ${ADMIN_DOCUMENT_PATH}. Nothing was written.`,
    );
  }
  const named = region ?? region_id;
  return { ...price, ...(named !== undefined && { region_id: named }) };
}

export const VariantPatchBody = Type.Object(
  {
    ...stockFields,
    prices: Type.Optional(
      Type.Array(Type.Object(priceFields, { additionalProperties: false }), {
        maxItems: MAX_VARIANT_PRICES,
        description: 'Each entry replaces the price for its currency and region (region absent: the price in that currency), or removes it (amount null); other prices stay.',
      }),
    ),
  },
  { additionalProperties: false, minProperties: 1, description: 'At least one field.' },
);

const sku = CatalogFileVariant.properties.sku;
const ifVersion = Type.Optional(Type.Integer({ minimum: 1, description: 'Write the row only if the variant is at this version (else the row is refused, VERSION_MISMATCH).' }));

const rows = <T extends TSchema>(row: T, description: string) =>
  Type.Object({ rows: Type.Array(row, { minItems: 1, maxItems: BULK_MAX_ROWS, description }) }, { additionalProperties: false });

export const InventoryBody = rows(
  Type.Object({ sku, ...stockFields, if_version: ifVersion }, { additionalProperties: false }),
  `1 to ${BULK_MAX_ROWS} rows, one per SKU, each setting at least one stock field.`,
);

export const PricesBody = rows(
  Type.Object({ sku, ...priceFields, if_version: ifVersion }, { additionalProperties: false }),
  `1 to ${BULK_MAX_ROWS} rows, at most one per SKU, currency and region.`,
);

export const BulkReport = Type.Object({
  rows: Type.Array(
    Type.Object({
      index: Type.Integer({ description: 'The row of the request.' }),
      sku: Type.String(),
      variant_id: Type.String(),
      version: Type.Integer({ description: "The variant's version after the write." }),
    }),
  ),
  request_id: requestId,
});

export const RegionParams = Type.Object({ id: CatalogFileRegion.properties.id });
export const RegionBody = Type.Object(
  { name: CatalogFileRegion.properties.name, currency: CatalogFileRegion.properties.currency, countries: CatalogFileRegion.properties.countries },
  { additionalProperties: false },
);
export const AdminRegion = Type.Object(CatalogFileRegion.properties);

