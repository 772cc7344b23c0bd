import { availabilityOf } from '../../catalog/model/availability.js';
import { DEFAULT_LIMIT, type CatalogService } from '../../catalog/queries/catalog-service.js';
import { locateAnyIdentifier, MAX_LOOKUP_IDENTIFIERS, type Located } from '../../catalog/queries/lookup.js';
import type { Market } from '../../catalog/queries/market.js';
import { variantDisplayName } from '../../catalog/queries/render.js';
import type { LiveCatalog } from '../../catalog/read-model/live-catalog.js';
import { minorPriceIn, minorPriceRange, toMajorUnits } from '../../catalog/read-model/pricing.js';
import { CatalogReadError } from '../../catalog/read-model/read-errors.js';
import { resolveFilter, type FilterInput, type ProductFilter } from '../../catalog/read-model/product-filter.js';
import { displayImages, textIn, type CatalogProduct, type CatalogVariant } from '../../catalog/read-model/product.js';
import { words } from '../../catalog/read-model/text.js';
import { MAX_PAGE_SIZE } from '../../catalog/public-api/query-schemas.js';
import type { Static } from 'typebox';
import type { UcpGetProductRequest, UcpLookupRequest, UcpSearchFilters, UcpSearchRequest } from './catalog-schemas.js';
import { UcpOutcome, UcpProtocolError } from '../errors.js';
import type { UcpMessage } from '../messages.js';
import { marketFromContext } from './context.js';

/*
 * UCP's catalog (dev.ucp.shopping.catalog.search and .lookup) over the catalog service
 * that /public/v1 and the MCP catalog tools use: the same market resolution, filters,
 * ranking, cursors and availability. What is UCP's alone is here: the request's
 * hints mapped to those, and the products rendered in UCP's shape (amounts in minor
 * units). docs/ucp.md, Catalog, says the rules in words.
 */

interface UcpPrice {
  amount: number;
  currency: string;
}

interface UcpSelectedOption {
  name: string;
  label: string;
}

interface UcpInputCorrelation {
  id: string;
  match: 'exact' | 'featured';
}

interface UcpVariant {
  id: string;
  sku: string;
  title: string;
  description: { plain: string };
  price: UcpPrice;
  availability: { available: boolean; status: string };
  options?: UcpSelectedOption[];
  /** Lookup answers only: the request identifiers that resolved to the variant. */
  inputs?: UcpInputCorrelation[];
}

interface UcpOptionValue {
  label: string;
  /** get_product only: relative to the effective selections. */
  available?: boolean;
  exists?: boolean;
}

export interface UcpProduct {
  id: string;
  handle: string;
  title: string;
  description: { plain: string };
  url: string;
  categories?: { value: string; taxonomy: 'merchant' }[];
  price_range: { min: UcpPrice; max: UcpPrice };
  media?: { type: 'image'; url: string; alt_text?: string }[];
  options?: { name: string; values: UcpOptionValue[] }[];
  variants: UcpVariant[];
  tags?: string[];
  metadata?: { collection: string };
  /** get_product only: the selections the variants and option signals are relative to. */
  selected?: UcpSelectedOption[];
}

export interface UcpSearchAnswer {
  products: UcpProduct[];
  pagination: { cursor?: string; has_next_page: boolean; total_count: number };
  messages?: UcpMessage[];
}

export interface UcpLookupAnswer {
  products: UcpProduct[];
  messages?: UcpMessage[];
}

/** get_product: the product, or UCP's business outcome `ucp.status: "error"` saying why (not a protocol error). */
export type UcpGetProductAnswer = { product: UcpProduct; messages?: UcpMessage[] } | UcpOutcome;

/** A request the catalog cannot answer as sent: HTTP 400, MCP -32602. */
const invalidRequest = (content: string) => new UcpProtocolError(400, 'invalid_request', content);

/**
 * The catalog's refusals a UCP request can meet (src/catalog/read-model/read-errors.ts),
 * worded in the request's terms; any other error is returned as it is.
 */
export function asUcpRefusal(error: unknown): unknown {
  if (!(error instanceof CatalogReadError)) return error;
  const { refusal } = error;
  if (refusal.kind === 'invalid_cursor') {
    return invalidRequest(
      refusal.reason === 'other_list'
        ? 'pagination.cursor belongs to another search: send it with the query, filters and context of the search it came from, or leave it out for the first page.'
        : 'pagination.cursor was not issued by this catalog: send the pagination.cursor of the previous page unchanged.',
    );
  }
  if (refusal.kind === 'inverted_price_range') return invalidRequest('filters.price.min is above filters.price.max.');
  return error;
}

/** The filters UCP's catalog applies; any other member of `filters` is ignored and reported. */
const SUPPORTED_FILTERS = ['categories', 'price', 'available'] as const;

/** A variant shown in an answer: priced in the market and within the request's filters, with its price there (minor units). */
interface ShownVariant {
  variant: CatalogVariant;
  price: number;
}

/** A request's filters resolved in its market, with what it asked that is not applied. */
interface RequestFilter {
  /** The filters as the catalog's list takes them. */
  input: FilterInput;
  /** `input` resolved. Always set: every answer keeps to the variants priced in the market (`price_min` 0 at least), since UCP requires a price. */
  filter: ProductFilter;
  /** `filters.categories` named only categories the catalog does not have: nothing matches. */
  matchesNothing: boolean;
  /** Whether the request names a filter this catalog applies (a search needs a query or one). */
  recognised: boolean;
  notes: UcpMessage[];
}

/** The catalog operations of UCP, each answering the payload of its response without the `ucp` envelope. */
export class UcpCatalog {
  constructor(private readonly catalog: CatalogService) {}

  /** search_catalog: the catalog's search with its filters in the market, a page at a time. */
  async search(request: UcpSearchRequest, acceptLanguage?: string): Promise<UcpSearchAnswer> {
    const live = this.catalog.live;
    const { market, amountsInMarketCurrency, notes } = marketFromContext(live, request.context, acceptLanguage);
    const filters = requestFilter(live, request.filters, market, amountsInMarketCurrency);
    const query = request.query ?? '';
    if (words(query).length === 0 && !filters.recognised) {
      throw invalidRequest(
        `A search needs a query with at least one word or a filter (${SUPPORTED_FILTERS.join(', ')}); use lookup_catalog to read products by id.`,
      );
    }
    const messages = [...notes, ...filters.notes];
    if (filters.matchesNothing) return withMessages({ products: [], pagination: { has_next_page: false, total_count: 0 } }, messages);
    const listed = await this.catalog.resolveList({
      ...filters.input,
      q: query,
      locale: market.locale,
      country: market.country,
      limit: Math.min(request.pagination?.limit ?? DEFAULT_LIMIT, MAX_PAGE_SIZE),
      cursor: request.pagination?.cursor,
    });
    // Rendered in the market as the list resolved it, in the same stretch as the page: one state of the catalog.
    const page = this.catalog.pageOf(listed);
    const products = page.products.flatMap((product) => {
      const shown = shownVariants(product, listed.market, filters.filter);
      return shown.length === 0 ? [] : [this.#product(product, listed.market, featuredFirst(shown).map((each) => renderVariant(product, each, listed.market)))];
    });
    const pagination = { ...(page.nextCursor !== null && { cursor: page.nextCursor }), has_next_page: page.nextCursor !== null, total_count: page.count };
    return withMessages({ products, pagination }, messages);
  }

  /**
   * lookup_catalog: each identifier (a product id, a variant id or a SKU) resolved in the
   * catalog as served; each product once, with one variant per resolution: the featured
   * variant for a product id, the very variant for a variant id or SKU.
   */
  lookup(request: UcpLookupRequest, acceptLanguage?: string): UcpLookupAnswer {
    if (request.ids.length > MAX_LOOKUP_IDENTIFIERS) {
      throw new UcpProtocolError(400, 'request_too_large', `ids holds ${request.ids.length} identifiers; a lookup takes at most ${MAX_LOOKUP_IDENTIFIERS}: split them over several.`);
    }
    const live = this.catalog.live;
    const { market, amountsInMarketCurrency, notes } = marketFromContext(live, request.context, acceptLanguage);
    const filters = requestFilter(live, request.filters, market, amountsInMarketCurrency);
    const messages = [...notes, ...filters.notes];
    const found = new Map<CatalogProduct, { shown: ShownVariant[]; inputs: Map<ShownVariant, UcpInputCorrelation[]> }>();
    // UCP: duplicate identifiers are answered once.
    for (const id of new Set(request.ids)) {
      const located = locateAnyIdentifier(live, id);
      if (located === undefined) {
        messages.push({ type: 'info', code: 'not_found', content: id });
        continue;
      }
      let entry = found.get(located.product);
      if (entry === undefined) {
        entry = { shown: inScope(located.product, market, filters), inputs: new Map() };
        found.set(located.product, entry);
      }
      const target = located.variant === null ? featuredFirst(entry.shown)[0] : entry.shown.find((each) => each.variant.id === located.variant!.id);
      if (target === undefined) {
        messages.push({ type: 'info', code: 'item_unavailable', content: `${id}: ${whyNotShown(located, market)}` });
        continue;
      }
      const inputs = entry.inputs.get(target) ?? [];
      inputs.push({ id, match: located.variant === null ? 'featured' : 'exact' });
      entry.inputs.set(target, inputs);
    }
    const products = [...found].flatMap(([product, { inputs }]) =>
      inputs.size === 0 ? [] : [this.#product(product, market, [...inputs].map(([shown, correlation]) => ({ ...renderVariant(product, shown, market), inputs: correlation })))],
    );
    return withMessages({ products }, messages);
  }

  /**
   * get_product: one product by product id, variant id or SKU, with the variants matching
   * the effective selections (UCP catalog lookup, Option Selection) and every option value's
   * availability relative to them. An identifier that names nothing served, or nothing
   * sold in the market within the filters, is UCP's business outcome `ucp.status: "error"`.
   */
  getProduct(request: UcpGetProductRequest, acceptLanguage?: string): UcpGetProductAnswer {
    const live = this.catalog.live;
    const names = (request.selected ?? []).map((selection) => selection.name);
    const repeated = names.find((name, index) => names.indexOf(name) !== index);
    if (repeated !== undefined) throw invalidRequest(`selected names the option "${repeated}" more than once; each option name may appear once.`);
    const located = locateAnyIdentifier(live, request.id);
    if (located === undefined) return failure('not_found', `Product not found: ${request.id}`, 'unrecoverable');
    const { market, amountsInMarketCurrency, notes } = marketFromContext(live, request.context, acceptLanguage);
    const filters = requestFilter(live, request.filters, market, amountsInMarketCurrency);
    const { product } = located;
    const scope = inScope(product, market, filters);
    const asked = located.variant === null ? undefined : scope.find((each) => each.variant.id === located.variant!.id);
    if (scope.length === 0 || (located.variant !== null && asked === undefined)) {
      return failure('item_unavailable', `${request.id}: ${whyNotShown(located, market)}`, 'recoverable');
    }
    // A variant id fixes every option (its own values win over `selected`); a product id
    // takes the request's selections, relaxed until a variant matches, else the featured variant's.
    const selection =
      asked !== undefined
        ? fullSelection(asked.variant)
        : request.selected?.length
          ? relaxedSelection(product, scope, request.selected, request.preferences ?? [])
          : fullSelection(featuredFirst(scope)[0]!.variant);
    const matching = scope.filter((each) => matches(each.variant, selection));
    const variants = asked !== undefined ? [asked, ...matching.filter((each) => each !== asked)] : featuredFirst(matching);
    const rendered = this.#product(product, market, variants.map((each) => renderVariant(product, each, market)));
    const detail: UcpProduct = {
      ...rendered,
      ...(product.optionNames.length > 0 && {
        options: optionSignals(product, scope, selection),
        selected: [...selection].map(([index, label]) => ({ name: product.optionNames[index]!, label })),
      }),
    };
    return withMessages({ product: detail }, [...notes, ...filters.notes]);
  }

  #product(product: CatalogProduct, market: Market, variants: UcpVariant[]): UcpProduct {
    const text = textIn(product, market.locale);
    // Rendered only with a variant priced in the market, so the range exists.
    const range = minorPriceRange(product, market.region)!;
    const price = (amount: number): UcpPrice => ({ amount, currency: market.currency });
    // As /public/v1 renders them: a handle the taxonomy does not hold is left out.
    const categories = product.categories.filter((handle) => this.catalog.live.taxonomy.category(handle) !== undefined);
    const media = displayImages(product);
    const options = productOptions(product);
    return {
      id: product.id,
      handle: product.handle,
      title: text.title,
      description: { plain: text.description ?? '' },
      url: this.catalog.productUrl(product),
      ...(categories.length > 0 && { categories: categories.map((value) => ({ value, taxonomy: 'merchant' as const })) }),
      price_range: { min: price(range.minimum), max: price(range.maximum) },
      ...(media.length > 0 && {
        media: media.map(({ url, alt }) => ({ type: 'image' as const, url, ...(alt !== null && { alt_text: alt }) })),
      }),
      ...(options.length > 0 && { options: options.map(({ name, labels }) => ({ name, values: labels.map((label) => ({ label })) })) }),
      variants,
      ...(product.tags.length > 0 && { tags: [...product.tags] }),
      ...(product.collection !== null && { metadata: { collection: product.collection } }),
    };
  }
}

function withMessages<T extends object, M>(answer: T, messages: M[]): T & { messages?: M[] } {
  return messages.length > 0 ? { ...answer, messages } : answer;
}

function failure(code: string, content: string, severity: 'recoverable' | 'unrecoverable'): UcpOutcome {
  return new UcpOutcome([{ type: 'error', code, content, severity }]);
}

/**
 * The request's filters in the catalog's terms. `categories` are category handles (the
 * `value` of a product's categories), matched with the category's subtree as /public/v1's
 * `category` is; unknown ones match nothing and are reported. `price` is in minor units of
 * `context.currency`: applied when that is the market's currency (or absent), else left
 * out and reported, since prices are never converted. Every answer keeps to variants
 * priced in the market: UCP products and variants must carry a price.
 */
function requestFilter(live: LiveCatalog, filters: Static<typeof UcpSearchFilters> | undefined, market: Market, amountsInMarketCurrency: boolean): RequestFilter {
  const notes: UcpMessage[] = [];
  const ignored = Object.keys(filters ?? {}).filter((name) => !(SUPPORTED_FILTERS as readonly string[]).includes(name));
  if (ignored.length > 0) {
    notes.push({ type: 'info', code: 'filter_ignored', content: `Filters not supported, ignored: ${ignored.join(', ')}. Supported: ${SUPPORTED_FILTERS.join(', ')}.` });
  }
  const named = filters?.categories ?? [];
  // Handles are lower-case; a category's `value` is its handle.
  const known = new Set(named.map((value) => value.trim().toLowerCase()).filter((handle) => live.taxonomy.category(handle) !== undefined));
  const unknown = named.filter((value) => !known.has(value.trim().toLowerCase()));
  if (unknown.length > 0) {
    notes.push({ type: 'info', code: 'unknown_category', content: `Not categories of this catalog (category handles, as products' categories list them): ${unknown.join(', ')}.` });
  }
  const price = filters?.price;
  const priced = price?.min !== undefined || price?.max !== undefined;
  const applyPrice = priced && amountsInMarketCurrency;
  if (priced && !applyPrice) {
    notes.push({ type: 'info', code: 'price_filter_ignored', content: `filters.price is in context.currency, not ${market.currency}, the currency of this market's prices: it is not applied (prices are not converted).` });
  }
  const major = (minor: number | undefined) => (minor === undefined ? undefined : toMajorUnits(minor, market.currency));
  const input: FilterInput = {
    category: known.size > 0 ? [...known] : undefined,
    available: filters?.available,
    price_min: applyPrice ? (major(price!.min) ?? 0) : 0,
    price_max: applyPrice ? major(price!.max) : undefined,
  };
  return {
    input,
    // A price bound is always given, so there is a filter.
    filter: resolveFilter(input, live.taxonomy, market.currency)!,
    matchesNothing: named.length > 0 && known.size === 0,
    recognised: named.length > 0 || priced || filters?.available !== undefined,
    notes,
  };
}

/** The variants of a product an answer may show: in the filter's categories, priced in the market and within the filters. */
function inScope(product: CatalogProduct, market: Market, { filter, matchesNothing }: RequestFilter): ShownVariant[] {
  const inCategories = filter.categories === undefined || product.categories.some((handle) => filter.categories!.has(handle));
  return matchesNothing || !inCategories ? [] : shownVariants(product, market, filter);
}

/** The product's variants priced in the market whose price and availability pass the filter (each variant on its own). */
function shownVariants(product: CatalogProduct, market: Market, filter: ProductFilter): ShownVariant[] {
  const shown: ShownVariant[] = [];
  for (const variant of product.variants) {
    const price = minorPriceIn(variant, market.region);
    if (price === null || price < (filter.minPrice ?? 0) || price > (filter.maxPrice ?? Infinity)) continue;
    if (filter.available !== undefined && availabilityOf(variant).purchasable !== filter.available) continue;
    shown.push({ variant, price });
  }
  return shown;
}

/** The featured variant first (the first purchasable one, else the first), then the others in the catalog's order. */
function featuredFirst(shown: ShownVariant[]): ShownVariant[] {
  const featured = shown.find((each) => availabilityOf(each.variant).purchasable) ?? shown[0];
  return featured === undefined ? [] : [featured, ...shown.filter((each) => each !== featured)];
}

function whyNotShown({ product, variant }: Located, market: Market): string {
  const priced = variant === null ? minorPriceRange(product, market.region) !== null : minorPriceIn(variant, market.region) !== null;
  return priced ? 'outside the request\'s filters.' : `not sold in ${market.country} (no price in ${market.currency}).`;
}

function renderVariant(product: CatalogProduct, { variant, price }: ShownVariant, market: Market): UcpVariant {
  const availability = availabilityOf(variant);
  const title = textIn(product, market.locale).title;
  const displayName = variantDisplayName(variant);
  return {
    id: variant.id,
    sku: variant.sku,
    title: displayName ?? title,
    description: { plain: displayName === null ? title : `${title}, ${displayName}` },
    price: { amount: price, currency: market.currency },
    availability: { available: availability.purchasable, status: availability.status },
    ...(product.optionNames.length > 0 && {
      options: product.optionNames.map((name, index) => ({ name, label: variant.optionValues[index]! })),
    }),
  };
}

/** Each option with its values, in the order the variants first use them. */
function productOptions(product: CatalogProduct): { name: string; labels: string[] }[] {
  return product.optionNames.map((name, index) => ({ name, labels: [...new Set(product.variants.map((variant) => variant.optionValues[index]!))] }));
}

/** Selections as option index to label. */
type Selection = Map<number, string>;

const fullSelection = (variant: CatalogVariant): Selection => new Map(variant.optionValues.map((label, index) => [index, label]));

const matches = (variant: CatalogVariant, selection: Selection): boolean => [...selection].every(([index, label]) => variant.optionValues[index] === label);

/**
 * UCP's relaxation: the selections in priority order (`preferences`, then the rest in the
 * order sent), each kept when some variant in scope still matches all kept so far, so an
 * unresolvable selection is dropped and every higher-priority one stays. A selection
 * naming no option of the product matches nothing and is dropped too.
 */
function relaxedSelection(product: CatalogProduct, scope: ShownVariant[], selected: UcpSelectedOption[], preferences: string[]): Selection {
  const rank = (name: string) => (preferences.includes(name) ? preferences.indexOf(name) : preferences.length);
  const ordered = selected.map((selection, sent) => ({ selection, sent })).sort((a, b) => rank(a.selection.name) - rank(b.selection.name) || a.sent - b.sent);
  const kept: Selection = new Map();
  for (const { selection } of ordered) {
    const index = product.optionNames.indexOf(selection.name);
    if (index < 0) continue;
    const trial = new Map(kept).set(index, selection.label);
    if (scope.some((each) => matches(each.variant, trial))) kept.set(index, selection.label);
  }
  return new Map([...kept].sort(([a], [b]) => a - b));
}

/**
 * Every value of every option with UCP's signals relative to the selection: for a value
 * of one option, the variants in scope matching the other options' selections and that
 * value; `exists` when there is one, `available` when one of them can be bought.
 */
function optionSignals(product: CatalogProduct, scope: ShownVariant[], selection: Selection): NonNullable<UcpProduct['options']> {
  return productOptions(product).map(({ name, labels }, index) => {
    const others = new Map([...selection].filter(([other]) => other !== index));
    const candidates = scope.filter((each) => matches(each.variant, others));
    return {
      name,
      values: labels.map((label) => {
        const withValue = candidates.filter((each) => each.variant.optionValues[index] === label);
        return { label, available: withValue.some((each) => availabilityOf(each.variant).purchasable), exists: withValue.length > 0 };
      }),
    };
  });
}
