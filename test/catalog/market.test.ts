import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertProblem, getOk } from '../support/catalog-assertions.js';
import { useTestApp } from '../support/test-app.js';

const LIST = '/public/v1/products';
const DETAIL = '/public/v1/products/caffe-espresso-blend';

describe('catalog market resolution (docs/decisions.md, Markets)', () => {
  const shared = useTestApp();

  for (const path of [LIST, DETAIL]) {
    describe(`GET ${path}`, () => {
      it('200 with the default market en / IT / EUR / reg_it', async () => {
        const data = await getOk(shared.client, path);
        assert.deepEqual(data.context, { locale: 'en', country: 'IT', currency: 'EUR', region_id: 'reg_it' });
      });

      it('200 with currency defaulting to the region currency: country=GB is GBP in reg_gb', async () => {
        const data = await getOk(shared.client, `${path}?country=GB`);
        assert.deepEqual(data.context, { locale: 'en', country: 'GB', currency: 'GBP', region_id: 'reg_gb' });
        const product = data.product ?? data.products[0];
        assert.equal(product.price_range.currency, 'GBP');
        assert.ok(product.variants.every((v: any) => v.price === null || v.price.currency === 'GBP'));
      });

      it('200 with case-insensitive market values echoed upper-case', async () => {
        const data = await getOk(shared.client, `${path}?locale=IT&country=de&currency=eur`);
        assert.deepEqual(data.context, { locale: 'it', country: 'DE', currency: 'EUR', region_id: 'reg_eu' });
      });

      it('200 with the explicit currency of the region', async () => {
        const data = await getOk(shared.client, `${path}?country=US&currency=USD`);
        assert.deepEqual(data.context, { locale: 'en', country: 'US', currency: 'USD', region_id: 'reg_us' });
      });

      const invalidMarkets: [string, string][] = [
        ['country=JP', 'an unserved country'],
        ['country=IT&currency=GBP', 'a currency that is not the region currency'],
        ['country=gb&currency=eur', 'a currency that is not the region currency (lower-case input)'],
        ['locale=fr', 'an unsupported locale'],
        ['locale=english', 'a malformed locale'],
        ['country=ITA', 'a three-letter country'],
        ['country=I', 'a one-letter country'],
        ['country=1T', 'a country with a digit'],
        ['country=', 'an empty country'],
        ['currency=EU', 'a two-letter currency'],
        ['currency=EURO', 'a four-letter currency'],
        ['currency=E1R', 'a currency with a digit'],
      ];
      for (const [query, what] of invalidMarkets) {
        it(`400 REGION_NOT_FOUND for ${what} (${query})`, async () => {
          assertProblem(await shared.client.get(`${path}?${query}`), 400, 'REGION_NOT_FOUND');
        });
      }
    });
  }
});
