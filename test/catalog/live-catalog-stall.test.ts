import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CatalogFileProduct } from '../../src/catalog/file/catalog-file-schema.js';
import { CatalogWriter } from '../../src/catalog/store/catalog-writer.js';
import { importCatalog } from '../../src/catalog/store/import-catalog.js';
import { PRODUCTS_PER_SLICE } from '../../src/catalog/read-model/read-model.js';
import { GENERATED_REGIONS, generateProducts } from '../../tools/catalog-generator/catalog.js';
import { catalog } from '../support/catalog-builder.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** Enough for the change to take many slices. How long the event loop waits is `npm run bench:live`'s to report, not a test's. */
const PRODUCTS = 10 * PRODUCTS_PER_SLICE;

/**
 * Applying a change to every product of a catalog yields to the event loop between
 * slices (rebuilding the whole read model blocked it for seconds): counted in turns of
 * the event loop and in requests answered meanwhile, which a busy machine does not change.
 */
describe(`applying a change to every product of a ${PRODUCTS}-product catalog`, () => {
  const original: CatalogFileProduct[] = [...generateProducts({ products: PRODUCTS, seed: 11 })].map((product) => ({
    ...product,
    status: 'published',
    weighted: false,
  }));
  const changed = original.map((product, index) => ({
    ...product,
    // Every tenth product unpublished, every seventh retitled, every price up by 1.00.
    status: index % 10 === 0 ? ('draft' as const) : product.status,
    translations: index % 7 === 0 ? { ...product.translations, en: { ...product.translations.en, title: `Zanzibar ${index}` } } : product.translations,
    variants: product.variants.map((variant) => ({ ...variant, prices: variant.prices.map((price) => ({ ...price, amount: price.amount + 100 })) })),
  }));
  let service: TestApp;
  let turns = 0;
  let answeredWhileApplying: number | undefined;

  before(async () => {
    service = await startTestApp({ config: { catalogSeed: 'none' } });
    await importCatalog(new CatalogWriter(service.store.db), catalog(original, GENERATED_REGIONS));
    await service.app.catalogReadModel.refresh();
    await importCatalog(new CatalogWriter(service.store.db), catalog(changed, GENERATED_REGIONS));

    // A probe that runs once per turn of the event loop, and a request sent as the change starts being applied.
    let applied = false;
    const probe = () => {
      if (applied) return;
      turns++;
      setImmediate(probe);
    };
    setImmediate(probe);
    const applying = service.app.catalogReadModel.refresh().finally(() => {
      applied = true;
    });
    const answer = await service.app.inject({ url: '/public/v1/products?limit=1' });
    assert.equal(answer.statusCode, 200);
    if (!applied) answeredWhileApplying = JSON.parse(answer.body).count;
    await applying;
  });
  after(() => service?.close());

  it(`yields to the event loop between slices: at least one turn per ${PRODUCTS_PER_SLICE} products`, () => {
    assert.ok(turns >= PRODUCTS / PRODUCTS_PER_SLICE, `${turns} turns of the event loop while ${PRODUCTS} products were applied`);
  });

  it('answers a request sent meanwhile before the change is all applied', () => {
    assert.notEqual(answeredWhileApplying, undefined, 'the request was answered only once the whole change was applied');
  });

  it('serves every change once applied: prices, unpublished and retitled products', async () => {
    const get = async (url: string) => JSON.parse((await service.app.inject({ url })).body);
    const sample = original[1]!;
    const usd = sample.variants[0]!.prices.find((price) => price.currency === 'USD' && price.region === undefined)!;
    const detail = await get(`/public/v1/products/${sample.handle}?country=US`);
    const served = detail.product.variants.find((variant: { sku: string }) => variant.sku === sample.variants[0]!.sku);
    assert.equal(served.price.amount, (usd.amount + 100) / 100);
    assert.equal((await service.app.inject({ url: `/public/v1/products/${original[0]!.handle}` })).statusCode, 404);
    const retitled = changed.filter((product, index) => index % 7 === 0 && product.status === 'published').length;
    assert.equal((await get('/public/v1/products?q=zanzibar&limit=1')).count, retitled);
    assert.equal((await get('/public/v1/products?limit=1')).count, changed.filter((product) => product.status === 'published').length);
  });
});
