import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { validateCatalogFile } from '../../src/catalog/file/validate-catalog-file.js';
import { readCatalogFile } from '../../src/catalog/store/seed.js';
import { catalog, product, tempDir, variant, type TempDir } from '../support/catalog-builder.js';
import { readDemoCatalog } from '../support/catalog-store.js';
import { INVALID_CATALOG, INVALID_CATALOG_PROBLEMS } from '../support/invalid-catalog.js';

describe('catalog file validation reports every problem with its JSON path', () => {
  let dir: TempDir;

  before(async () => {
    dir = await tempDir();
  });
  after(() => dir.remove());

  it('rejects a file with shape and cross-reference errors, listing all of them', () => {
    const check = validateCatalogFile(structuredClone(INVALID_CATALOG));
    assert.equal(check.ok, false);
    if (check.ok) return;
    const paths = [...new Set(check.problems.map((problem) => problem.path))].sort();
    assert.deepEqual(paths, INVALID_CATALOG_PROBLEMS.map(([path]) => path).sort());
    for (const [path, message] of INVALID_CATALOG_PROBLEMS) {
      const messages = check.problems.filter((problem) => problem.path === path).map((problem) => problem.message);
      assert.ok(messages.some((text) => message.test(text)), `${path}: ${messages.join('; ')} does not match ${message}`);
    }
  });

  it('reports no problem in the valid parts of an invalid file', () => {
    const check = validateCatalogFile(structuredClone(INVALID_CATALOG));
    assert.ok(!check.ok && check.problems.every((problem) => !problem.path.startsWith('$.products[0]')));
  });

  it('does not report a price in a malformed region as an unknown region', () => {
    const file = catalog([product('p', { variants: [variant('P', { prices: [{ currency: 'GBP', amount: 1, region: 'reg_gb' }] })] })]);
    file.regions = file.regions.map((region) => (region.id === 'reg_gb' ? { ...region, currency: 'gbp' } : region));
    const check = validateCatalogFile(file);
    assert.ok(!check.ok);
    assert.deepEqual(
      check.problems.map((problem) => problem.path),
      ['$.regions[2].currency'],
    );
  });

  it('accepts the demo catalog', async () => {
    assert.equal(validateCatalogFile(await readDemoCatalog()).ok, true);
  });

  it('readCatalogFile fails with the count and every path in its message', async () => {
    const file = await dir.writeJson('invalid.json', INVALID_CATALOG);
    await assert.rejects(readCatalogFile(file), (error: Error) => {
      for (const [path] of INVALID_CATALOG_PROBLEMS) assert.ok(error.message.includes(`${path}:`), `${path} missing in ${error.message}`);
      return true;
    });
  });

});
