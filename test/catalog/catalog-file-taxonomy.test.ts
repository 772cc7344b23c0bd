import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CatalogFile, CatalogFileCategory } from '../../src/catalog/file/catalog-file-schema.js';
import { CatalogFileInvalid, checkCatalogFile } from '../../src/catalog/store/import-catalog-file.js';
import { validateCatalogFile, type CatalogFileProblem } from '../../src/catalog/file/validate-catalog-file.js';
import { MAX_CATEGORY_DEPTH } from '../../src/catalog/model/taxonomy.js';
import { catalog, category, collection, product, tempDir, type TempDir } from '../support/catalog-builder.js';

const TREE = [category('pantry', { titleIt: 'Dispensa' }), category('pasta', { parent: 'pantry' }), category('dried-pasta', { parent: 'pasta' })];

/** A catalog file with the tree above and one collection, `classics`, unless `fields` says otherwise. */
const filed = (products: CatalogFile['products'], fields: Partial<CatalogFile> = {}): CatalogFile => ({
  ...catalog(products),
  categories: TREE,
  collections: [collection('classics')],
  ...fields,
});

function problemsOf(file: unknown): CatalogFileProblem[] {
  const check = validateCatalogFile(file);
  assert.equal(check.ok, false, 'the file should be invalid');
  return check.ok ? [] : check.problems;
}

/** `count` categories, each below the one before: the last is `count - 1` levels below the top. */
const chain = (count: number): CatalogFileCategory[] =>
  Array.from({ length: count }, (_, level) => category(`level-${level}`, level === 0 ? {} : { parent: `level-${level - 1}` }));

describe('catalog file validation of the taxonomy reports every problem with its JSON path', () => {
  it(`accepts products filed in declared categories and collections, in a tree ${MAX_CATEGORY_DEPTH} levels deep`, () => {
    const file = filed(
      [
        product('spaghetti', { categories: ['dried-pasta', 'pantry'], collection: 'classics', tags: ['organic'], images: [{ url: 'https://images.example/s.jpg' }] }),
        product('unfiled', { collection: null }),
        product('deep', { categories: [`level-${MAX_CATEGORY_DEPTH}`] }),
      ],
      { categories: [...TREE, ...chain(MAX_CATEGORY_DEPTH + 1)] },
    );
    const check = validateCatalogFile(file);
    assert.ok(check.ok, JSON.stringify(!check.ok && check.problems));
  });

  it('reports an unknown category once, at the first product that names it', () => {
    const file = filed([product('a'), product('b', { categories: ['pasta', 'ghost'] }), product('c', { categories: ['ghost'] })]);
    assert.deepEqual(problemsOf(file), [{ path: '$.products[1].categories[1]', message: 'unknown category "ghost" (not in $.categories)' }]);
  });

  it('reports a category named in a file that declares none', () => {
    const file = { ...catalog([product('a', { categories: ['pasta'] })]) };
    assert.deepEqual(problemsOf(file), [{ path: '$.products[0].categories[0]', message: 'unknown category "pasta" (not in $.categories)' }]);
  });

  it('reports an unknown collection', () => {
    const file = filed([product('a', { collection: 'classics' }), product('b', { collection: 'summer' })]);
    assert.deepEqual(problemsOf(file), [{ path: '$.products[1].collection', message: 'unknown collection "summer" (not in $.collections)' }]);
  });

  it('reports a duplicate category handle and a duplicate collection handle at their second declaration', () => {
    const file = filed([product('a')], {
      categories: [...TREE, category('pasta', { parent: 'pantry' })],
      collections: [collection('classics'), collection('summer'), collection('classics')],
    });
    assert.deepEqual(problemsOf(file), [
      { path: '$.categories[3].handle', message: 'duplicate category handle "pasta"' },
      { path: '$.collections[2].handle', message: 'duplicate collection handle "classics"' },
    ]);
  });

  it('reports a parent that is not declared', () => {
    const file = filed([product('a')], { categories: [...TREE, category('fresh-pasta', { parent: 'pasta' }), category('pesto', { parent: 'sauces' })] });
    assert.deepEqual(problemsOf(file), [{ path: '$.categories[4].parent', message: 'unknown parent category "sauces"' }]);
  });

  it('reports every category whose parents form a cycle, a category that is its own parent included', () => {
    const file = filed([product('a')], { categories: [...TREE, category('eggs', { parent: 'hens' }), category('hens', { parent: 'eggs' }), category('ouroboros', { parent: 'ouroboros' })] });
    assert.deepEqual(problemsOf(file), [
      { path: '$.categories[3].parent', message: 'the parents of category "eggs" form a cycle (through "eggs")' },
      { path: '$.categories[4].parent', message: 'the parents of category "hens" form a cycle (through "hens")' },
      { path: '$.categories[5].parent', message: 'the parents of category "ouroboros" form a cycle (through "ouroboros")' },
    ]);
  });

  it(`reports a category more than ${MAX_CATEGORY_DEPTH} levels below the top, and none above it`, () => {
    const file = filed([product('a')], { categories: chain(MAX_CATEGORY_DEPTH + 2) });
    assert.deepEqual(problemsOf(file), [
      {
        path: `$.categories[${MAX_CATEGORY_DEPTH + 1}].parent`,
        message: `category "level-${MAX_CATEGORY_DEPTH + 1}" is more than ${MAX_CATEGORY_DEPTH} levels below the top`,
      },
    ]);
  });

  it('reports malformed categories, collections, tags and images by their paths, and references to a malformed entry only there', () => {
    const file = filed(
      [
        product('a', { categories: ['sauces'], collection: 'classics' }),
        product('b', { tags: ['gift', 'Gift'] }),
        product('c', { tags: ['gift', 'gift'], images: [{ url: 'not a url', alt: 'A jar' }, { url: 'https://images.example/c.jpg', alt: null }] }),
      ],
      {
        categories: [...TREE, { handle: 'sauces', titles: { it: 'Sughi' } } as never, category('pesto', { parent: 'sauces' }), category('Bad Handle')],
        collections: [{ handle: 'classics', titles: { en: '' } }],
      },
    );
    assert.deepEqual(
      problemsOf(file).map((problem) => problem.path),
      // The image URL is no address (format), nor an http(s) one (pattern): two problems.
      ['$.products[1].tags[1]', '$.products[2].tags', '$.products[2].images[0].url', '$.products[2].images[0].url', '$.categories[3].titles', '$.categories[5].handle', '$.collections[0].titles.en'],
    );
  });
});

describe('a streamed catalog file may declare its taxonomy after its products', () => {
  let dir: TempDir;

  before(async () => {
    dir = await tempDir();
  });
  after(() => dir.remove());

  /** The file with its members in this order: products first. */
  async function writeProductsFirst(name: string, file: CatalogFile): Promise<string> {
    const { products, categories, collections, ...rest } = file;
    const written = path.join(dir.path, name);
    await writeFile(written, JSON.stringify({ products, ...rest, categories, collections }));
    return written;
  }

  it('passes when every reference is declared after the products', async () => {
    const file = filed([product('spaghetti', { categories: ['dried-pasta'], collection: 'classics' })]);
    const checked = await checkCatalogFile(await writeProductsFirst('late.json', file));
    assert.deepEqual(checked.categories, TREE);
    assert.deepEqual(checked.collections, [collection('classics')]);
  });

  it('reports the same problems, with the same paths, as for the parsed file', async () => {
    const file = filed(
      [product('a', { categories: ['ghost'] }), product('b', { collection: 'summer' })],
      { categories: [...TREE, category('eggs', { parent: 'hens' }), category('hens', { parent: 'eggs' }), category('orphan', { parent: 'nowhere' }), category('pasta')] },
    );
    const expected = problemsOf(structuredClone(file));
    assert.equal(expected.length, 6);
    await assert.rejects(checkCatalogFile(await writeProductsFirst('late-invalid.json', file)), (error: unknown) => {
      assert.ok(error instanceof CatalogFileInvalid);
      assert.deepEqual(error.problems, expected);
      return true;
    });
  });
});
