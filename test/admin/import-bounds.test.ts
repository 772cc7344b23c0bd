import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MAX_TEXT_LENGTH } from '../../src/catalog/file/catalog-file-stream.js';
import { CatalogFileInvalid, checkCatalogFile } from '../../src/catalog/store/import-catalog-file.js';
import type { ImportProgress } from '../../src/catalog/store/import-progress.js';
import { MAX_CATALOG_CATEGORIES } from '../../src/catalog/model/taxonomy.js';
import { failedImport, withAdmin } from '../support/admin.js';
import { catalog, category, product, tempDir, type TempDir } from '../support/catalog-builder.js';
import { useTestApp } from '../support/test-app.js';

/** A catalog file whose one product has a description of `length` characters. */
const longDescription = (length: number) => catalog([product('long', { translations: { en: { title: 'Long', description: 'x'.repeat(length) } } })]);

describe('catalog files beyond the bounds of any valid file', () => {
  const testApp = useTestApp(withAdmin());
  let dir: TempDir;
  before(async () => {
    dir = await tempDir();
  });
  after(() => dir.remove());

  it('refuses a string longer than the bound over HTTP (a failed job naming its path and the bound), and writes nothing', async () => {
    const before = await testApp.store.db.selectFrom('products').select('handle').execute();
    const refused = await failedImport(testApp, longDescription(MAX_TEXT_LENGTH + 1), 'INVALID_REQUEST');
    assert.equal(refused.details.problem_count, 1);
    assert.equal(refused.details.problems[0].path, '$.products[0].translations.en.description');
    assert.match(refused.details.problems[0].message, /longer than 65,536 characters/);
    assert.deepEqual(await testApp.store.db.selectFrom('products').select('handle').execute(), before);
  });

  it('refuses a long string once the bound is passed, before the rest of it is read', async () => {
    // 8 MB of one string: read whole, it would be refused only after its end.
    const file = await dir.writeJson('long.json', longDescription(8_000_000));
    const reports: ImportProgress[] = [];
    await assert.rejects(checkCatalogFile(file, { onProgress: (progress) => reports.push(progress) }), (error: unknown) => {
      assert.ok(error instanceof CatalogFileInvalid);
      assert.deepEqual(error.problems.map((problem) => problem.path), ['$.products[0].translations.en.description']);
      return true;
    });
    const last = reports.at(-1)!;
    assert.equal(last.done, true);
    assert.ok(last.bytesRead! < 1_000_000, `read ${last.bytesRead} of ${last.totalBytes} bytes`);
  });

  it(`refuses more than ${MAX_CATALOG_CATEGORIES} categories with one problem, however many there are`, async () => {
    const categories = Array.from({ length: 4 * MAX_CATALOG_CATEGORIES }, (_, i) => category(`c-${i}`));
    const refused = await failedImport(testApp, { ...catalog([product('figs')]), categories }, 'INVALID_REQUEST');
    assert.deepEqual(refused.details.problems, [{ path: '$.categories', message: `must NOT have more than ${MAX_CATALOG_CATEGORIES} items` }]);
    assert.equal(refused.details.problem_count, 1);
  });
});
