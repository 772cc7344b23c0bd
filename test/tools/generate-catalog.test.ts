import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { generateCatalog } from '../../tools/catalog-generator/catalog.js';
import { validateCatalogFile } from '../../src/catalog/file/validate-catalog-file.js';

describe('catalog:generate', () => {
  it('is deterministic for a seed and differs between seeds', () => {
    const a = JSON.stringify(generateCatalog({ products: 300, seed: 7 }));
    const b = JSON.stringify(generateCatalog({ products: 300, seed: 7 }));
    const c = JSON.stringify(generateCatalog({ products: 300, seed: 8 }));
    assert.equal(a, b);
    assert.notEqual(a, c);
  });

  it('writes a catalog the importer accepts, with drafts, weighted products and all availability states', () => {
    const catalog = generateCatalog({ products: 2000, seed: 1 });
    const check = validateCatalogFile(structuredClone(catalog));
    assert.ok(check.ok, JSON.stringify(!check.ok && check.problems.slice(0, 5)));
    assert.equal(catalog.products.length, 2000);
    assert.ok(catalog.products.some((product) => product.status === 'draft'));
    assert.ok(catalog.products.some((product) => product.weighted));
    const variants = catalog.products.flatMap((product) => product.variants);
    assert.ok(variants.some((variant) => !variant.manage_inventory));
    assert.ok(variants.some((variant) => variant.manage_inventory && variant.inventory_quantity === 0 && variant.allow_backorder));
    assert.ok(variants.some((variant) => variant.manage_inventory && variant.inventory_quantity === 0 && !variant.allow_backorder));
    assert.ok(variants.some((variant) => variant.prices.some((price) => price.region !== undefined)));
  });

  it('exits 2 with a usage message for a bad --products', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'tools/generate-catalog.ts', '--products', 'many', '--out', '/tmp/x.json'], {
      encoding: 'utf8',
    });
    assert.equal(result.status, 2);
    assert.match(result.stderr, /--products/);
  });
});
