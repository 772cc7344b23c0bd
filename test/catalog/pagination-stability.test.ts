import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CatalogFile } from '../../src/catalog/file/catalog-file-schema.js';
import { importCatalog } from '../../src/catalog/store/import-catalog.js';
import { duplicates, getOk, walkCursor } from '../support/catalog-assertions.js';
import { catalog, product } from '../support/catalog-builder.js';
import { readDemoCatalog } from '../support/catalog-store.js';
import type { ContractClient } from '../support/contract.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { CatalogWriter } from '../../src/catalog/store/catalog-writer.js';

const REPRICED = 'tuscan-extra-virgin-olive-oil';

/**
 * A change made through the importer in the middle of a walk: a product newer than
 * every other (so it sorts before the pages already seen) and a new price for a
 * product the walk has not reached yet.
 */
function midWalkChange(demo: CatalogFile, suffix: string, createdAt: string): CatalogFile {
  const repriced = structuredClone(demo.products.find((p) => p.handle === REPRICED)!);
  for (const v of repriced.variants) for (const price of v.prices) price.amount += 100;
  const newest = product(`olive-newest-${suffix}`, { title: 'Olive Newest Arrival', created_at: createdAt });
  return catalog([newest, repriced], demo.regions);
}

describe('cursor walks are stable while the catalog changes (docs/decisions.md, Cursors)', () => {
  let testApp: TestApp;
  let client: ContractClient;
  let demo: CatalogFile;

  before(async () => {
    testApp = await startTestApp();
    client = testApp.client;
    demo = await readDemoCatalog();
  });
  after(() => testApp.close());

  // Each case adds a product newer than everything before it, the previous case's included.
  for (const [query, suffix, createdAt] of [
    ['limit=7', 'all', '2030-01-01T00:00:00.000Z'],
    ['limit=3&q=olive', 'search', '2031-01-01T00:00:00.000Z'],
  ] as const) {
    it(`200 on every page of ${query}, visiting each original product exactly once across an import and a reprice`, async () => {
      const before = (await walkCursor(client, query)).flatMap((page) => page.handles);
      const pages = await walkCursor(client, query, async (pageIndex) => {
        if (pageIndex !== 1) return;
        await importCatalog(new CatalogWriter(testApp.store.db), midWalkChange(demo, suffix, createdAt));
        await testApp.app.catalogReadModel.refresh();
      });
      const walked = pages.flatMap((page) => page.handles);

      assert.deepEqual(duplicates(walked), []);
      assert.deepEqual(
        before.filter((handle) => !walked.includes(handle)),
        [],
        'every product served before the change is visited',
      );
      assert.ok(!walked.includes(`olive-newest-${suffix}`), 'the newer product sorts before the pages already walked');
      assert.ok(walked.includes(REPRICED));

      const { product: repriced } = await getOk(client, `/public/v1/products/${REPRICED}`);
      assert.equal(repriced.variants[0].price.amount, 17.5, 'the reprice took effect (1650 + 100 minor units)');
      const first = await getOk(client, `/public/v1/products?${query}`);
      assert.equal(first.products[0].handle, `olive-newest-${suffix}`, 'a new walk starts with the newer product');
    });
  }
});
