import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { CatalogFileProduct } from '../../src/catalog/file/catalog-file-schema.js';
import { importCatalog } from '../../src/catalog/store/import-catalog.js';
import { GENERATED_REGIONS, generateProducts } from '../../tools/catalog-generator/catalog.js';
import { catalog } from './catalog-builder.js';
import { startTestApp } from './test-app.js';
import { CatalogWriter } from '../../src/catalog/store/catalog-writer.js';

/**
 * Run by test/catalog/live-catalog-stall.test.ts in a process of its own, so the delays
 * measured are the read model's, not those of a test runner's heap full of other tests:
 * builds a catalog of N generated products, changes every one of them, measures the
 * event loop while the app applies the change, then reads the result through HTTP.
 * Prints one JSON line. Run with --expose-gc.
 */
const products = Number(process.argv[2]);
const original: CatalogFileProduct[] = [...generateProducts({ products, seed: 11 })].map((product) => ({
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

const service = await startTestApp({ config: { catalogSeed: 'none' } });
try {
  await importCatalog(new CatalogWriter(service.store.db), catalog(original, GENERATED_REGIONS));
  await service.app.catalogReadModel.refresh();
  // The writes are not measured (on SQLite they run on the event loop), nor is collecting
  // the garbage they left; applying them is.
  await importCatalog(new CatalogWriter(service.store.db), catalog(changed, GENERATED_REGIONS));
  global.gc!();
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  await service.app.catalogReadModel.refresh();
  delay.disable();

  const get = async (url: string) => JSON.parse((await service.app.inject({ url })).body);
  const sample = original[1]!;
  const usd = sample.variants[0]!.prices.find((price) => price.currency === 'USD' && price.region === undefined)!;
  const detail = await get(`/public/v1/products/${sample.handle}?country=US`);
  console.log(
    JSON.stringify({
      longestStallMs: delay.max / 1e6,
      expectedPrice: (usd.amount + 100) / 100,
      servedPrice: detail.product.variants.find((variant: { sku: string }) => variant.sku === sample.variants[0]!.sku).price.amount,
      unpublishedStatus: (await service.app.inject({ url: `/public/v1/products/${original[0]!.handle}` })).statusCode,
      retitledFound: (await get('/public/v1/products?q=zanzibar&limit=1')).count,
      retitledExpected: changed.filter((product, index) => index % 7 === 0 && product.status === 'published').length,
      served: (await get('/public/v1/products?limit=1')).count,
      servedExpected: changed.filter((product) => product.status === 'published').length,
    }),
  );
} finally {
  await service.close();
}
