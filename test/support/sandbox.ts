import assert from 'node:assert/strict';
import type { CatalogFileProduct } from '../../src/catalog/file/catalog-file-schema.js';
import { product, skuVariants, variant } from './catalog-builder.js';
import type { CheckedResponse } from './contract.js';
import type { TestApp } from './test-app.js';

/**
 * The sandbox tests' catalog (`startTestApp({ catalog: SANDBOX_PRODUCTS })`): one variant
 * of every kind the sandbox must tell apart. All prices are EUR only (so every variant is
 * unpriced in a GBP cart), except OIL.
 */
export const SANDBOX_PRODUCTS: CatalogFileProduct[] = [
  product('olive-oil', {
    variants: [
      variant('OIL', {
        prices: [
          { currency: 'EUR', amount: 1650 },
          { currency: 'EUR', amount: 1750, region: 'reg_eu' },
          { currency: 'GBP', amount: 1420 },
        ],
      }),
    ],
  }),
  product('cents', {
    ...skuVariants([
      variant('TEN', { prices: [{ currency: 'EUR', amount: 10 }] }),
      variant('TWENTY', { prices: [{ currency: 'EUR', amount: 20 }] }),
      variant('ONE-TEN', { prices: [{ currency: 'EUR', amount: 110 }] }),
    ]),
  }),
  product('sold-out', { variants: [variant('SOLD-OUT', { manage_inventory: true, inventory_quantity: 0 })] }),
  product('on-backorder', {
    variants: [variant('BACKORDER', { manage_inventory: true, inventory_quantity: 0, allow_backorder: true })],
  }),
  product('draft-thing', { status: 'draft', variants: [variant('DRAFT')] }),
  product('weighted-thing', { weighted: true, variants: [variant('WEIGHTED')] }),
];

export const VALID_ADDRESS = {
  name: 'Ada Lovelace',
  line_one: 'Via Roma 1',
  city: 'Milano',
  country: 'IT',
  postal_code: '20121',
};

/** A cart with one item, an address and the shipping option: ready for checkout. */
export async function completeCart(sandbox: TestApp, token: string): Promise<string> {
  const cart = await sandbox.newCart(token);
  const oil = await sandbox.variantId('OIL');
  assert.equal((await sandbox.call(token, 'POST', `/sandbox/v1/carts/${cart.id}/items`, { variant_id: oil, quantity: 1 })).statusCode, 201);
  assert.equal((await sandbox.call(token, 'POST', `/sandbox/v1/carts/${cart.id}/shipping-address`, VALID_ADDRESS)).statusCode, 200);
  const option = await sandbox.call(token, 'POST', `/sandbox/v1/carts/${cart.id}/shipping-option`, { shipping_option_id: 'sandbox_standard' });
  assert.equal(option.statusCode, 200);
  return cart.id;
}

export function assertSandboxError(response: CheckedResponse, status: number, error: string): void {
  assert.equal(response.statusCode, status, response.body);
  assert.equal(response.data.error, error, response.body);
  assert.doesNotMatch(response.body, /\bat .+\.(ts|js):\d+|SELECT |INSERT |sqlite|postgres/i);
}
