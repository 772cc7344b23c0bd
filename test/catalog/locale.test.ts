import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CatalogFileProduct } from '../../src/catalog/file/catalog-file-schema.js';
import { DEFAULT_LOCALE, LOCALES } from '../../src/catalog/model/locales.js';
import { getOk } from '../support/catalog-assertions.js';
import { day, product } from '../support/catalog-builder.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

describe('locale texts with English fallback (docs/decisions.md, Locales)', () => {
  let testApp: TestApp;

  before(async () => {
    testApp = await startTestApp({
      catalog: [
        product('pesto', { title: 'Basil Pesto', titleIt: 'Pesto al basilico', created_at: day(2) }),
        product('grissini', { title: 'Breadsticks', created_at: day(1) }),
      ],
    });
  });
  after(() => testApp.close());

  const texts = async (handle: string, locale: string) => {
    const { product: p } = await getOk(testApp.client, `/public/v1/products/${handle}?locale=${locale}`);
    return { title: p.title, description: p.description };
  };

  it('200 with Italian texts for locale=it when the product has them', async () => {
    assert.deepEqual(await texts('pesto', 'it'), { title: 'Pesto al basilico', description: 'Su Pesto al basilico.' });
  });

  it('200 with English texts for locale=it when the product has no Italian translation', async () => {
    assert.deepEqual(await texts('grissini', 'it'), { title: 'Breadsticks', description: 'About Breadsticks.' });
  });

  it('200 with English texts for locale=en (and by default)', async () => {
    assert.deepEqual(await texts('pesto', 'en'), { title: 'Basil Pesto', description: 'About Basil Pesto.' });
    const { product: p } = await getOk(testApp.client, '/public/v1/products/pesto');
    assert.equal(p.title, 'Basil Pesto');
  });

  it('every surface offers exactly the served locales: the contract, the locale parameter, the catalog file', async () => {
    const doc = (await testApp.client.get('/openapi.json')).data;
    const contextLocales = doc.components.schemas.MarketContext.properties.locale.anyOf.map((schema: { const: string }) => schema.const);
    assert.deepEqual(contextLocales, [...LOCALES]);
    const parameter = doc.paths['/public/v1/products'].get.parameters.find((p: { name: string }) => p.name === 'locale');
    for (const locale of LOCALES) assert.match(parameter.description, new RegExp(`\\b${locale}\\b`));
    const translations = CatalogFileProduct.properties.translations;
    assert.deepEqual(Object.keys(translations.properties), [...LOCALES]);
    assert.deepEqual(translations.required, [DEFAULT_LOCALE]);
  });

  it('200 with the same handles in every locale, and the fallback in the list too', async () => {
    const it_ = await getOk(testApp.client, '/public/v1/products?locale=it');
    const en = await getOk(testApp.client, '/public/v1/products?locale=en');
    assert.deepEqual(
      it_.products.map((p: any) => [p.handle, p.title]),
      [
        ['pesto', 'Pesto al basilico'],
        ['grissini', 'Breadsticks'],
      ],
    );
    assert.deepEqual(
      en.products.map((p: any) => p.handle),
      it_.products.map((p: any) => p.handle),
    );
  });
});
