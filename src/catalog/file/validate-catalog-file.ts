import { Ajv, type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import { CatalogFile, CatalogFileCategory, CatalogFileCollection, CatalogFileProduct, CatalogFileRegion } from './catalog-file-schema.js';
import { MAX_CATEGORY_DEPTH, misplacement } from '../model/taxonomy.js';
import { placeholderOf } from './catalog-file-stream.js';
import { CompactStringMap } from '../../lib/compact-string-map.js';

export interface CatalogFileProblem {
  /** JSONPath of the offending value, e.g. `$.products[3].variants[0].sku`. */
  path: string;
  message: string;
}

export type CatalogFileCheck =
  | { ok: true; catalog: CatalogFile }
  | { ok: false; problems: CatalogFileProblem[]; truncated: boolean };

/**
 * At most this many problems are collected: a file that is wrong throughout (a wrong
 * field name in every product of 100,000) would otherwise report millions of them. A
 * streamed check stops reading at this point.
 */
export const MAX_PROBLEMS = 1000;

const ajv = new Ajv({ allErrors: true, useDefaults: true, strict: false });
addFormats.default(ajv);
const validateShape = ajv.compile<CatalogFile>(CatalogFile);
const isWellFormedRegion = ajv.compile<CatalogFileRegion>(CatalogFileRegion);
const isWellFormedCategory = ajv.compile<CatalogFileCategory>(CatalogFileCategory);
const isWellFormedCollection = ajv.compile<CatalogFileCollection>(CatalogFileCollection);
/** The product schema alone; fills in the product's defaults. */
export const isWellFormedProduct = ajv.compile<CatalogFileProduct>(CatalogFileProduct);

/** Half of a UTF-16 surrogate pair without the other half: valid in a JSON escape (`\ud800`), not in Unicode text. */
const LONE_SURROGATE = /\p{Cs}/u;

/** A product has at most 100 variants: a SKU's first use is stored as one number, product index × 128 + variant index. */
const VARIANT_SLOTS = 128;

/**
 * The rules of a catalog file, applied part by part so that a file can be checked while
 * it streams by, one product at a time: the regions first (`useRegions`), then each
 * product (`checkProduct`), and the file without its products (`checkHeader`). Each
 * part is checked against its JSON Schema, and the rules a schema cannot express
 * (uniqueness, references between regions, options and prices) run over the
 * well-formed parts, so that one run lists every problem rather than only the shape
 * errors. Problems carry the JSON path they have in the whole file.
 */
export class CatalogFileChecker {
  readonly problems: CatalogFileProblem[] = [];
  /** The handles of the well-formed products checked so far, with their product's index. */
  readonly handles = new CompactStringMap();
  /** The SKUs of the well-formed products checked so far, with their first use. */
  private readonly skus = new CompactStringMap();
  private readonly regionCurrency = new Map<string, string>();
  /** Every region id the file declares, malformed regions included, so none is reported as unknown. */
  private readonly regionIds = new Set<string>();
  /** The currencies the file's regions sell in, malformed regions included: a price in another is shown in no market. */
  private readonly currencies = new Set<string>();
  /**
   * The category and collection handles the products name, each with the path of its
   * first use: the file may declare them after its products, so they are checked against
   * the declarations at the end (`checkHeader`).
   */
  private readonly categoryUses = new Map<string, string>();
  private readonly collectionUses = new Map<string, string>();
  productCount = 0;

  /** The cap is reached: later problems are not collected. */
  get full(): boolean {
    return this.problems.length >= MAX_PROBLEMS;
  }

  hasSku(sku: string): boolean {
    return this.skus.has(sku);
  }

  /** The regions the products' prices refer to (the file's `regions` member, whatever it holds). */
  useRegions(regions: unknown): void {
    for (const region of entries(regions)) {
      const id = (region as { id?: unknown } | null)?.id;
      if (typeof id === 'string') this.regionIds.add(id);
      const currency = (region as { currency?: unknown } | null)?.currency;
      if (typeof currency === 'string') this.currencies.add(currency);
      if (isWellFormedRegion(region) && !this.regionCurrency.has(region.id)) this.regionCurrency.set(region.id, region.currency);
    }
  }

  /** Checks the product at `index` of the file's products, filling in its defaults; true when it is well-formed. */
  checkProduct(product: unknown, index: number): product is CatalogFileProduct {
    this.productCount++;
    const at = `$.products[${index}]`;
    if (!isWellFormedProduct(product)) {
      for (const error of isWellFormedProduct.errors ?? []) this.shapeProblem(error, `/products/${index}`);
      return false;
    }
    const handleUse = this.handles.get(product.handle);
    if (handleUse !== undefined) this.report(`${at}.handle`, `duplicate handle "${product.handle}" (first used at $.products[${handleUse}].handle)`);
    else this.handles.set(product.handle, index);
    product.categories?.forEach((handle, c) => {
      if (!this.categoryUses.has(handle)) this.categoryUses.set(keptCopy(handle), `${at}.categories[${c}]`);
    });
    if (product.collection && !this.collectionUses.has(product.collection)) {
      this.collectionUses.set(keptCopy(product.collection), `${at}.collection`);
    }

    const optionNames = new Set<string>();
    product.options.forEach((option, o) => {
      if (optionNames.has(option.name)) this.report(`${at}.options[${o}].name`, `duplicate option name "${option.name}"`);
      optionNames.add(option.name);
    });

    const combinations = new Set<string>();
    product.variants.forEach((variant, v) => {
      const vat = `${at}.variants[${v}]`;
      if (LONE_SURROGATE.test(variant.sku)) {
        // No store keeps it as given (UTF-8 has no such character), and two of them would read as one SKU.
        this.report(`${vat}.sku`, 'is not valid Unicode: it holds half of a surrogate pair');
      } else {
        const firstUse = this.skus.get(variant.sku);
        if (firstUse !== undefined) this.report(`${vat}.sku`, `duplicate SKU "${variant.sku}" (first used at ${skuPath(firstUse)})`);
        else this.skus.set(variant.sku, index * VARIANT_SLOTS + v);
      }

      if (variant.options.length !== product.options.length) {
        this.report(`${vat}.options`, `has ${variant.options.length} values but the product has ${product.options.length} options`);
      } else {
        variant.options.forEach((value, i) => {
          const option = product.options[i]!;
          if (!option.values.includes(value)) {
            this.report(`${vat}.options[${i}]`, `"${value}" is not a value of option "${option.name}"`);
          }
        });
        const combination = JSON.stringify(variant.options);
        if (combinations.has(combination)) this.report(`${vat}.options`, `another variant already has the options ${combination}`);
        combinations.add(combination);
      }

      const priceKeys = new Set<string>();
      variant.prices.forEach((price, i) => {
        const pat = `${vat}.prices[${i}]`;
        const key = `${price.currency}/${price.region ?? ''}`;
        if (priceKeys.has(key)) {
          this.report(pat, `duplicate price for ${price.currency}${price.region ? ` in region "${price.region}"` : ''}`);
        }
        priceKeys.add(key);
        if (price.region === undefined) {
          if (!this.currencies.has(price.currency)) this.report(`${pat}.currency`, `no region sells in ${price.currency} (they sell in ${[...this.currencies].sort().join(', ')})`);
          return;
        }
        const currency = this.regionCurrency.get(price.region);
        if (!this.regionIds.has(price.region)) this.report(`${pat}.region`, `unknown region "${price.region}"`);
        else if (currency !== undefined && currency !== price.currency) {
          this.report(`${pat}.currency`, `region "${price.region}" uses ${currency}, not ${price.currency}`);
        }
      });
    });
    return true;
  }

  /** Checks the file with its products replaced by `placeholderOf(products)`: its shape, and the rules between regions. */
  checkHeader(header: unknown): void {
    if (!validateShape(header)) for (const error of validateShape.errors ?? []) this.shapeProblem(error, '');
    const file = (typeof header === 'object' && header !== null ? header : {}) as Record<string, unknown>;
    const seenIds = new Set<string>();
    const countryRegion = new Map<string, string>();
    entries(file.regions).forEach((region, r) => {
      if (!isWellFormedRegion(region)) return;
      if (seenIds.has(region.id)) this.report(`$.regions[${r}].id`, `duplicate region id "${region.id}"`);
      seenIds.add(region.id);
      region.countries.forEach((country, c) => {
        const owner = countryRegion.get(country);
        if (owner !== undefined && owner !== region.id) {
          this.report(`$.regions[${r}].countries[${c}]`, `country "${country}" is already served by region "${owner}"`);
        }
        countryRegion.set(country, region.id);
      });
    });
    this.checkCategories(entries(file.categories));
    const collections = new Set<string>();
    entries(file.collections).forEach((collection, c) => {
      if (!isWellFormedCollection(collection)) return;
      if (collections.has(collection.handle)) this.report(`$.collections[${c}].handle`, `duplicate collection handle "${collection.handle}"`);
      collections.add(collection.handle);
    });
    const declared = declaredHandles(file.collections);
    for (const [handle, path] of this.collectionUses) {
      if (!declared.has(handle)) this.report(path, `unknown collection "${handle}" (not in $.collections)`);
    }
  }

  /** Unique handles, known parents, no cycles, at most `MAX_CATEGORY_DEPTH` levels; and every category a product names is declared. */
  private checkCategories(categories: unknown[]): void {
    const parentOf = new Map<string, string | null>();
    const indexOf = new Map<string, number>();
    const declared = declaredHandles(categories);
    categories.forEach((category, c) => {
      if (!isWellFormedCategory(category)) return;
      if (parentOf.has(category.handle)) this.report(`$.categories[${c}].handle`, `duplicate category handle "${category.handle}"`);
      parentOf.set(category.handle, category.parent ?? null);
      indexOf.set(category.handle, c);
    });
    for (const [handle, c] of indexOf) {
      const parent = parentOf.get(handle)!;
      if (parent !== null && !declared.has(parent)) {
        this.report(`$.categories[${c}].parent`, `unknown parent category "${parent}"`);
        continue;
      }
      const misplaced = misplacement(handle, parentOf);
      if (misplaced?.kind === 'cycle') {
        this.report(`$.categories[${c}].parent`, `the parents of category "${handle}" form a cycle (through "${misplaced.through}")`);
      } else if (misplaced) this.report(`$.categories[${c}].parent`, `category "${handle}" is more than ${MAX_CATEGORY_DEPTH} levels below the top`);
    }
    for (const [handle, path] of this.categoryUses) {
      if (!declared.has(handle)) this.report(path, `unknown category "${handle}" (not in $.categories)`);
    }
  }

  private report(path: string, message: string): void {
    if (!this.full) this.problems.push({ path, message });
  }

  private shapeProblem(error: ErrorObject, prefix: string): void {
    const path = toJsonPath(prefix + error.instancePath);
    if (error.keyword === 'additionalProperties') {
      this.report(path, `unknown property "${String(error.params.additionalProperty)}"`);
    } else if (error.keyword === 'required') {
      this.report(path, `missing required property "${String(error.params.missingProperty)}"`);
    } else this.report(path, error.message ?? 'is invalid');
  }
}

/**
 * Checks a whole catalog file, already parsed, before anything is written, and reports
 * every problem (up to `MAX_PROBLEMS`) with its JSON path. Fills in the defaults.
 */
export function validateCatalogFile(input: unknown): CatalogFileCheck {
  const checker = new CatalogFileChecker();
  const file = typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : undefined;
  checker.useRegions(file?.regions);
  entries(file?.products).forEach((product, index) => checker.checkProduct(product, index));
  checker.checkHeader(file && 'products' in file ? { ...file, products: placeholderOf(file.products) } : input);
  if (checker.problems.length > 0) return { ok: false, problems: checker.problems, truncated: checker.full };
  return { ok: true, catalog: input as CatalogFile };
}

/**
 * A copy of a string that is kept for the whole check. A streaming parser's strings may
 * be slices of the chunk of text they were read from, and a kept slice keeps its whole
 * chunk alive: a 241 MB file's product handles and SKUs, when they were kept as strings
 * (they are bytes now, in a `CompactStringMap`), held 300 MB of its text.
 */
function keptCopy(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}

function entries(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/**
 * The handles of a list of categories or collections, malformed ones included (like
 * region ids in `useRegions`): a reference to a malformed one is not reported as unknown,
 * only the malformed entry is.
 */
function declaredHandles(list: unknown): Set<string> {
  const handles = new Set<string>();
  for (const entry of entries(list)) {
    const handle = (entry as { handle?: unknown } | null)?.handle;
    if (typeof handle === 'string') handles.add(handle);
  }
  return handles;
}

function skuPath(firstUse: number): string {
  return `$.products[${Math.floor(firstUse / VARIANT_SLOTS)}].variants[${firstUse % VARIANT_SLOTS}].sku`;
}

function toJsonPath(pointer: string): string {
  return (
    '$' +
    pointer
      .split('/')
      .slice(1)
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
      .map((part) => (/^\d+$/.test(part) ? `[${part}]` : /^[A-Za-z_$][\w$]*$/.test(part) ? `.${part}` : `[${JSON.stringify(part)}]`))
      .join('')
  );
}
