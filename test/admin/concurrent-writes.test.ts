import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { product, skuVariants, variant } from '../support/catalog-builder.js';
import { adminClient, withAdmin } from '../support/admin.js';
import { useTestApp } from '../support/test-app.js';

const ROUNDS = 15;

/**
 * Catalog writers take turns (change-log.ts, lockCatalogForWriting). Without that, on
 * PostgreSQL two writers on one product each rebuilt its served document without the
 * other's uncommitted change, and the second overwrote the first (29 of 30 rounds); and
 * writers locking products and variants in opposite orders deadlocked (a 409 in every
 * round of a product replaced while its stock was set).
 */
describe('concurrent admin writes to one product', () => {
  const testApp = useTestApp(
    withAdmin({
      catalog: [
        product('olive-oil', {
          ...skuVariants([
            variant('A', { prices: [{ currency: 'EUR', amount: 1650 }] }),
            variant('B', { prices: [{ currency: 'EUR', amount: 2900 }] }),
          ]),
        }),
      ],
    }),
  );
  const served = async () => {
    const page = (await testApp.app.inject({ url: '/public/v1/products/olive-oil' })).json() as { product: { variants: { sku: string; price: { amount: number } }[] } };
    return Object.fromEntries(page.product.variants.map((entry) => [entry.sku, entry.price.amount]));
  };

  it('both of two simultaneous price changes on two of its variants are served', async () => {
    const admin = adminClient(testApp);
    for (let round = 1; round <= ROUNDS; round++) {
      const price = (sku: string) => admin('POST', '/admin/v1/prices', { rows: [{ sku, currency: 'EUR', amount: 10_000 + round }] });
      const answers = await Promise.all([price('A'), price('B')]);
      assert.deepEqual(answers.map((answer) => answer.statusCode), [200, 200]);
      assert.deepEqual(await served(), { A: (10_000 + round) / 100, B: (10_000 + round) / 100 }, `round ${round}`);
    }
  });

  it('a product replaced while its stock is set: both succeed, one after the other', async () => {
    const admin = adminClient(testApp);
    for (let round = 1; round <= ROUNDS; round++) {
      const replaced = admin('PUT', '/admin/v1/products/olive-oil', {
        status: 'published',
        translations: { en: { title: `Olive oil ${round}` } },
        options: [{ name: 'Size', values: ['500 ml', '1 l'] }],
        variants: [
          { sku: 'A', options: ['500 ml'], prices: [{ currency: 'EUR', amount: 1650 }] },
          { sku: 'B', options: ['1 l'], prices: [{ currency: 'EUR', amount: 2900 }] },
        ],
      });
      const stocked = admin('POST', '/admin/v1/inventory', { rows: [{ sku: 'A', inventory_quantity: round }] });
      const both = await Promise.all([replaced, stocked]);
      assert.deepEqual(both.map((answer) => answer.statusCode), [200, 200], `round ${round}: ${both.map((answer) => answer.body).join(' ')}`);
    }
  });
});
