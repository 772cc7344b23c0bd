import { Ajv, type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import { CatalogFile, CatalogFileProduct, CatalogFileRegion } from './catalog-file-schema.js';

export interface CatalogFileProblem {
  /** JSONPath of the offending value, e.g. `$.products[3].variants[0].sku`. */
  path: string;
  message: string;
}

export type CatalogFileCheck =
  | { ok: true; catalog: CatalogFile }
  | { ok: false; problems: CatalogFileProblem[] };

const ajv = new Ajv({ allErrors: true, useDefaults: true, strict: false });
addFormats.default(ajv);
const validateShape = ajv.compile<CatalogFile>(CatalogFile);
const isWellFormedRegion = ajv.compile<CatalogFileRegion>(CatalogFileRegion);
const isWellFormedProduct = ajv.compile<CatalogFileProduct>(CatalogFileProduct);

/** What the cross-reference rules read: entries by their index in the file, undefined where malformed. */
interface CheckedParts {
  regions: (CatalogFileRegion | undefined)[];
  products: (CatalogFileProduct | undefined)[];
  /** Every region id the file declares, malformed regions included, so none is reported as unknown. */
  regionIds: Set<string>;
}

/**
 * Checks a whole catalog file before anything is written, and reports every problem
 * with its JSON path: first the shape (the JSON Schema), then the rules a schema
 * cannot express (uniqueness, references between regions, options and prices).
 */
export function validateCatalogFile(input: unknown): CatalogFileCheck {
  if (validateShape(input)) {
    const problems = crossReferenceProblems({ ...input, regionIds: new Set(input.regions.map((region) => region.id)) });
    return problems.length > 0 ? { ok: false, problems } : { ok: true, catalog: input };
  }
  // The rules between values also run over the well-formed regions and products of a
  // malformed file, so that one run lists every problem rather than only the shape errors.
  const problems = (validateShape.errors ?? []).map(shapeProblem);
  return { ok: false, problems: [...problems, ...crossReferenceProblems(wellFormedParts(input))] };
}

function wellFormedParts(input: unknown): CheckedParts {
  const file = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  const entries = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
  const regionIds = entries(file.regions).map((region) => (region as { id?: unknown } | null)?.id);
  return {
    regions: entries(file.regions).map((region) => (isWellFormedRegion(region) ? region : undefined)),
    products: entries(file.products).map((product) => (isWellFormedProduct(product) ? product : undefined)),
    regionIds: new Set(regionIds.filter((id): id is string => typeof id === 'string')),
  };
}

function shapeProblem(error: ErrorObject): CatalogFileProblem {
  const path = toJsonPath(error.instancePath);
  if (error.keyword === 'additionalProperties') {
    return { path, message: `unknown property "${String(error.params.additionalProperty)}"` };
  }
  if (error.keyword === 'required') {
    return { path, message: `missing required property "${String(error.params.missingProperty)}"` };
  }
  return { path, message: error.message ?? 'is invalid' };
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

function crossReferenceProblems(catalog: CheckedParts): CatalogFileProblem[] {
  const problems: CatalogFileProblem[] = [];
  const report = (path: string, message: string) => problems.push({ path, message });

  const regionCurrency = new Map<string, string>();
  const countryRegion = new Map<string, string>();
  catalog.regions.forEach((region, r) => {
    if (!region) return;
    if (regionCurrency.has(region.id)) report(`$.regions[${r}].id`, `duplicate region id "${region.id}"`);
    regionCurrency.set(region.id, region.currency);
    region.countries.forEach((country, c) => {
      const owner = countryRegion.get(country);
      if (owner !== undefined && owner !== region.id) {
        report(`$.regions[${r}].countries[${c}]`, `country "${country}" is already served by region "${owner}"`);
      }
      countryRegion.set(country, region.id);
    });
  });

  const handles = new Set<string>();
  const skus = new Map<string, string>();
  catalog.products.forEach((product, p) => {
    if (!product) return;
    const at = `$.products[${p}]`;
    if (handles.has(product.handle)) report(`${at}.handle`, `duplicate handle "${product.handle}"`);
    handles.add(product.handle);

    const optionNames = new Set<string>();
    product.options.forEach((option, o) => {
      if (optionNames.has(option.name)) report(`${at}.options[${o}].name`, `duplicate option name "${option.name}"`);
      optionNames.add(option.name);
    });

    const combinations = new Set<string>();
    product.variants.forEach((variant, v) => {
      const vat = `${at}.variants[${v}]`;
      const firstUse = skus.get(variant.sku);
      if (firstUse !== undefined) report(`${vat}.sku`, `duplicate SKU "${variant.sku}" (first used at ${firstUse})`);
      else skus.set(variant.sku, `${vat}.sku`);

      if (variant.options.length !== product.options.length) {
        report(`${vat}.options`, `has ${variant.options.length} values but the product has ${product.options.length} options`);
      } else {
        variant.options.forEach((value, i) => {
          const option = product.options[i]!;
          if (!option.values.includes(value)) {
            report(`${vat}.options[${i}]`, `"${value}" is not a value of option "${option.name}"`);
          }
        });
        const combination = JSON.stringify(variant.options);
        if (combinations.has(combination)) report(`${vat}.options`, `another variant already has the options ${combination}`);
        combinations.add(combination);
      }

      const priceKeys = new Set<string>();
      variant.prices.forEach((price, i) => {
        const pat = `${vat}.prices[${i}]`;
        const key = `${price.currency}/${price.region ?? ''}`;
        if (priceKeys.has(key)) {
          report(pat, `duplicate price for ${price.currency}${price.region ? ` in region "${price.region}"` : ''}`);
        }
        priceKeys.add(key);
        if (price.region === undefined) return;
        const currency = regionCurrency.get(price.region);
        if (!catalog.regionIds.has(price.region)) report(`${pat}.region`, `unknown region "${price.region}"`);
        else if (currency !== undefined && currency !== price.currency) {
          report(`${pat}.currency`, `region "${price.region}" uses ${currency}, not ${price.currency}`);
        }
      });
    });
  });
  return problems;
}
