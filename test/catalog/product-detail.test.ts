import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertProblem, getOk } from '../support/catalog-assertions.js';
import { useTestApp } from '../support/test-app.js';

const DETAIL = '/public/v1/products';

describe('GET /public/v1/products/{handle} (docs/decisions.md, Handles)', () => {
  const shared = useTestApp();

  it('200 with the product, all its variants and the market context', async () => {
    const data = await getOk(shared.client, `${DETAIL}/caffe-espresso-blend`);
    assert.equal(data.product.handle, 'caffe-espresso-blend');
    assert.equal(data.product.title, 'Caffè Espresso Blend');
    assert.equal(data.product.variants.length, 9);
    assert.equal(data.product.url, `${shared.config.storefrontUrl}/products/caffe-espresso-blend`);
    assert.deepEqual(data.product.variants[0].options, [
      { name: 'Size', value: '250 g' },
      { name: 'Grind', value: 'Whole bean' },
    ]);
    assert.equal(data.product.variants[0].display_name, '250 g / Whole bean');
    assert.deepEqual(data.context, { locale: 'en', country: 'IT', currency: 'EUR', region_id: 'reg_it' });
  });

  it('200 for the same handle as the list serves, with the same product', async () => {
    const list = await getOk(shared.client, '/public/v1/products?limit=1');
    const detail = await getOk(shared.client, `${DETAIL}/${list.products[0].handle}`);
    assert.deepEqual(detail.product, list.products[0]);
  });

  const malformed: [string, string][] = [
    ['Caffe-espresso-blend', 'an uppercase letter'],
    ['caffe--espresso-blend', 'a double hyphen'],
    ['caffe-espresso-blend-', 'a trailing hyphen'],
    ['-caffe-espresso-blend', 'a leading hyphen'],
    ['caffe_espresso_blend', 'underscores'],
    ['caff%C3%A8', 'an accented letter'],
    ['caffe%20espresso', 'a space'],
    ['a'.repeat(201), '201 characters'],
    ['a'.repeat(501), '501 characters (past the router parameter limit)'],
    ['caffe%zz', 'a malformed percent-encoding'],
  ];
  for (const [handle, what] of malformed) {
    it(`400 INVALID_HANDLE for a handle with ${what}`, async () => {
      assertProblem(await shared.client.get(`${DETAIL}/${handle}`), 400, 'INVALID_HANDLE');
    });
  }

  for (const path of ['a/b', 'caffe-espresso-blend/variants', 'caffe-espresso-blend/x/y']) {
    it(`400 INVALID_HANDLE, not an unknown route, for ${DETAIL}/${path}`, async () => {
      const response = await shared.app.inject({ method: 'GET', url: `${DETAIL}/${path}` });
      assert.equal(response.statusCode, 400, response.body);
      const body = JSON.parse(response.body);
      assert.equal(body.error.code, 'INVALID_HANDLE');
      assert.equal(body.request_id, response.headers['x-request-id']);
    });
  }

  it('404 PRODUCT_NOT_FOUND for a well-formed handle of 200 characters that is unknown', async () => {
    assertProblem(await shared.client.get(`${DETAIL}/${'a'.repeat(200)}`), 404, 'PRODUCT_NOT_FOUND');
  });

  it('404 PRODUCT_NOT_FOUND for an unknown handle', async () => {
    assertProblem(await shared.client.get(`${DETAIL}/no-such-product`), 404, 'PRODUCT_NOT_FOUND');
  });

  it('400 REGION_NOT_FOUND for an unserved market on a known product', async () => {
    assertProblem(await shared.client.get(`${DETAIL}/caffe-espresso-blend?country=JP`), 400, 'REGION_NOT_FOUND');
  });
});
