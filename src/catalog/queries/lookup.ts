import { Type } from 'typebox';
import { SKU_MAX_LENGTH } from '../file/catalog-file-schema.js';
import type { LiveCatalog } from '../read-model/live-catalog.js';
import type { CatalogProduct, CatalogVariant } from '../read-model/product.js';
import { CatalogReadError } from '../read-model/read-errors.js';

/** docs/decisions.md, Batch lookup: the identifiers one lookup takes, of every kind together. */
export const MAX_LOOKUP_IDENTIFIERS = 50;
/** Ids are a prefix and 24 hex digits; the lookup takes what the sandbox takes as a variant id. */
export const MAX_ID_LENGTH = 128;

/**
 * The kinds of identifier, in the order a lookup reads them. Each name is at once the
 * query parameter, the tool argument and the `type` of a match.
 */
export const IDENTIFIER_TYPES = ['product_id', 'variant_id', 'sku'] as const;
export type IdentifierType = (typeof IDENTIFIER_TYPES)[number];

/** The identifiers of a lookup, as the REST query and the tool arguments give them. */
export type LookupIdentifiers = { [T in IdentifierType]?: readonly string[] | undefined };

export interface LookupIdentifier {
  type: IdentifierType;
  value: string;
}

export interface LookupMatch extends LookupIdentifier {
  product_id: string;
  /** The variant a variant id or SKU names; null for a product id. */
  variant_id: string | null;
}

/** The bounds in words, for the hints of a refused lookup. */
export const LOOKUP_BOUNDS_RULE = `1 to ${MAX_LOOKUP_IDENTIFIERS} identifiers in product_id, variant_id and sku together; ids of 1 to ${MAX_ID_LENGTH} characters, SKUs of 1 to ${SKU_MAX_LENGTH}`;

const identifierList = (what: string, maxLength: number) =>
  Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength }), {
      maxItems: MAX_LOOKUP_IDENTIFIERS,
      description: `${what} A list (in a query string, repeat the parameter); at most ${MAX_LOOKUP_IDENTIFIERS} identifiers of all kinds together.`,
    }),
  );

/** The lookup's input fields, shared by the REST query string and the MCP tool's input schema. */
export const lookupFields = {
  product_id: identifierList(`Product ids (a product's \`id\`), 1 to ${MAX_ID_LENGTH} characters each.`, MAX_ID_LENGTH),
  variant_id: identifierList(`Variant ids (a variant's \`id\`, e.g. a cart line's \`variant_id\`), 1 to ${MAX_ID_LENGTH} characters each.`, MAX_ID_LENGTH),
  sku: identifierList(`SKUs, compared exactly (case-sensitive), 1 to ${SKU_MAX_LENGTH} characters each; commas are part of a SKU, never separators.`, SKU_MAX_LENGTH),
};

/** What a lookup found: the products matched, and for each identifier what it matched or that it matched nothing. */
export interface LookupFindings {
  /** Each product once, in the order of its first match. */
  products: CatalogProduct[];
  matches: LookupMatch[];
  notFound: LookupIdentifier[];
}

/**
 * Looks the identifiers up in the catalog as served: product ids first, then variant ids,
 * then SKUs, each in the order given; an identifier given twice counts twice against the
 * bound but is answered once. Only served products are in the catalog, so an identifier
 * of a draft or weighted product matches nothing.
 */
export function findIdentifiers(catalog: LiveCatalog, identifiers: LookupIdentifiers): LookupFindings {
  const given = IDENTIFIER_TYPES.flatMap((type) => (identifiers[type] ?? []).map((value): LookupIdentifier => ({ type, value })));
  if (given.length === 0) {
    throw new CatalogReadError('No identifier given: name at least one product_id, variant_id or sku.', { kind: 'lookup_bounds', given: 0 });
  }
  if (given.length > MAX_LOOKUP_IDENTIFIERS) {
    throw new CatalogReadError(
      `Too many identifiers: product_id, variant_id and sku hold ${given.length} together, more than ${MAX_LOOKUP_IDENTIFIERS}.`,
      { kind: 'lookup_bounds', given: given.length },
    );
  }
  const products = new Set<CatalogProduct>();
  const matches: LookupMatch[] = [];
  const notFound: LookupIdentifier[] = [];
  const answered = new Set<string>();
  for (const identifier of given) {
    const key = `${identifier.type} ${identifier.value}`;
    if (answered.has(key)) continue;
    answered.add(key);
    const found = locate(catalog, identifier);
    if (found === undefined) {
      notFound.push(identifier);
    } else {
      products.add(found.product);
      matches.push({ ...identifier, product_id: found.product.id, variant_id: found.variant?.id ?? null });
    }
  }
  return { products: [...products], matches, notFound };
}

/** What an identifier names in the catalog as served: a product, and the variant a variant id or SKU names (null for a product id). */
export interface Located {
  type: IdentifierType;
  product: CatalogProduct;
  variant: CatalogVariant | null;
}

/**
 * An identifier whose kind is not given (UCP's lookup takes plain ids), read as each kind
 * in the order a lookup reads them: a product id, else a variant id, else a SKU. Ids carry
 * a prefix of their kind, so only a SKU spelled like another product's id could be shadowed.
 */
export function locateAnyIdentifier(catalog: LiveCatalog, value: string): Located | undefined {
  for (const type of IDENTIFIER_TYPES) {
    const found = locate(catalog, { type, value });
    if (found) return { type, ...found };
  }
  return undefined;
}

function locate(catalog: LiveCatalog, { type, value }: LookupIdentifier): { product: CatalogProduct; variant: CatalogVariant | null } | undefined {
  if (type === 'product_id') {
    const product = catalog.productById.get(value);
    return product && { product, variant: null };
  }
  const variant = (type === 'variant_id' ? catalog.variantById : catalog.variantBySku).get(value);
  if (variant === undefined) return undefined;
  const product = catalog.productById.get(variant.productId);
  return product && { product, variant };
}
