import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CatalogFileInvalid, checkCatalogFile, importCatalogFile } from '../../src/catalog/store/import-catalog-file.js';
import type { ImportProgress } from '../../src/catalog/store/import-progress.js';
import { MAX_PROBLEMS, validateCatalogFile } from '../../src/catalog/file/validate-catalog-file.js';
import { readCatalogVersion } from '../../src/catalog/store/change-log.js';
import { writeMissingServedDocuments, type ServedDocument } from '../../src/catalog/store/served-document.js';
import { getOk } from '../support/catalog-assertions.js';
import { catalog, product, REGIONS, tempDir, variant, type TempDir } from '../support/catalog-builder.js';
import { dumpCatalog, readDemoCatalog } from '../support/catalog-store.js';
import { INVALID_CATALOG } from '../support/invalid-catalog.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { CatalogWriter } from '../../src/catalog/store/catalog-writer.js';

/** `count` products `bulk-0`, `bulk-1`..., one variant each (SKU `BULK-n`). */
const bulk = (count: number, from = 0) =>
  Array.from({ length: count }, (_, i) => product(`bulk-${from + i}`, { created_at: new Date(Date.UTC(2025, 0, 1, 0, 0, from + i)).toISOString() }));

/** Products of the catalog with their ids, by handle. */
async function productIds(testApp: TestApp): Promise<Map<string, string>> {
  const rows = await testApp.store.db.selectFrom('products').select(['id', 'handle']).execute();
  return new Map(rows.map((row) => [row.handle, row.id]));
}

async function changesAfter(testApp: TestApp, seq: number) {
  const rows = await testApp.store.db
    .selectFrom('catalog_changes')
    .select(['seq', 'product_ids', 'regions_changed'])
    .where('seq', '>', seq)
    .orderBy('seq')
    .execute();
  return rows.map((row) => ({ seq: Number(row.seq), productIds: (JSON.parse(row.product_ids) as string[]).sort(), regions: row.regions_changed === 1 }));
}

/** Every product's served document by id, prices in a fixed order (readers look prices up; their order is not kept). */
async function servedDocuments(testApp: TestApp): Promise<Map<string, ServedDocument>> {
  const rows = await testApp.store.db.selectFrom('products').select(['id', 'served']).execute();
  return new Map(
    rows.map((row) => {
      const document = JSON.parse(row.served!) as ServedDocument;
      for (const entry of document.variants) {
        const pairs = Array.from({ length: entry[6].length / 2 }, (_, i) => `${entry[6][2 * i]}=${entry[6][2 * i + 1]}`);
        entry[6] = pairs.sort();
      }
      return [row.id, document];
    }),
  );
}

describe('streaming catalog import: the file is checked whole, then written in batches', () => {
  let dir: TempDir;
  let testApp: TestApp;

  before(async () => {
    dir = await tempDir();
    testApp = await startTestApp({ catalog: [product('stays', { variants: [variant('MOVES')] })] });
  });
  after(async () => {
    await testApp.close();
    await dir.remove();
  });

  it('rejects an invalid product deep in a file with its path, and writes nothing of the valid products before it', async () => {
    const products = bulk(1300);
    products[1234] = product('bulk-1234', { variants: [variant('DEEP', { prices: [{ currency: 'EUR', amount: 5, region: 'reg_mars' }] })] });
    const file = await dir.writeJson('deep-invalid.json', catalog(products));
    const before = await dumpCatalog(testApp.store.db);
    await assert.rejects(importCatalogFile(new CatalogWriter(testApp.store.db), file), (error: unknown) => {
      assert.ok(error instanceof CatalogFileInvalid);
      assert.deepEqual(error.problems, [{ path: '$.products[1234].variants[0].prices[0].region', message: 'unknown region "reg_mars"' }]);
      assert.equal(error.truncated, false);
      return true;
    });
    assert.deepEqual(await dumpCatalog(testApp.store.db), before);
  });

  it('rejects a file cut off in its products as not JSON, with the product where reading stopped', async () => {
    const text = JSON.stringify(catalog(bulk(300)));
    const file = path.join(dir.path, 'cut.json');
    await writeFile(file, text.slice(0, text.indexOf('"bulk-250"') + 20));
    await assert.rejects(checkCatalogFile(file), (error: unknown) => {
      assert.ok(error instanceof CatalogFileInvalid);
      assert.equal(error.problems.length, 1);
      assert.equal(error.problems[0]!.path, '$.products[250]');
      assert.match(error.problems[0]!.message, /^is not valid JSON/);
      return true;
    });
  });

  it('rejects a file with a key twice at the top level, which a parser would silently take the last of', async () => {
    const file = path.join(dir.path, 'twice.json');
    await writeFile(file, `{"version":1,"regions":${JSON.stringify(REGIONS)},"products":[],"products":[]}`);
    await assert.rejects(checkCatalogFile(file), (error: unknown) => {
      assert.ok(error instanceof CatalogFileInvalid);
      assert.deepEqual(error.problems.map((problem) => problem.path), ['$.products']);
      assert.match(error.problems[0]!.message, /appears twice/);
      return true;
    });
  });

  it(`stops at ${MAX_PROBLEMS} problems and says the list is cut short`, async () => {
    const products = bulk(MAX_PROBLEMS + 200).map((entry) => ({ ...entry, colour: 'red' }));
    const file = await dir.writeJson('many-problems.json', catalog(products));
    await assert.rejects(checkCatalogFile(file), (error: unknown) => {
      assert.ok(error instanceof CatalogFileInvalid);
      assert.equal(error.problems.length, MAX_PROBLEMS);
      assert.equal(error.truncated, true);
      assert.deepEqual(error.problems[MAX_PROBLEMS - 1], { path: `$.products[${MAX_PROBLEMS - 1}]`, message: 'unknown property "colour"' });
      assert.match(error.message, new RegExp(`the first ${MAX_PROBLEMS} problems; checking stopped there`));
      return true;
    });
  });

  it('reports the same problems streaming as for the parsed file', async () => {
    const file = await dir.writeJson('invalid.json', INVALID_CATALOG);
    const parsed = validateCatalogFile(structuredClone(INVALID_CATALOG));
    assert.ok(!parsed.ok);
    await assert.rejects(checkCatalogFile(file), (error: unknown) => {
      assert.ok(error instanceof CatalogFileInvalid);
      const sorted = (problems: { path: string; message: string }[]) => problems.map((p) => `${p.path}: ${p.message}`).sort();
      assert.deepEqual(sorted(error.problems), sorted(parsed.problems));
      return true;
    });
  });

  it('checks prices against regions listed after the products', async () => {
    const bad = catalog([product('late-a'), product('late-b', { variants: [variant('LB', { prices: [{ currency: 'USD', amount: 1, region: 'reg_gb' }] })] })]);
    const file = path.join(dir.path, 'regions-last.json');
    await writeFile(file, JSON.stringify({ version: 1, products: bad.products, regions: bad.regions }));
    await assert.rejects(checkCatalogFile(file), (error: unknown) => {
      assert.ok(error instanceof CatalogFileInvalid);
      assert.deepEqual(error.problems.map((problem) => problem.path), ['$.products[1].variants[0].prices[0].currency']);
      return true;
    });
    await writeFile(file, JSON.stringify({ products: [product('late-a')], regions: REGIONS, version: 1 }));
    const checked = await checkCatalogFile(file);
    assert.equal(checked.productCount, 1);
    assert.equal(checked.regions.length, REGIONS.length);
  });

  it('writes an import bigger than a batch: every product served, one change per batch listing exactly its products, the last change the version', async () => {
    const before = await readCatalogVersion(testApp.store.db);
    const stays = (await productIds(testApp)).get('stays')!;
    // bulk-7 takes the SKU MOVES from `stays`, which is not in the file: the batch that moves it lists `stays` too.
    const products = bulk(25);
    products[7] = product('bulk-7', { created_at: products[7]!.created_at, variants: [variant('MOVES')] });
    const file = await dir.writeJson('bulk.json', catalog(products));

    const report = await importCatalogFile(new CatalogWriter(testApp.store.db), file, { batchSize: 10, unpublishMissing: true });
    assert.deepEqual(report.products, { created: 25, updated: 0 });
    assert.deepEqual(report.variants, { created: 24, updated: 1, removed: [] });
    assert.deepEqual(report.unpublished, ['stays']);

    const ids = await productIds(testApp);
    const idsOf = (handles: string[]) => handles.map((handle) => ids.get(handle)!).sort();
    const handlesOf = (from: number, to: number) => products.slice(from, to).map((entry) => entry.handle);
    assert.deepEqual(await changesAfter(testApp, before), [
      { seq: before + 1, productIds: [], regions: true },
      { seq: before + 2, productIds: [...idsOf(handlesOf(0, 10)), stays].sort(), regions: false },
      { seq: before + 3, productIds: idsOf(handlesOf(10, 20)), regions: false },
      { seq: before + 4, productIds: idsOf(handlesOf(20, 25)), regions: false },
      { seq: before + 5, productIds: [stays], regions: false },
    ]);
    assert.equal(report.catalogVersion, before + 5);

    await testApp.app.catalogReadModel.refresh();
    assert.equal((await getOk(testApp.client, '/public/v1/products')).count, 25);
    for (const handle of handlesOf(0, 25)) assert.equal((await getOk(testApp.client, `/public/v1/products/${handle}`)).product.handle, handle);
    const moved = await getOk(testApp.client, '/public/v1/products/bulk-7');
    assert.deepEqual(moved.product.variants.map((entry: { sku: string }) => entry.sku), ['MOVES']);
  });

  it('stores served documents built from the file that are those its stored rows give, and gives new products ids in file order', async () => {
    const demo = await readDemoCatalog();
    const first = await dir.writeJson('demo.json', demo);
    await importCatalogFile(new CatalogWriter(testApp.store.db), first, { batchSize: 10 });
    const ids = await productIds(testApp);
    const created = demo.products.map((entry) => ids.get(entry.handle)!);
    assert.deepEqual(created, [...created].sort(), 'ids sort in file order, so batches append to the indexes on them');

    // Again, changed: texts, prices, stock, options and variants replaced, SKUs moved between products.
    const changed = structuredClone(demo);
    const [a, b] = changed.products.filter((entry) => entry.variants.length > 1);
    const moved = a!.variants.pop()!;
    b!.options = [{ name: 'Variant', values: [...b!.variants.map((entry) => entry.sku), moved.sku] }];
    b!.variants = [...b!.variants, moved].map((entry) => ({ ...entry, options: [entry.sku] }));
    for (const entry of changed.products.slice(0, 20)) {
      entry.translations.en!.title += ' (new)';
      for (const one of entry.variants) {
        one.inventory_quantity += 3;
        one.prices = [...one.prices.slice(1), { currency: 'USD', amount: 123, region: 'reg_us' }];
      }
    }
    await importCatalogFile(new CatalogWriter(testApp.store.db), await dir.writeJson('demo-changed.json', changed), { batchSize: 7 });

    const written = await servedDocuments(testApp);
    await testApp.store.db.updateTable('products').set({ served: null }).execute();
    assert.equal(await writeMissingServedDocuments(testApp.store.db), written.size);
    assert.deepEqual(await servedDocuments(testApp), written);
    assert.equal(written.get(ids.get(b!.handle)!)!.variants.at(-1)![1], moved.sku);
  });

  it('converges when run again: the same ids, nothing created, the same catalog', async () => {
    const file = await dir.writeJson('bulk-again.json', catalog(bulk(25)));
    await importCatalogFile(new CatalogWriter(testApp.store.db), file, { batchSize: 10 });
    const ids = await productIds(testApp);
    const report = await importCatalogFile(new CatalogWriter(testApp.store.db), file, { batchSize: 10 });
    assert.deepEqual(report.products, { created: 0, updated: 25 });
    assert.deepEqual(await productIds(testApp), ids);
  });

  it('audits every change of an import as a step, so an import that stops half-way leaves a trail of what it wrote', async () => {
    const file = await dir.writeJson('audited.json', catalog(bulk(25)));
    const before = await readCatalogVersion(testApp.store.db);
    const report = await importCatalogFile(new CatalogWriter(testApp.store.db), file, { batchSize: 10, actor: 'nightly-feed' });
    const entries = await testApp.store.db.selectFrom('admin_audit').selectAll().where('seq', '>', before).orderBy('seq').execute();
    assert.deepEqual(
      entries.map((entry) => [Number(entry.seq), entry.actor, entry.action, Number(entry.version_after), JSON.parse(entry.changes).step]),
      [
        [before + 1, 'nightly-feed', 'import', before + 1, 'regions'],
        [before + 2, 'nightly-feed', 'import', before + 2, 'products'],
        [before + 3, 'nightly-feed', 'import', before + 3, 'products'],
        [before + 4, 'nightly-feed', 'import', before + 4, 'products'],
        [before + 5, 'nightly-feed', 'import', before + 5, 'done'],
      ],
    );
    assert.deepEqual(entries.slice(1, 4).map((entry) => JSON.parse(entry.changes).products), [{ from: 1, to: 10 }, { from: 11, to: 20 }, { from: 21, to: 25 }]);
    assert.equal(report.catalogVersion, before + 5);
  });

  it('reports progress of both phases with rates and time left, and their ends', async () => {
    const file = await dir.writeJson('progress.json', catalog(bulk(2000)));
    const events: ImportProgress[] = [];
    await importCatalogFile(new CatalogWriter(testApp.store.db), file, { batchSize: 250, progressIntervalMs: 0, onProgress: (event) => events.push(event) });

    const validating = events.filter((event) => event.phase === 'validating');
    const writing = events.filter((event) => event.phase === 'writing');
    assert.ok(validating.length > 2, `${validating.length} validation reports`);
    assert.equal(writing.length, 2000 / 250 + 1);
    assert.ok(events.indexOf(writing[0]!) > events.indexOf(validating.at(-1)!), 'validation ends before writing begins');

    const running = validating.at(-2)!;
    assert.equal(running.done, false);
    assert.ok(running.bytesRead! > 0 && running.bytesRead! <= running.totalBytes!);
    assert.equal(typeof running.etaSeconds, 'number');
    assert.deepEqual(
      writing.map((event) => event.products),
      [250, 500, 750, 1000, 1250, 1500, 1750, 2000, 2000],
    );
    assert.ok(writing.every((event) => event.totalProducts === 2000 && typeof event.etaSeconds === 'number'));
    for (const last of [validating.at(-1)!, writing.at(-1)!]) {
      assert.equal(last.done, true);
      assert.equal(last.products, 2000);
    }
    assert.equal(validating.at(-1)!.bytesRead, validating.at(-1)!.totalBytes);
  });
});
