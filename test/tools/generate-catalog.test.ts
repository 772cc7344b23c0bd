import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { CatalogFileProduct } from '../../src/catalog/file/catalog-file-schema.js';
import { checkCatalogFile } from '../../src/catalog/store/import-catalog-file.js';
import { GENERATED_CATEGORIES, generateCatalog } from '../../tools/catalog-generator/catalog.js';
import { validateCatalogFile } from '../../src/catalog/file/validate-catalog-file.js';
import { tempDir } from '../support/catalog-builder.js';

const filingOf = (product: CatalogFileProduct) => [product.categories, product.collection, product.tags, product.images];

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

  it('files products in a category tree titled in English and Italian, with collections, tags and images with alt text', () => {
    const catalog = generateCatalog({ products: 2000, seed: 3 });
    const categories = new Map(catalog.categories!.map((category) => [category.handle, category]));
    const collections = new Set(catalog.collections!.map((collection) => collection.handle));
    const levelOf = (handle: string): number => {
      const parent = categories.get(handle)!.parent;
      return parent ? 1 + levelOf(parent) : 0;
    };
    const levels = catalog.categories!.map((category) => levelOf(category.handle));
    assert.ok(levels.filter((level) => level === 0).length >= 10, 'at least 10 top-level categories');
    assert.ok(levels.filter((level) => level === 1).length >= 50, 'at least 50 categories one level down');
    assert.ok(levels.includes(2), 'categories two levels down');
    assert.ok(collections.size >= 20, 'at least 20 collections');
    for (const entry of [...catalog.categories!, ...catalog.collections!]) assert.ok(entry.titles.en && entry.titles.it, entry.handle);

    for (const product of catalog.products) {
      const where = product.handle;
      assert.ok(product.categories!.length >= 1 && product.categories!.length <= 2, where);
      for (const handle of product.categories!) assert.ok(categories.has(handle), `${where}: category ${handle}`);
      assert.ok(product.collection === undefined || collections.has(product.collection!), where);
      assert.ok((product.tags ?? []).length <= 4, where);
      assert.ok((product.images ?? []).length <= 3, where);
    }
    const images = catalog.products.flatMap((product) => product.images ?? []);
    const share = (count: number) => count / catalog.products.length;
    assert.ok(share(catalog.products.filter((product) => product.categories!.length === 2).length) > 0.3);
    assert.ok(share(catalog.products.filter((product) => product.collection).length) > 0.2);
    assert.ok(share(catalog.products.filter((product) => product.collection === undefined).length) > 0.2);
    assert.ok(catalog.products.some((product) => product.tags === undefined) && catalog.products.some((product) => product.tags?.length === 4));
    assert.ok(catalog.products.some((product) => product.images === undefined) && catalog.products.some((product) => product.images?.length === 3));
    assert.ok(images.filter((image) => typeof image.alt === 'string' && image.alt.length > 0).length > images.length * 0.9);
    assert.ok(images.some((image) => image.alt === undefined), 'some images without alt text');
  });

  it('files the same seed the same way, and another seed otherwise', () => {
    const filing = (seed: number) => JSON.stringify(generateCatalog({ products: 300, seed }).products.map(filingOf));
    assert.equal(filing(5), filing(5));
    assert.notEqual(filing(5), filing(6));
  });

  it('writes the same catalog from the command line, which the streaming importer accepts', async () => {
    const dir = await tempDir();
    try {
      const out = path.join(dir.path, 'generated.json');
      const result = spawnSync(process.execPath, ['--import', 'tsx', 'tools/generate-catalog.ts', '--products', '300', '--seed', '4', '--out', out], {
        encoding: 'utf8',
      });
      assert.equal(result.status, 0, result.stderr);
      assert.deepEqual(JSON.parse(await readFile(out, 'utf8')), JSON.parse(JSON.stringify(generateCatalog({ products: 300, seed: 4 }))));
      const checked = await checkCatalogFile(out);
      assert.equal(checked.productCount, 300);
      assert.deepEqual(checked.categories, GENERATED_CATEGORIES);
    } finally {
      await dir.remove();
    }
  });

  it('exits 2 with a usage message for a bad --products', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'tools/generate-catalog.ts', '--products', 'many', '--out', '/tmp/x.json'], {
      encoding: 'utf8',
    });
    assert.equal(result.status, 2);
    assert.match(result.stderr, /--products/);
  });
});
