import assert from 'node:assert/strict';
import type { CatalogFileProduct } from '../../src/catalog/file/catalog-file-schema.js';
import { catalog, product, skuVariants, tempDir, variant } from '../support/catalog-builder.js';
import { ContractClient, type CheckedResponse } from '../support/contract.js';
import { startTestApp, type TestApp, type TestConfigOverrides } from '../support/test-app.js';

/**
 * A small catalog holding one variant of every kind the sandbox must tell apart. All
 * prices are EUR only (so every variant is unpriced in a GBP cart), except OIL.
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

export interface SandboxTestApp extends TestApp {
  client: ContractClient;
  /** Moves the app's clock (keys, carts, idempotency records) forward. */
  advanceClock(ms: number): void;
  clock(): Date;
  /** The id of a variant of SANDBOX_PRODUCTS (or the seeded catalog) by SKU. */
  variantId(sku: string): Promise<string>;
  newKey(scopes?: string[]): Promise<string>;
  newCart(token: string, body?: object): Promise<{ id: string } & Record<string, unknown>>;
  /** A POST or DELETE through the contract client with the key's Authorization header. */
  call(token: string | undefined, method: string, url: string, payload?: unknown, headers?: Record<string, string>): Promise<CheckedResponse>;
}

export interface StartOptions {
  /** The seeded catalog: SANDBOX_PRODUCTS unless `'demo'` or other products are given. */
  products?: CatalogFileProduct[] | 'demo';
  config?: TestConfigOverrides;
}

export async function startSandboxApp(options: StartOptions = {}): Promise<SandboxTestApp> {
  const { products = SANDBOX_PRODUCTS, config = {} } = options;
  let offsetMs = 0;
  const clock = () => new Date(Date.now() + offsetMs);
  const dir = await tempDir();
  let testApp: TestApp;
  try {
    const catalogSeed = products === 'demo' ? 'demo' : await dir.writeJson('catalog.json', catalog(products));
    testApp = await startTestApp({ catalogSeed, ...config }, { clock });
  } finally {
    await dir.remove();
  }
  const client = new ContractClient(testApp.app);
  let keys = 0;

  const call: SandboxTestApp['call'] = (token, method, url, payload, headers = {}) =>
    client.request({
      method,
      url,
      headers: { ...(token && { authorization: `Bearer ${token}` }), ...headers },
      ...(payload !== undefined && { payload: payload as object }),
    });

  return {
    ...testApp,
    client,
    clock,
    advanceClock: (ms) => {
      offsetMs += ms;
    },
    call,
    variantId: async (sku) => {
      const row = await testApp.store.db.selectFrom('variants').select('id').where('sku', '=', sku).executeTakeFirstOrThrow();
      return row.id;
    },
    newKey: async (scopes) => {
      const response = await call(undefined, 'POST', '/sandbox/v1/keys', scopes && { scopes });
      assert.equal(response.statusCode, 201, response.body);
      return response.data.access_token as string;
    },
    newCart: async (token, body) => {
      const response = await call(token, 'POST', '/sandbox/v1/carts', body, { 'idempotency-key': `new-cart-${++keys}` });
      assert.equal(response.statusCode, 201, response.body);
      return response.data;
    },
  };
}

/** A cart with one item, an address and the shipping option: ready for checkout. */
export async function completeCart(sandbox: SandboxTestApp, token: string): Promise<string> {
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
