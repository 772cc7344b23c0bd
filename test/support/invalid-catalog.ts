import { catalog, product, skuVariants, variant } from './catalog-builder.js';

/**
 * A catalog file with shape errors and cross-reference errors in separate products,
 * and the JSON path and message of every problem it has. Products 0 is valid.
 */
export const INVALID_CATALOG = catalog([
  product('valid-product', skuVariants([variant('SKU-A'), variant('SKU-B')])),
  { ...product('Bad Handle'), status: 'live' as never },
  product('negative-price', {
    variants: [{ ...variant('NEG', { prices: [{ currency: 'EUR', amount: -1 }] }), colour: 'red' } as never],
  }),
  product('duplicate-sku', { variants: [variant('SKU-A')] }),
  product('unknown-region', { variants: [variant('UR', { prices: [{ currency: 'EUR', amount: 1, region: 'reg_mars' }] })] }),
  product('foreign-option-value', {
    options: [{ name: 'Size', values: ['S', 'M'] }],
    variants: [variant('FOV', { options: ['XL'] })],
  }),
  product('currency-mismatch', { variants: [variant('CM', { prices: [{ currency: 'USD', amount: 1, region: 'reg_gb' }] })] }),
  product('valid-product', { variants: [variant('DUPLICATE-HANDLE')] }),
  product('lone-surrogate', skuVariants([variant('SKU-\ud800'), variant('SKU-\ud801')])),
]);

export const INVALID_CATALOG_PROBLEMS: [path: string, message: RegExp][] = [
  ['$.products[1].handle', /pattern/],
  ['$.products[1].status', /./],
  ['$.products[2].variants[0]', /unknown property "colour"/],
  ['$.products[2].variants[0].prices[0].amount', />= 0/],
  ['$.products[3].variants[0].sku', /duplicate SKU "SKU-A"/],
  ['$.products[4].variants[0].prices[0].region', /unknown region "reg_mars"/],
  ['$.products[5].variants[0].options[0]', /"XL" is not a value of option "Size"/],
  ['$.products[6].variants[0].prices[0].currency', /region "reg_gb" uses GBP, not USD/],
  ['$.products[7].handle', /duplicate handle "valid-product" \(first used at \$\.products\[0\]\.handle\)/],
  ['$.products[8].variants[0].sku', /not valid Unicode/],
  ['$.products[8].variants[1].sku', /not valid Unicode/],
];
