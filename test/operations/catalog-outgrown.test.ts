import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CatalogTooLargeError } from '../../src/catalog/read-model/heap-budget.js';
import { CatalogWriter } from '../../src/catalog/store/catalog-writer.js';
import { importCatalog } from '../../src/catalog/store/import-catalog.js';
import { assertAdminError, postImport, withAdmin } from '../support/admin.js';
import { catalog, product } from '../support/catalog-builder.js';
import { heapOfServedProducts, MiB } from '../support/heap-numbers.js';
import { sample } from '../support/prometheus.js';
import { useTestApp } from '../support/test-app.js';

/** 100 MiB of service and 1 MiB a served product, against a heap limit of 250 MiB: 80% of it holds 100 served products. */
const heap = heapOfServedProducts(100 * MiB, MiB, 250 * MiB);
const products = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => product(`${prefix}-${i}`));

describe('an instance whose catalog grows past its heap through changes made elsewhere', () => {
  const logged: string[] = [];
  const testApp = useTestApp(
    withAdmin({
      catalog: products('seeded', 60),
      heapBudget: heap.heapBudget,
      beforeReady: heap.watch,
      logger: { level: 'error', stream: { write: (line: string) => logged.push(line) } },
    }),
  );
  /** Another instance, with a larger heap, importing into the same store: this one learns of it when it next catches up. */
  const importElsewhere = (prefix: string, count: number) => importCatalog(new CatalogWriter(testApp.store.db), catalog(products(prefix, count)));
  const readModel = () => testApp.app.catalogReadModel;
  const scrape = async () => (await testApp.app.inject({ url: '/metrics' })).body;

  it('applies the changes that fit', async () => {
    await importElsewhere('fits', 30);
    await readModel().refresh();
    assert.equal(readModel().catalog.products.length, 90);
    assert.equal(readModel().outgrown, undefined);
    assert.equal((await testApp.client.get('/readyz')).statusCode, 200);
    assert.equal(sample(await scrape(), 'vetrina_catalog_outgrown_heap'), 0);
  });

  it('stops applying changes before they pass the budget, serves the catalog as it was and says so: readiness, metric, error log', async () => {
    const before = readModel().catalog.version;
    // 90 served and 30 more: 120 products, 220 MiB.
    const report = await importElsewhere('over', 30);
    await readModel().refresh();
    assert.equal(readModel().catalog.products.length, 90, 'none of the changes applied');
    assert.equal(readModel().catalog.version, before);
    assert.ok(readModel().outgrown instanceof CatalogTooLargeError);
    assert.equal((await testApp.app.inject({ url: '/public/v1/products/over-0' })).statusCode, 404);
    assert.equal((await testApp.app.inject({ url: '/public/v1/products/fits-0' })).statusCode, 200);

    const readiness = await testApp.client.get('/readyz');
    assert.equal(readiness.statusCode, 503, readiness.body);
    assert.deepEqual(readiness.data.failed, ['read_model']);
    assert.equal(sample(await scrape(), 'vetrina_catalog_outgrown_heap'), 1);
    const errors = logged.map((line) => JSON.parse(line) as { level: number; msg: string; catalogVersion?: number; products?: number });
    const stopped = errors.find((entry) => entry.catalogVersion === before);
    assert.ok(stopped, logged.join('\n'));
    assert.equal(stopped.level, 50);
    assert.equal(stopped.products, 120);
    assert.match(
      stopped.msg,
      /^With the latest catalog changes applied, the catalog's 120 served products and their search index, this process would use about 220 MiB of heap, more than 80% of its heap limit of 250 MiB; this instance stopped applying catalog changes at version \d+: it serves the catalog as of then, and \/readyz answers 503 until it is restarted\. Give Node\.js a larger heap, e\.g\. NODE_OPTIONS=--max-old-space-size=512,/,
    );

    // It stays stopped: later changes are not applied, and waiting for one rejects rather than hang.
    await readModel().refresh();
    assert.equal(readModel().catalog.version, before);
    await assert.rejects(readModel().catchUpTo(report.catalogVersion), CatalogTooLargeError);
  });

  it('refuses every import before its upload is read, 409 CATALOG_TOO_LARGE naming the numbers', async () => {
    const refused = assertAdminError(await postImport(testApp, catalog([product('fits-0')])), 409, 'CATALOG_TOO_LARGE');
    assert.deepEqual(refused.details, { served_products: 120, projected_heap_mib: 220, heap_limit_mib: 250, catalog_heap_share: 0.8, setting: 'NODE_OPTIONS=--max-old-space-size=512' });
    assert.match(refused.message, /stopped applying catalog changes/);
  });
});
