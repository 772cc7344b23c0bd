import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertProblem, getOk } from '../support/catalog-assertions.js';
import { day, product } from '../support/catalog-builder.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** One served product and three that must never be served, all titled "Saffron ...". */
const PRODUCTS = [
  product('saffron-jar', { title: 'Saffron Jar', created_at: day(1) }),
  product('saffron-draft', { title: 'Saffron Draftonly Reserve', status: 'draft', created_at: day(2) }),
  product('saffron-by-weight', { title: 'Saffron Weightonly Threads', weighted: true, created_at: day(3) }),
  product('saffron-draft-by-weight', { title: 'Saffron Bothhidden', status: 'draft', weighted: true, created_at: day(4) }),
];
const HIDDEN = ['saffron-draft', 'saffron-by-weight', 'saffron-draft-by-weight'];

describe('draft and weighted products are never served', () => {
  let testApp: TestApp;

  before(async () => {
    testApp = await startTestApp({ catalog: PRODUCTS });
  });
  after(() => testApp.close());

  it('200 lists only the published, non-weighted product, with count 1', async () => {
    const data = await getOk(testApp.client, '/public/v1/products');
    assert.deepEqual(data.products.map((p: any) => p.handle), ['saffron-jar']);
    assert.equal(data.count, 1);
  });

  it('200 searching a word all titles share finds only the served product', async () => {
    const data = await getOk(testApp.client, '/public/v1/products?q=saffron');
    assert.deepEqual(data.products.map((p: any) => p.handle), ['saffron-jar']);
  });

  for (const [handle, word] of [
    ['saffron-draft', 'draftonly'],
    ['saffron-by-weight', 'weightonly'],
    ['saffron-draft-by-weight', 'bothhidden'],
  ]) {
    it(`200 with no results searching "${word}", a word only in the title of ${handle}`, async () => {
      for (const q of [word, handle]) {
        const data = await getOk(testApp.client, `/public/v1/products?q=${q}`);
        assert.equal(data.count, 0, q);
      }
    });
  }

  for (const handle of HIDDEN) {
    it(`404 PRODUCT_NOT_FOUND for ${handle}`, async () => {
      assertProblem(await testApp.client.get(`/public/v1/products/${handle}`), 404, 'PRODUCT_NOT_FOUND');
    });
  }
});
