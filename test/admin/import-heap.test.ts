import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { catalog, product } from '../support/catalog-builder.js';
import { adminClient, importOverHttp, withAdmin } from '../support/admin.js';
import { heapOfServedProducts, MiB } from '../support/heap-numbers.js';
import { useTestApp } from '../support/test-app.js';

/**
 * 100 MiB of service and 1 MiB a served product, against a heap limit of 250 MiB: 80% of
 * it, 200 MiB, holds 100 served products.
 */
const heap = heapOfServedProducts(100 * MiB, MiB, 250 * MiB);
const products = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => product(`${prefix}-${i}`));
const SEEDED = products('kept', 60);

describe("an import that would grow the catalog past the instance's heap", () => {
  const testApp = useTestApp(withAdmin({ catalog: SEEDED, heapBudget: heap.heapBudget, beforeReady: heap.watch }));
  const storedProducts = async () => (await testApp.store.db.selectFrom('products').select('handle').execute()).length;

  it('is refused once its file is checked, before it writes anything, the job naming the numbers and the setting', async () => {
    const versionBefore = testApp.app.catalogReadModel.catalog.version;
    // 60 served, 50 added (the 60 of the file already served count once): 110 products, 210 MiB.
    const job = await importOverHttp(testApp, catalog([...SEEDED, ...products('new', 50)]));
    assert.deepEqual([job.status, job.phase, job.report, job.catalog_versions], ['failed', 'done', null, { before: versionBefore, after: null }]);
    assert.equal(job.error.code, 'CATALOG_TOO_LARGE');
    assert.equal(
      job.error.message,
      "With the 50 products the import adds to the 60 served now, the catalog's 110 served products and their search index, this process would use about 210 MiB of heap, " +
        'more than 80% of its heap limit of 250 MiB; the import is refused before it writes anything. Give Node.js a larger heap, e.g. NODE_OPTIONS=--max-old-space-size=512, ' +
        'and the machine or container the memory to match (RSS runs at about 1.3 times the heap; docs/deploy.md, Memory).',
    );
    assert.match(job.error.hint, /Restart every instance with the larger heap details\.setting names/);
    assert.deepEqual(job.error.details, {
      served_products: 110,
      projected_heap_mib: 210,
      heap_limit_mib: 250,
      catalog_heap_share: 0.8,
      setting: 'NODE_OPTIONS=--max-old-space-size=512',
    });

    // Nothing written: no product, no catalog change, no audit entry.
    assert.equal(await storedProducts(), 60);
    assert.equal(testApp.app.catalogReadModel.catalog.version, versionBefore);
    assert.equal((await testApp.app.inject({ url: '/public/v1/products/new-0' })).statusCode, 404);
    const audit = await adminClient(testApp)('GET', '/admin/v1/audit?actor=erp&limit=1');
    assert.equal(audit.statusCode, 200, audit.body);
    assert.equal(audit.data.entries.length, 0, audit.body);
  });

  it('lets an import that fits write, counting only the handles not served yet', async () => {
    // 60 served, 40 added: 100 products, 200 MiB, exactly 80% of the limit.
    const job = await importOverHttp(testApp, catalog([...SEEDED, ...products('new', 40)]));
    assert.deepEqual([job.status, job.error, job.report.products], ['succeeded', null, { created: 40, updated: 60 }]);
    assert.equal(testApp.app.catalogReadModel.catalog.products.length, 100);

    // One more is over.
    const over = await importOverHttp(testApp, catalog([product('one-more')]));
    assert.deepEqual([over.status, over.error.code, over.error.details.served_products, over.report], ['failed', 'CATALOG_TOO_LARGE', 101, null]);
    assert.equal(await storedProducts(), 100);
  });
});
